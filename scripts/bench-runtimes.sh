#!/usr/bin/env bash
# Rust's own whole-file reads against readscope's rust-fs-read and rust-read-to-end, on the
# same files, warm: prints per file size the time per file each way, the ratio
# readscope / Rust (goal: within 10%), and which of the pair wins on both sides. Neither timing
# includes a process start: the Rust program (tests/runtimes/rust_read.rs, built here with
# rustc -O) times its own loop, readscope its rounds; both look at one byte of each file
# (--consume minimal), so the read is what is timed. A benchmark, not a test: the figures
# move with the machine's load.
#   scripts/bench-runtimes.sh [SIZES] [ROUNDS]     SIZES default 128,1K,8K,64K,512K,2M,8M,32M
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-128,1K,8K,64K,512K,2M,8M,32M}
rounds=${2:-15}
command -v rustc >/dev/null || { echo "bench-runtimes: rustc is not installed" >&2; exit 2; }
cli=build/dev/app/cli/readscope-cli
[[ -x $cli ]] || bash scripts/build.sh dev >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rustc -O -o "$work/rust_read" tests/runtimes/rust_read.rs
"$cli" generate "$work/big.bin" --size 64M >/dev/null
# The same bytes readscope's whole-file sweep copies: the big file's first bytes.
files=()
IFS=, read -r -a list <<<"$sizes"
for s in "${list[@]}"; do
    bytes=$(python3 -c "import sys; s=sys.argv[1]; m={'K':1<<10,'M':1<<20,'G':1<<30}; print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$s")
    head -c "$bytes" "$work/big.bin" >"$work/f$bytes.bin"
    files+=("$work/f$bytes.bin")
done
# Rust: repeats per file so that each timing lasts about 0.2 s; the pair interleaved, 5 times,
# medians taken.
for round in 1 2 3 4 5; do
    for mode in fs-read read-to-end; do
        for f in "${files[@]}"; do
            bytes=$(stat -c %s "$f")
            reps=$(( 200000000 / (bytes + 20000) + 5 ))
            "$work/rust_read" "$mode" "$reps" "$f" 2>/dev/null | sed "s/^/$mode /"
        done
    done
done >"$work/rust.txt"
"$cli" run "$work/big.bin" --pattern whole --sizes "$sizes" \
    --strategies rust-fs-read,rust-read-to-end --rounds "$rounds" --consume minimal --quiet \
    --json "$work/readscope.json" >/dev/null
python3 - "$work/rust.txt" "$work/readscope.json" <<'PY'
import json, statistics, sys, os
rust = {}
for line in open(sys.argv[1]):
    mode, path, ns = line.split()
    rust.setdefault((mode, os.path.getsize(path)), []).append(float(ns))
doc = json.load(open(sys.argv[2]))
rs = {}
for c in doc["cells"]:
    mode = "fs-read" if c["strategy"] == "rust-fs-read" else "read-to-end"
    rs[(mode, c["range_bytes"])] = c["range_bytes"] / c["summary"]["median_gbps"]  # ns per file
print(f"{'file size':>10} | {'Rust fs::read ns':>16} {'readscope':>10} {'ratio':>6} | "
      f"{'Rust read_to_end ns':>19} {'readscope':>10} {'ratio':>6} | {'prealloc/grow Rust':>18} {'readscope':>9}")
worst = 0
same = True
for size in sorted({k[1] for k in rs}):
    a, b = statistics.median(rust[("fs-read", size)]), statistics.median(rust[("read-to-end", size)])
    x, y = rs[("fs-read", size)], rs[("read-to-end", size)]
    worst = max(worst, abs(x / a - 1), abs(y / b - 1))
    same &= (a < b) == (x < y)
    print(f"{size:>10} | {a:>16.0f} {x:>10.0f} {x / a:>6.2f} | {b:>19.0f} {y:>10.0f} {y / b:>6.2f} | "
          f"{b / a:>18.2f} {y / x:>9.2f}")
print(f"\nlargest gap to Rust's own time: {worst * 100:.0f}% (goal: within 10%); "
      f"the same winner at every size: {'yes' if same else 'no'}")
PY
