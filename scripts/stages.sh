# Sourced by scripts/test.sh: each stage timed, and every skipped check gathered and judged.
#
# A skip is a check that did not run. Qt Test prints it as "SKIP   : Class::check() why";
# the scripts (windows-test.sh) append theirs to $READSCOPE_SKIPS as "stage: why". A skip whose
# reason begins "not in this build:" is a check that cannot mean anything under a sanitizer
# and ran in the dev stage; any other skip fails the command when CI is set.

export READSCOPE_SKIPS="${READSCOPE_SKIPS:-$PWD/build/skipped-checks.txt}"
mkdir -p "$(dirname "$READSCOPE_SKIPS")"
: >"$READSCOPE_SKIPS"
stage_times=()

# stage NAME COMMAND...: runs it, keeps its time.
stage() {
    local name=$1 start=$SECONDS
    shift
    echo "== $name"
    "$@"
    stage_times+=("$(printf '%-28s %4d:%02d' "$name" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)))")
}

print_stage_times() {
    local rc=$?
    ((${#stage_times[@]})) || return "$rc"
    echo
    echo "== stage times (whole command $((SECONDS / 60)):$(printf '%02d' $((SECONDS % 60))))"
    printf '%s\n' "${stage_times[@]}"
    return "$rc"
}

# The Qt Test skips of a preset's last ctest run.
collect_skips() {
    local log="build/$1/Testing/Temporary/LastTest.log"
    [[ -f "$log" ]] || return 0
    grep -h '^SKIP   : ' "$log" | sed "s/^SKIP   : /$1: /" >>"$READSCOPE_SKIPS" || true
}

judge_skips() {
    local all others
    all=$(sort -u "$READSCOPE_SKIPS")
    [[ -n "$all" ]] || { echo "== every check ran (none skipped)"; return 0; }
    others=$(grep -v ' not in this build: ' <<<"$all" || true)
    echo "== checks that did not run"
    echo "$all"
    if [[ -n "$others" && -n "${CI:-}" ]]; then
        echo "test: with CI set, a check that cannot run is a failure; these did not run:" >&2
        echo "$others" >&2
        return 1
    fi
}
