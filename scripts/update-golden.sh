#!/usr/bin/env bash
# Writes tests/golden/* anew from today's renderers (tst_golden, and tst_comparison_model for
# the Compare tab's rows, with READSCOPE_UPDATE_GOLDEN), then shows what changed, so that a changed sentence is seen before it is committed.
#   scripts/update-golden.sh [BUILD_DIR]     (default build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
cmake --build "$build" --target tst_golden tst_comparison_model >/dev/null
READSCOPE_UPDATE_GOLDEN=1 "$build/tests/tst_golden" >/dev/null
READSCOPE_UPDATE_GOLDEN=1 QT_QPA_PLATFORM=offscreen "$build/tests/ui/tst_comparison_model" \
    everyVerdictAsTheTabShowsIt >/dev/null
git --no-pager diff --stat -- tests/golden
git --no-pager diff -- tests/golden
git status --short -- tests/golden | grep '^??' || true
