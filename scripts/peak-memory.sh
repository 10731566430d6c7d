#!/usr/bin/env bash
# Peak resident memory of a run with 1 GiB ranges on a sparse file larger than RAM: it must
# stay within threads x largest range plus a small constant. Prints the figure.
set -euo pipefail
cd "$(dirname "$0")/.."
READSCOPE_EXTRA_PACKAGES="time" bash scripts/deps.sh
bash scripts/build.sh dev >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
truncate -s "${READSCOPE_SPARSE_SIZE:-32G}" "$dir/sparse.bin"
/usr/bin/time -v build/dev/app/cli/readscope-cli run "$dir/sparse.bin" --sizes 1G \
    --strategies pread-zerofill,pread-uninit,seek-read,read-prealloc,pread-reuse,direct-pread,uring-batch \
    --cache cold --rounds 2 --warmup 0 --quiet 2>"$dir/time.txt"
grep -E "Maximum resident set size" "$dir/time.txt"
