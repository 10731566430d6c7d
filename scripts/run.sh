#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and starts the desktop app with
# a generated default test file selected (created on first start). Without a display it runs
# the same engine headless instead: readscope-cli run on its generated default file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dev
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec build/dev/app/gui/readscope "$@"
fi
echo "readscope: no display (DISPLAY/WAYLAND_DISPLAY unset): running readscope-cli instead" >&2
exec build/dev/app/cli/readscope-cli run "$@"
