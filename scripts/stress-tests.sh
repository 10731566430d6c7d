#!/usr/bin/env bash
# Proves the test suite does not depend on the machine's speed: runs every CTest suite N times
# in a row (ctest --repeat until-fail:N), first on an idle machine, then with every core kept
# busy by `yes > /dev/null` loops that this script starts and always ends. Not part of the
# everyday test command (it takes a long time); run it after changing a test that waits.
#
#   bash scripts/stress-tests.sh [--repeat N] [--only REGEX] [PRESET ...]
#   bash scripts/stress-tests.sh --wine
#
# PRESET defaults to "dev asan" (the optimised RelWithDebInfo build and ASan + UBSan). The
# suites run as the test command runs them, as many at a time as there are cores.
# --only passes REGEX to ctest -R, e.g. to stress the suites a change touched.
# --wine: the Windows CLI (build/win, scripts/windows-test.sh builds it) under Wine, 1200
# two-thread rounds: std::latch under mingw's GCC 12 lost a wake-up in about one such run in
# two, and the round never ended (about 2 minutes).
# Prints one line per preset and load, and a closing "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=20
only=""
wine=0
presets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --repeat) repeat="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        --wine) wine=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) presets+=("$1"); shift ;;
    esac
done
if [[ $wine -eq 1 ]]; then
    cli=build/win/app/cli/readscope-cli.exe
    [[ -f "$cli" ]] || bash scripts/windows-test.sh
    export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$PWD/build/wine-prefix}"
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    /usr/lib/wine/wine64 "$cli" generate "$scratch/target.bin" --size 8M >/dev/null
    if ! timeout 240 /usr/lib/wine/wine64 "$cli" run "$scratch/target.bin" --threads 2 \
        --sizes 4K,16K --budget 1M --rounds 300 --warmup 0 \
        --strategies readfile-reuse,mapview-touch --quiet >/dev/null; then
        echo "stress: 1200 two-thread rounds under Wine did not finish in 240 s" >&2
        exit 1
    fi
    echo "stress: 1200 two-thread rounds under Wine finished"
    exit 0
fi
[[ ${#presets[@]} -eq 0 ]] && presets=(dev asan)

load_pids=()
stop_load() {
    for pid in "${load_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    load_pids=()
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

start_load() {
    for _ in $(seq "$(nproc)"); do
        yes >/dev/null &
        load_pids+=("$!")
    done
}

logs="build/stress"
mkdir -p "$logs"
passed=0
failed=0
summary=()
for preset in "${presets[@]}"; do
    bash scripts/build.sh "$preset"
    for load in idle loaded; do
        [[ "$load" == loaded ]] && start_load
        log="$logs/$preset-$load.log"
        args=(--preset "$preset" -j "$(nproc)" --repeat "until-fail:$repeat")
        [[ -n "$only" ]] && args+=(-R "$only")
        start=$(date +%s)
        if ctest "${args[@]}" >"$log" 2>&1; then
            result="$repeat of $repeat passes"
            passed=$((passed + 1))
        else
            result="FAILED (see $log)"
            failed=$((failed + 1))
        fi
        stop_load
        tests=$(grep -Eo '[0-9]+ tests? failed out of [0-9]+' "$log" | tail -1 || true)
        line="$preset $load: $result; ${tests:-no ctest summary}; $(( $(date +%s) - start )) s"
        summary+=("$line")
        echo "stress: $line"
        grep -E '\*\*\*Failed|Timeout|Exception' "$log" || true
    done
done

echo
printf '%s\n' "${summary[@]}"
echo "stress: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
