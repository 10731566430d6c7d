#!/usr/bin/env bash
# The README's test command: installs what is missing (scripts/deps.sh --test), checks that
# every C++ file is formatted as .clang-format says (scripts/check-format.sh), builds, and
# runs every test suite through CTest (Qt tests headless on the offscreen platform), as many
# at a time as there are cores: first the dev build, the app's keyboard at a true first start
# under Xvfb (scripts/check-first-start-keys.sh), the Debian package test
# (scripts/package-test.sh, from the dev build) and the Windows cross build run under Wine
# (scripts/windows-test.sh); then the whole suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer (the asan preset); then the runner's threaded suites and the
# portable core tests under ThreadSanitizer (the tsan preset). Each stage's time is printed
# at the end, and every check that was skipped, with why.
#
# With CI set, a check that cannot run fails the command, naming what is missing (Wine, a
# runtime, a memory cgroup...); without it, the skips are listed with what would make them run.
# READSCOPE_SKIP_SANITIZERS=1 leaves out the sanitizer stages for a quick local check.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh

# ctest with a preset, every core busy; when a test fails, its failing checks are said again
# last (a long suite's output is cut in the middle where CI shows only its start and end).
run_tests() {
    local rc=0
    ctest --preset "$1" -j "$(nproc)" || rc=$?
    collect_skips "$1"
    if [[ $rc -ne 0 ]]; then
        echo "== $1: the failing checks (from build/$1/Testing/Temporary/LastTest.log)"
        local failing='^(FAIL!|XPASS|QFATAL)|ERROR: AddressSanitizer|runtime error:'
        failing+='|WARNING: ThreadSanitizer|Received signal'
        grep -h -A2 -E "$failing" "build/$1/Testing/Temporary/LastTest.log" || true
        exit "$rc"
    fi
}

trap print_stage_times EXIT
stage "install what is missing" bash scripts/deps.sh --test
stage "format check" bash scripts/check-format.sh
stage "build dev" bash scripts/build.sh dev
stage "tests dev" run_tests dev
stage "desktop keys, first start" bash scripts/check-first-start-keys.sh
stage "Debian package" bash scripts/package-test.sh
stage "Windows build + Wine" bash scripts/windows-test.sh
if [[ "${READSCOPE_SKIP_SANITIZERS:-0}" != "1" ]]; then
    stage "build asan" bash scripts/build.sh asan
    stage "tests asan" run_tests asan
    stage "build tsan" bash scripts/build.sh tsan
    stage "tests tsan" run_tests tsan
fi
judge_skips
