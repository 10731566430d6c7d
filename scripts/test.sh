#!/usr/bin/env bash
# The README's test command: installs what is missing, checks that every C++ file is
# formatted as .clang-format says (scripts/check-format.sh), builds, and runs every test suite
# through CTest (Qt tests headless on the offscreen platform): first the dev build, the
# Debian package test (scripts/package-test.sh) and the Windows cross build run under Wine
# (scripts/windows-test.sh); then the whole suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer (the asan preset); then the runner's threaded suites and the
# portable core tests under ThreadSanitizer (the tsan preset).
# READSCOPE_SKIP_SANITIZERS=1 skips the sanitizer passes for a quick local check.
set -euo pipefail
cd "$(dirname "$0")/.."

# ctest with a preset; when a test fails, its failing checks are said again last (a long
# suite's output is cut in the middle where CI shows only its start and end).
run_tests() {
    local rc=0
    ctest --preset "$1" || rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "== $1: the failing checks (from build/$1/Testing/Temporary/LastTest.log)"
        local failing='^(FAIL!|XPASS|QFATAL)|ERROR: AddressSanitizer|runtime error:'
        failing+='|WARNING: ThreadSanitizer|Received signal'
        grep -h -A2 -E "$failing" "build/$1/Testing/Temporary/LastTest.log" || true
        exit "$rc"
    fi
}

bash scripts/check-format.sh
bash scripts/build.sh dev
run_tests dev
bash scripts/package-test.sh
bash scripts/windows-test.sh
if [[ "${READSCOPE_SKIP_SANITIZERS:-0}" != "1" ]]; then
    bash scripts/build.sh asan
    run_tests asan
    bash scripts/build.sh tsan
    run_tests tsan
fi
