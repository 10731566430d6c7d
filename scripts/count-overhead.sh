#!/usr/bin/env bash
# Counts, instead of timing, what the engine's timed loop adds per range over the plainest C
# loop making the same calls: user-space instructions under valgrind's callgrind, which repeat
# exactly run after run whatever the machine's noise. One warm-up and one measured round of
# each of 16 KiB, 64 KiB, 256 KiB, 1 MiB and 8 MiB ranges over a 16 MiB page-cache file (2724 ranges),
# for each strategy named (default: the pread family, seek-read and mmap-copy). Prints
# instructions per range for the engine's reader, for the C loop, and the difference; the
# copies and memsets both do are the same instructions, so the difference is the engine's own.
# Then the same count for readscope-cli run's reading thread at 16 KiB against
# bench/outside_loop.c, the program scripts/outside-loop.sh times.
# A benchmark's figures, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
READSCOPE_EXTRA_PACKAGES="valgrind" bash scripts/deps.sh
bash scripts/build.sh dev >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build/dev/app/cli/readscope-cli generate "$dir/f.bin" --size 16M >/dev/null
# 16 MiB / 16 KiB + / 64 KiB + / 256 KiB + / 1 MiB + / 8 MiB = 1362 ranges a round; two rounds.
ranges=2724
twin() {
    case "$1" in
        mmap-copy-kept) echo minimal_mapped_copy ;;
        *) echo "minimal_${1//-/_}" ;;
    esac
}
collected() { # FUNCTION-PATTERN STRATEGY: instructions callgrind collected inside it
    valgrind --tool=callgrind --collect-atstart=no "--toggle-collect=$1" \
        --callgrind-out-file="$dir/cg.out" build/dev/bench/readscope-overhead "$dir/f.bin" \
        --only "$2" --rounds 1 2>&1 | sed -n 's/.*Collected : *//p'
}
printf '%-16s %14s %14s %10s\n' strategy "engine Ir/rng" "C loop Ir/rng" "added"
for s in "${@:-pread-zerofill pread-uninit pread-calloc seek-read pread-reuse mmap-copy}"; do
    for id in $s; do
        engine=$(collected '*PosixReader::read(*' "$id")
        plain=$(collected "$(twin "$id")" "$id")
        printf '%-16s %14d %14d %10d\n' "$id" $((engine / ranges)) $((plain / ranges)) \
            $(((engine - plain) / ranges))
    done
done

# The same count for readscope-cli run itself at 16 KiB, the size with the most ranges per byte:
# the lane's reading thread (whose read() callgrind sees apart from the main thread's untimed
# verification) against bench/outside_loop.c's loop on its main thread. 16 MiB / 16 KiB x 4
# rounds (one warm-up) = 4096 ranges. The difference includes the thread's own costs (a
# non-main malloc arena, read() as a cancellation point: about 90 instructions).
echo
printf '%-16s %14s %14s %10s   (readscope-cli run at 16 KiB)\n' strategy "lane Ir/rng" \
    "outside Ir/rng" "added"
for id in pread-uninit pread-zerofill seek-read; do
    rm -f "$dir"/lane.out*
    valgrind --tool=callgrind --separate-threads=yes --collect-atstart=no \
        '--toggle-collect=*PosixReader::read(*' --callgrind-out-file="$dir/lane.out" \
        build/dev/app/cli/readscope-cli run "$dir/f.bin" --sizes 16K --strategies "$id" \
        --cache warm --consume minimal --rounds 3 --warmup 1 --round-time 0 --budget 16M \
        --quiet >/dev/null 2>&1
    lane=0
    for f in "$dir"/lane.out-*; do
        [[ $f == *-01 ]] && continue # the main thread: the verification pass
        n=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
        [[ $n =~ ^[0-9]+$ ]] && ((n > lane)) && lane=$n
    done
    outside=$(valgrind --tool=callgrind --collect-atstart=no "--toggle-collect=$(twin "$id")" \
        --callgrind-out-file="$dir/outside.out" build/dev/bench/readscope-outside-loop \
        "$dir/f.bin" "$id" 16384 3 2>&1 | sed -n 's/.*Collected : *//p')
    printf '%-16s %14d %14d %10d\n' "$id" $((lane / 4096)) $((outside / 4096)) \
        $(((lane - outside) / 4096))
done
