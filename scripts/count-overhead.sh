#!/usr/bin/env bash
# Counts, instead of timing, what the engine's timed loop adds per range over the plainest C
# loop making the same calls: user-space instructions under valgrind's callgrind, which repeat
# exactly run after run whatever the machine's noise. One warm-up and one measured round of
# each of 64 KiB, 256 KiB, 1 MiB and 8 MiB ranges over a 16 MiB page-cache file (676 ranges),
# for each strategy named (default: the pread family, seek-read and mmap-copy). Prints
# instructions per range for the engine's reader, for the C loop, and the difference; the
# copies and memsets both do are the same instructions, so the difference is the engine's own.
# A benchmark's figures, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
READSCOPE_EXTRA_PACKAGES="valgrind" bash scripts/deps.sh
bash scripts/build.sh dev >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build/dev/app/cli/readscope-cli generate "$dir/f.bin" --size 16M >/dev/null
# 16 MiB / 64 KiB + / 256 KiB + / 1 MiB + / 8 MiB = 338 ranges a round; two rounds.
ranges=676
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
