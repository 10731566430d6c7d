#!/usr/bin/env bash
# A benchmark, not a test: readscope-cli's figures beside a plain C program's
# (bench/outside_loop.c, a process of its own, nothing of the engine in it) on the same warm
# file, per strategy and range size, for one or more file sizes.
#
#   scripts/outside-loop.sh [--file-sizes 256M,1G] [--sizes 16K,64K,256K,1M,8M]
#                           [--strategies pread-zerofill,pread-uninit,seek-read,mmap-copy]
#                           [--pairs 7] [--rounds 5] [--together] [--as-run] [--dir DIR]
#                           [--loop-shapes main,thread]
#
# Paired (the default): each cell is measured by one engine run of that cell alone and one loop
# run, back to back, order alternating, --pairs times; a pair's ratio is the engine's median
# over the loop's, and a cell's ratio is the median of its pairs', with the interval that holds
# that median with 90% or more (distribution-free: order statistics of the pairs). The last
# line counts the cells whose interval lies under 0.97, and those whose interval lies at 0.97
# or above; the rest the pairs cannot tell apart from 0.97. This VM's speed drifts by up
# to 30% over seconds (the same loop, pinned or not, runs at 6.5 or 8.6 GB/s at 16 KiB from one
# run to the next), so only runs seconds apart can be set against each other.
# --together runs the engine once per pair with every cell interleaved, as a user's run does,
# then the loop over every cell: the pairs are farther apart in time, so noisier, but the
# interleaving is the engine's own.
# Both read the whole file every round (the engine with --round-time 0 and the file as its
# budget). --as-run (with --together) leaves the engine's round time and budget as a user's run
# has them, and the loop reads, each round, the bytes that run's rounds read.
# The loop runs in two shapes (--loop-shapes): on its process's only thread (main), and on a
# second thread while the first waits (thread), as readscope's lane workers read. The second is
# a strategy's stated shape: a reader on a worker thread of a process with other threads, which
# pays glibc's arena locks and cancellation points on every call (callgrind, 16 KiB: 338 user
# instructions a range on the main thread, 435 on a worker). Each is printed against the engine.
# The files are generated in DIR (default: a temporary folder, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."

file_sizes=256M,1G
sizes=16K,64K,256K,1M,8M
strategies=pread-zerofill,pread-uninit,seek-read,mmap-copy
pairs=7
rounds=5
together=0
as_run=0
dir=""
shapes=main,thread
while (($#)); do
    case $1 in
    --file-sizes) file_sizes=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --strategies) strategies=$2; shift ;;
    --pairs | --runs) pairs=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --together) together=1 ;;
    --as-run) as_run=1; together=1 ;;
    --dir) dir=$2; shift ;;
    --loop-shapes) shapes=$2; shift ;;
    *) echo "outside-loop: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

for shape in ${shapes//,/ }; do
    [[ $shape == main || $shape == thread ]] ||
        { echo "outside-loop: --loop-shapes takes main and thread, not '$shape'" >&2; exit 2; }
done

cmake --preset dev >/dev/null
cmake --build build/dev --target readscope-cli readscope-outside-loop >/dev/null
cli=build/dev/app/cli/readscope-cli
loop_bin=build/dev/bench/readscope-outside-loop
if [[ -z "$dir" ]]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi

bytes() { numfmt --from=iec "$1"; }

# engine OUT.json STRATEGIES SIZES: one readscope-cli run, the whole file every round unless
# --as-run.
engine() {
    local extra=(--round-time 0 --budget "$fs")
    ((as_run)) && extra=()
    "$cli" run "$file" --sizes "$3" --strategies "$2" --cache warm --consume minimal \
        --rounds "$rounds" --warmup 1 "${extra[@]}" --json "$1" --quiet >/dev/null 2>&1 || true
}
# loop STRATEGY SIZE [ENGINE.json]: "shape strategy range_bytes median" of one loop run in each
# shape, in turn; with the engine's document, reading per round what that run's rounds read
# (--as-run).
loop() {
    local shape
    for shape in ${shapes//,/ }; do
        READSCOPE_LOOP_THREAD=$([[ $shape == thread ]] && echo 1 || echo 0) loop_once "$@" |
            sed "s/^/$shape /"
    done
}
loop_once() {
    local span=""
    if ((as_run)); then
        span=$(python3 - "$3" "$1" "$(bytes "$2")" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    if c["strategy"] == sys.argv[2] and c["range_bytes"] == int(sys.argv[3]):
        print(c["ranges_per_round"] * c["range_bytes"])
PY
        )
    fi
    "$loop_bin" "$file" "$1" "$(bytes "$2")" "$rounds" $span |
        awk -v s="$1" -v z="$(bytes "$2")" '/^median/ { print s, z, $2 }'
}

for fs in ${file_sizes//,/ }; do
    file="$dir/outside-$fs.bin"
    [[ -f "$file" ]] || "$cli" generate "$file" --size "$fs" >/dev/null
    cat "$file" >/dev/null # warm
    out="$dir/$fs"
    rm -rf "$out"
    mkdir -p "$out"
    for ((k = 1; k <= pairs; k++)); do
        if ((together)); then
            all() { for s in ${strategies//,/ }; do for z in ${sizes//,/ }; do
                loop "$s" "$z" "$out/engine-$k-all.json"; done; done >>"$out/loop-$k.txt"; }
            # --as-run: the loop reads what the engine's rounds read, so the engine goes first.
            if ((as_run || k % 2 == 1)); then
                engine "$out/engine-$k-all.json" "$strategies" "$sizes"; all
            else
                all; engine "$out/engine-$k-all.json" "$strategies" "$sizes"
            fi
            continue
        fi
        for s in ${strategies//,/ }; do
            for z in ${sizes//,/ }; do
                json="$out/engine-$k-$s-$z.json"
                if ((k % 2 == 1)); then
                    engine "$json" "$s" "$z"; loop "$s" "$z" >>"$out/loop-$k.txt"
                else
                    loop "$s" "$z" >>"$out/loop-$k.txt"; engine "$json" "$s" "$z"
                fi
            done
        done
    done
    python3 - "$out" "$pairs" "$fs" "$together" <<'PY'
import glob, json, math, statistics, sys
out, pairs, fs, together = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
engine = {}  # (strategy, range) -> {pair: median GB/s}
loops = {}  # shape -> (strategy, range) -> {pair: median GB/s}
for k in range(1, pairs + 1):
    for path in glob.glob(f"{out}/engine-{k}-*.json"):
        try:
            doc = json.load(open(path))
        except (OSError, ValueError):
            continue
        for c in doc["cells"]:
            engine.setdefault((c["strategy"], c["range_bytes"]), {})[k] = c["summary"]["median_gbps"]
    try:
        for line in open(f"{out}/loop-{k}.txt"):
            shape, s, z, g = line.split()
            loops.setdefault(shape, {}).setdefault((s, int(z)), {})[k] = float(g)
    except OSError:
        pass
def median_interval(values, level=0.90):
    # Distribution-free: the j-th smallest and j-th largest of n values hold the median with
    # probability 1 - 2 P(Binomial(n, 1/2) < j); the narrowest pair with at least `level`
    # (7 pairs: their min and max, 98%; 15 pairs: the 4th from each end, 96%).
    v, n = sorted(values), len(values)
    cdf = lambda j: sum(math.comb(n, i) for i in range(j)) / 2 ** n
    j = 1
    while j + 1 <= (n + 1) // 2 and 1 - 2 * cdf(j + 1) >= level:
        j += 1
    return v[j - 1], v[n - j], 1 - 2 * cdf(j)
def size(b):
    for unit, n in (("M", 1 << 20), ("K", 1 << 10)):
        if b % n == 0 and b >= n:
            return f"{b // n} {unit}iB"
    return f"{b} B"
how = "every cell interleaved in one engine run" if together else "each cell alone, back to back"
for shape, loop in loops.items():
    where = ("the loop on its process's only thread" if shape == "main"
             else "the loop on a second thread, as the engine's worker reads")
    print(f"\n{fs} file, {pairs} pairs ({how}); {where}; GB/s medians over the pairs; "
          f"ratio = median of the pairs' engine/loop")
    print(f"{'strategy':<16} {'range':>8} {'engine':>8} {'loop':>8} {'ratio':>7} "
          f"{'pairs min-max':>14} {'median within':>14} {'sure':>5}")
    below = shown_below = shown_above = cells = 0
    for key in sorted(loop, key=lambda k: (k[0], k[1])):
        both = sorted(set(loop[key]) & set(engine.get(key, {})))
        if not both:
            continue
        ratios = [engine[key][k] / loop[key][k] for k in both]
        r = statistics.median(ratios)
        low, high, sure = median_interval(ratios)
        below += r < 0.97
        # Under 5 pairs no interval holds the median with 90%: such a cell shows nothing.
        shown_below += sure >= 0.90 and high < 0.97
        shown_above += sure >= 0.90 and low >= 0.97
        cells += 1
        print(f"{key[0]:<16} {size(key[1]):>8} {statistics.median(engine[key][k] for k in both):8.2f} "
              f"{statistics.median(loop[key][k] for k in both):8.2f} {r:7.2f} "
              f"{min(ratios):6.2f}-{max(ratios):.2f} {low:8.2f}-{high:.2f} {sure:5.0%}")
    # What the pairs can tell: a cell is under 0.97 only where its median's interval is.
    print(f"{below} of {cells} cells under 0.97 at the median ({shape}); the pairs show "
          f"{shown_below} under 0.97 and {shown_above} at 0.97 or more; the other "
          f"{cells - shown_below - shown_above} cannot be told apart from 0.97 with "
          f"up to {pairs} pairs")
PY
done
