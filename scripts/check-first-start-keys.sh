#!/usr/bin/env bash
# The desktop app's keyboard at a true first start, as a person meets it: under Xvfb with a
# window manager (openbox), a fresh HOME (no settings, no default test file yet, so the app
# generates one behind a progress dialog first), keys sent with xdotool and no click. F1 must
# open Help; in another first start, Ctrl+R must start a run (the app's CPU time grows). Both
# did nothing until a click once: Qt kept no active window after the progress dialog closed.
#   scripts/check-first-start-keys.sh [APP]     (default: build/dev/app/gui/readscope)
set -euo pipefail
cd "$(dirname "$0")/.."
app=$(realpath "${1:-build/dev/app/gui/readscope}")
[[ -x "$app" ]] || { echo "check-first-start-keys: no app at $app (build it first)" >&2; exit 1; }
for tool in xvfb-run openbox xdotool; do
    command -v "$tool" >/dev/null || {
        echo "check-first-start-keys: $tool is missing (scripts/deps.sh --test installs it)" >&2
        exit 1
    }
done

# Runs inside Xvfb: one first start, one key, one check. Prints what it saw.
one_start() {
    local key=$1 home pid
    home=$(mktemp -d)
    trap 'kill $pid 2>/dev/null; rm -rf "$home"' RETURN
    HOME=$home "$APP" >/dev/null 2>&1 &
    pid=$!
    # The window, then the default file written and its progress dialog gone.
    for _ in $(seq 1 240); do
        sleep 0.5
        xdotool search --onlyvisible --name '^readscope$' >/dev/null 2>&1 || continue
        xdotool search --onlyvisible --name 'Generating test file' >/dev/null 2>&1 || break
    done
    sleep 2
    cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
    local before
    before=$(cpu)
    xdotool key "$key"
    for _ in $(seq 1 40); do
        sleep 0.5
        if [[ $key == F1 ]]; then
            xdotool search --onlyvisible --name 'How readscope measures' >/dev/null 2>&1 &&
                { echo "F1: Help opened"; return 0; }
        elif (($(cpu) - before > 200)); then # 2 s of CPU: the run's reads
            echo "ctrl+r: a run started"
            return 0
        fi
    done
    echo "$key: nothing happened without a click"
    return 1
}
if [[ -z "${READSCOPE_IN_XVFB:-}" ]]; then
    exec xvfb-run -a -s "-screen 0 1366x768x24" env READSCOPE_IN_XVFB=1 bash "$0" "$app"
fi
APP=$app
openbox >/dev/null 2>&1 &
sleep 1
one_start F1
one_start ctrl+r
