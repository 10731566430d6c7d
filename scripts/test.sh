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
bash scripts/check-format.sh
bash scripts/build.sh dev
ctest --preset dev
bash scripts/package-test.sh
bash scripts/windows-test.sh
if [[ "${READSCOPE_SKIP_SANITIZERS:-0}" != "1" ]]; then
    bash scripts/build.sh asan
    ctest --preset asan
    bash scripts/build.sh tsan
    ctest --preset tsan
fi
