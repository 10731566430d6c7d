#!/usr/bin/env bash
# Fuzzes the JSON and CSV result readers with libFuzzer for a bounded time (default 60 s
# each), starting from tests/fuzz/seeds. Any input that crashes a reader is copied into
# tests/fuzz/regressions/<format>/, which tst_fuzz_regressions replays in every test run.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
READSCOPE_EXTRA_PACKAGES="clang-14 libclang-rt-14-dev" bash scripts/deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz >/dev/null
status=0
for format in json csv; do
    work=$(mktemp -d)
    cp tests/fuzz/seeds/"$format"/* "$work"/
    echo "== fuzz_$format for ${seconds}s"
    if ! (cd "$work" && "$OLDPWD/build/fuzz/tests/fuzz/fuzz_$format" -max_total_time="$seconds" \
            -print_final_stats=1 -artifact_prefix="$work/" "$work" 2>"$work/log.txt"); then
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "$work/log.txt" || true
    for crash in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
        [[ -e "$crash" ]] || continue
        cp "$crash" tests/fuzz/regressions/"$format"/
        echo "kept $(basename "$crash") as a regression case"
    done
    rm -rf "$work"
done
exit $status
