#!/usr/bin/env bash
# A benchmark, not a test: readscope-cli's figures beside a plain C program's
# (bench/outside_loop.c, a process of its own, nothing of the engine in it) on the same warm
# file, per strategy and range size, for one or more file sizes. Runs alternate (engine first,
# then the loop first, ...); each side's best median over the runs is set against the other's,
# and each run's own ratio is listed, so that a difference the machine made in one run shows.
#
#   scripts/outside-loop.sh [--file-sizes 256M,1G] [--sizes 16K,64K,256K,1M,8M]
#                           [--strategies pread-zerofill,pread-uninit,seek-read,mmap-copy]
#                           [--runs 3] [--rounds 7] [--as-run] [--dir DIR]
#
# By default both read the whole file every round (the engine with --round-time 0 and the
# file as its budget). --as-run leaves the engine's round time and budget as a user's run has
# them, and the loop reads, each round, the bytes that run's rounds read (its ranges per round).
# The files are generated in DIR (default: a temporary folder, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."

file_sizes=256M,1G
sizes=16K,64K,256K,1M,8M
strategies=pread-zerofill,pread-uninit,seek-read,mmap-copy
runs=3
rounds=7
as_run=0
dir=""
while (($#)); do
    case $1 in
    --file-sizes) file_sizes=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --strategies) strategies=$2; shift ;;
    --runs) runs=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --as-run) as_run=1 ;;
    --dir) dir=$2; shift ;;
    *) echo "outside-loop: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

cmake --preset dev >/dev/null
cmake --build build/dev --target readscope-cli readscope-outside-loop >/dev/null
cli=build/dev/app/cli/readscope-cli
loop=build/dev/bench/readscope-outside-loop
if [[ -z "$dir" ]]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi

bytes() { numfmt --from=iec "$1"; }

for fs in ${file_sizes//,/ }; do
    file="$dir/outside-$fs.bin"
    [[ -f "$file" ]] || "$cli" generate "$file" --size "$fs" >/dev/null
    cat "$file" >/dev/null # warm
    out="$dir/$fs"
    mkdir -p "$out"
    for ((k = 1; k <= runs; k++)); do
        engine() {
            local extra=(--round-time 0 --budget "$fs")
            ((as_run)) && extra=()
            "$cli" run "$file" --sizes "$sizes" --strategies "$strategies" --cache warm \
                --consume minimal --rounds "$rounds" --warmup 1 "${extra[@]}" \
                --json "$out/engine-$k.json" --quiet >/dev/null 2>&1 || true
        }
        plain() {
            for s in ${strategies//,/ }; do
                for z in ${sizes//,/ }; do
                    local span=""
                    if ((as_run)); then
                        span=$(python3 - "$out/engine-$k.json" "$s" "$(bytes "$z")" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    if c["strategy"] == sys.argv[2] and c["range_bytes"] == int(sys.argv[3]):
        print(c["ranges_per_round"] * c["range_bytes"])
PY
                        )
                    fi
                    "$loop" "$file" "$s" "$(bytes "$z")" "$rounds" $span |
                        awk -v s="$s" -v z="$(bytes "$z")" '/^median/ { print s, z, $2 }'
                done
            done >"$out/loop-$k.txt"
        }
        # --as-run: the loop reads what the engine's rounds read, so the engine goes first.
        if ((as_run || k % 2 == 1)); then engine; plain; else plain; engine; fi
    done
    python3 - "$out" "$runs" "$fs" <<'PY'
import json, sys
out, runs, fs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
engine, loop = {}, {}
for k in range(1, runs + 1):
    try:
        doc = json.load(open(f"{out}/engine-{k}.json"))
    except (OSError, ValueError):
        continue
    for c in doc["cells"]:
        engine.setdefault((c["strategy"], c["range_bytes"]), []).append(c["summary"]["median_gbps"])
    for line in open(f"{out}/loop-{k}.txt"):
        s, z, g = line.split()
        loop.setdefault((s, int(z)), []).append(float(g))
def size(b):
    for unit, n in (("M", 1 << 20), ("K", 1 << 10)):
        if b % n == 0 and b >= n:
            return f"{b // n} {unit}iB"
    return f"{b} B"
print(f"\n{fs} file: best median of {runs} runs, GB/s (engine = readscope-cli run, loop = "
      f"bench/outside_loop.c)")
print(f"{'strategy':<16} {'range':>8} {'engine':>8} {'loop':>8} {'ratio':>7}  each run's ratio")
below = 0
for key in sorted(loop, key=lambda k: (k[0], k[1])):
    if key not in engine:
        continue
    e, l = max(engine[key]), max(loop[key])
    each = " ".join(f"{a / b:.2f}" for a, b in zip(engine[key], loop[key]))
    below += e / l < 0.97
    print(f"{key[0]:<16} {size(key[1]):>8} {e:8.2f} {l:8.2f} {e / l:7.2f}  {each}")
print(f"{below} of {len(loop)} cells under 0.97")
PY
done
