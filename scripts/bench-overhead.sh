#!/usr/bin/env bash
# Measures the engine's own overhead: engine vs a minimal C loop (target >= 0.97) and
# pread-reuse vs fio's psync engine (target >= 1.0), on a page-cache-resident 256 MiB file.
# Prints figures; it is a benchmark, not a test, and never fails on a slow machine.
set -euo pipefail
cd "$(dirname "$0")/.."
READSCOPE_EXTRA_PACKAGES="fio" bash scripts/deps.sh
bash scripts/build.sh dev >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build/dev/app/cli/readscope-cli generate "$dir/bench.bin" --size "${READSCOPE_BENCH_SIZE:-256M}" >/dev/null
build/dev/bench/readscope-overhead "$dir/bench.bin" --rounds "${READSCOPE_BENCH_ROUNDS:-15}" --fio
