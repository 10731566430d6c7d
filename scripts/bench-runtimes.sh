#!/usr/bin/env bash
# Rust's own whole-file reads against readscope's rust-fs-read and rust-read-to-end, on the
# same files, warm: prints per file size the time per file each way, the ratio
# readscope / Rust (goal: within 10%), and which of the pair wins on both sides. Neither timing
# includes a process start: the Rust program (tests/runtimes/rust_read.rs, built here with
# rustc -O) times its own loop, readscope its rounds; both look at one byte of each file
# (--consume minimal), so the read is what is timed. A benchmark, not a test: the figures
# move with the machine's load.
#   scripts/bench-runtimes.sh [SIZES] [ROUNDS] [TURNS]   SIZES default 128,1K,8K,64K,512K,2M,8M,32M,
#   3 readscope rounds per turn, 11 turns
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-128,1K,8K,64K,512K,2M,8M,32M}
rounds=${2:-3}
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
    # Written as readscope writes its whole-file copies, in 1 MiB writes: the page cache keeps
    # a file in folios as large as the writes that made it, and reading an 8 MiB file made by
    # 8 KiB writes (head -c) measured 25% slower here than one made by large writes.
    dd if="$work/big.bin" of="$work/f$bytes.bin" bs=1M count="$bytes" iflag=count_bytes status=none
    files+=("$work/f$bytes.bin")
done
# Rust reads in both of its real shapes, each a table: on a second thread (--thread), as
# readscope's worker does, and on its process's only thread, as a small tool does: a
# single-threaded process skips glibc's arena lock and the kernel's file reference counts, which
# measured 8-10% per file here at 128 B and 64 KiB (paired, 15 runs each).
# This machine's speed drifts by tens of percent between runs a minute apart, so the two
# sides are timed in pairs, back to back: for each mode and file, Rust's loop (the file
# repeated for about 50 ms) and readscope on that one strategy and size (ROUNDS rounds), in
# turns, the order swapped every turn so drift favours neither side. Each side is a process
# of its own that reads one file size in one way, so neither's allocator carries the history
# of other sizes. The ratio is taken within each pair.
turns=${3:-11}
for ((turn = 1; turn <= turns; turn++)); do
    for mode in fs-read read-to-end; do
        for f in "${files[@]}"; do
            bytes=$(stat -c %s "$f")
            reps=$(( 50000000 / (bytes + 20000) + 5 ))
            # Rust's two shapes in an order that swaps every second turn, so that each sits
            # right beside readscope's run in half the turns (the sides swap every turn).
            rust_thread() { "$work/rust_read" --thread "$mode" "$reps" "$f" 2>/dev/null |
                                sed "s/^/$turn thread $mode /" >>"$work/rust.txt"; }
            rust_main() { "$work/rust_read" "$mode" "$reps" "$f" 2>/dev/null |
                              sed "s/^/$turn main $mode /" >>"$work/rust.txt"; }
            rust() {
                if (((turn - 1) / 2 % 2)); then rust_main; rust_thread; else rust_thread; rust_main; fi
            }
            ours() { "$cli" run "$work/big.bin" --pattern whole --sizes "$bytes" \
                         --strategies "rust-$mode" --rounds "$rounds" --consume minimal --quiet \
                         --json "$work/readscope-$turn-$mode-$bytes.json" >/dev/null; }
            if ((turn % 2)); then rust; ours; else ours; rust; fi
        done
    done
done
python3 - "$work" "$turns" <<'PY'
import glob, json, math, os, statistics, sys
work, turns = sys.argv[1], int(sys.argv[2])
rusts, ours = {}, {}  # rusts: shape -> (turn, mode, size) -> ns
for line in open(os.path.join(work, "rust.txt")):
    turn, shape, mode, path, ns = line.split()
    rusts.setdefault(shape, {})[(int(turn), mode, os.path.getsize(path))] = float(ns)
for name in glob.glob(os.path.join(work, "readscope-*.json")):
    turn = int(os.path.basename(name).split("-")[1])
    for c in json.load(open(name))["cells"]:
        mode = c["strategy"].removeprefix("rust-")
        ours[(turn, mode, c["range_bytes"])] = c["range_bytes"] / c["summary"]["median_gbps"]

def median_interval(xs):
    """The narrowest pair of order statistics (k-th lowest, k-th highest) that still holds
    the true median with probability 95% or more, and that probability (exact, binomial)."""
    xs, n = sorted(xs), len(xs)
    best = None
    for k in range(1, n // 2 + 1):
        cover = 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
        if cover < 0.95:
            break
        best = (xs[k - 1], xs[n - k], cover)
    return best  # None: too few turns for 95%

sizes = sorted({k[2] for k in ours})
med = statistics.median
for shape, rust in rusts.items():
    print(f"\nRust on {'a second thread, as readscope reads' if shape == 'thread' else 'its only thread'}; {turns} turns; ns per file, medians over the turns; ratio = readscope / Rust within a "
          "pair, median [interval]")
    print(f"{'file size':>10} | {'fs::read Rust':>13} {'readscope':>9} {'ratio':>18} | "
          f"{'read_to_end Rust':>16} {'readscope':>9} {'ratio':>18} | {'grow/prealloc Rust':>18} {'readscope':>9}")
    inside, outside, unsure, coverage = [], [], [], None
    same = True
    for size in sizes:
        row, cost = [], {}
        for mode in ("fs-read", "read-to-end"):
            r = [rust[(t, mode, size)] for t in range(1, turns + 1)]
            o = [ours[(t, mode, size)] for t in range(1, turns + 1)]
            ratios = [b / a for a, b in zip(r, o)]
            ci = median_interval(ratios)
            label = f"{mode} {size} B"
            if ci is None:
                unsure.append(label)
                text = "[too few turns]"
            else:
                lo, hi, coverage = ci
                (inside if lo >= 0.9 and hi <= 1.1 else outside if lo > 1.1 or hi < 0.9 else unsure).append(label)
                text = f"[{lo:.2f}, {hi:.2f}]"
            cost[mode] = (med(r), med(o))
            row.append(f"{med(r):>{13 if mode == 'fs-read' else 16}.0f} {med(o):>9.0f} "
                       f"{med(ratios):>5.2f} {text:>12}")
        rg = cost["read-to-end"][0] / cost["fs-read"][0]
        og = cost["read-to-end"][1] / cost["fs-read"][1]
        same &= (rg > 1) == (og > 1)
        print(f"{size:>10} | {row[0]} | {row[1]} | {rg:>18.2f} {og:>9.2f}")
    print()
    if coverage is not None:
        print(f"Intervals: order statistics of the pairs' ratios that hold their median with "
              f"{coverage * 100:.1f}% probability.")
    print(f"Within 10% (the whole interval inside 0.90-1.10): {len(inside)} of {len(inside) + len(outside) + len(unsure)}.")
    print(f"Each interval stands alone: over {len(inside) + len(outside) + len(unsure)} cells at "
          "this coverage, one may miss its median by chance, so a single 'outside' is weak evidence.")
    if outside:
        print("Not within 10% (the whole interval outside): " + ", ".join(outside) + ".")
    if unsure:
        print("Cannot tell (the interval crosses 0.90 or 1.10; more turns narrow it): " + ", ".join(unsure) + ".")
    print(f"The same winner of the pair at every size: {'yes' if same else 'no'}.")
PY
