#!/usr/bin/env bash
# The README's run command: installs what is missing, builds the desktop app and the CLI (the
# app preset: nothing else, no test suite), and starts the app with a generated default test
# file selected (created on first start). Without a display it runs the same engine headless
# instead: readscope-cli run on its generated default file. Arguments go to the program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh app
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec build/app/app/gui/readscope "$@"
fi
echo "readscope: no display (DISPLAY/WAYLAND_DISPLAY unset): running readscope-cli instead" >&2
exec build/app/app/cli/readscope-cli run "$@"
