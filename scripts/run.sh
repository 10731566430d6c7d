#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and runs the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dev
exec build/dev/app/cli/readscope-cli run "$@"
