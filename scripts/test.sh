#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test suite
# through CTest (Qt tests headless on the offscreen platform).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dev
ctest --preset dev
