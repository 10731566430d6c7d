#!/usr/bin/env bash
# What the verdicts say of runs where nothing changed, as a new user meets them (a fresh HOME:
# no drift between runs stored): N back-to-back runs of one plan compared pairwise must call no
# row faster or slower. Then the drift between runs is measured over three further runs, and
# the same pairs compared again: how many tables still call a direction. Prints the counts
# and the drift; not part of the test command (a few minutes a run).
#
#   bash scripts/check-verdicts.sh [RUNS] [BUILD_DIR]     (default 6 runs, build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-6}
build=${2:-build/dev}
cli="$PWD/$build/app/cli/readscope-cli"
[[ -x "$cli" ]] || bash scripts/build.sh dev
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" READSCOPE_DATA_DIR= XDG_DATA_HOME=
mkdir -p "$HOME"
plan=(--sizes 16K,64K,1M --strategies pread-zerofill,pread-uninit,seek-read,mmap-copy,mmap-touch
      --quiet)
"$cli" generate "$work/g.bin" --size 256M >/dev/null
echo "runs of one plan (${plan[*]}):"
for i in $(seq "$runs"); do
    start=$SECONDS
    "$cli" run "$work/g.bin" "${plan[@]}" --json "$work/r$i.json" >/dev/null || true
    echo "  run $i: $((SECONDS - start)) s"
done

# Every pair compared: tables with a faster or slower row, rows by verdict.
judge() {
    local directional=0 tables=0
    : >"$work/verdicts"
    for i in $(seq "$runs"); do
        for j in $(seq $((i + 1)) "$runs"); do
            "$cli" compare "$work/r$i.json" "$work/r$j.json" >"$work/c.txt"
            tables=$((tables + 1))
            awk '/^[a-z-]+ +[0-9]+ [KMG]iB /' "$work/c.txt" | sed -E 's/.*[0-9%)–-]  ([a-z].*)$/\1/' |
                sed -E 's/ \(.*//' >>"$work/verdicts"
            if grep -qE '  (faster|slower)$' "$work/c.txt"; then
                directional=$((directional + 1))
                [[ -n "${VERBOSE:-}" ]] && grep -E '  (faster|slower)$' "$work/c.txt"
            fi
        done
    done
    echo "  $directional of $tables tables with a faster or slower row; rows:"
    sort "$work/verdicts" | uniq -c | sed 's/^/   /'
    head -1 "$work/c.txt" | cut -c1-160 | sed 's/^/  first line of the last table: /'
}
echo "compared pairwise, no drift stored:"
judge
echo "three further runs, for the drift between runs:"
for k in 1 2 3; do
    "$cli" run "$work/g.bin" "${plan[@]}" --json "$work/d$k.json" >/dev/null || true
done
"$cli" drift "$work/d1.json" "$work/d2.json" "$work/d3.json" | sed 's/^/  /'
echo "compared pairwise again, against that drift:"
judge
