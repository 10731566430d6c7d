#!/usr/bin/env bash
# Part of the test command: fails, naming the files, when a C++ source is not formatted as
# .clang-format says (Debian 12's clang-format 14). To fix: bash scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."

READSCOPE_EXTRA_PACKAGES="clang-format ${READSCOPE_EXTRA_PACKAGES:-}" bash scripts/deps.sh

mapfile -t files < <(find app bench core tests ui -name build -prune -o \
    \( -name '*.cpp' -o -name '*.h' \) -print | sort)
if [[ "${1:-}" == "--fix" ]]; then
    clang-format -i "${files[@]}"
    exit 0
fi
# One clang-format for every file (a process a file took a minute on 2 cores); only when it
# finds something are the files named one by one.
unformatted=()
if ! clang-format --dry-run --Werror "${files[@]}" >/dev/null 2>&1; then
    for f in "${files[@]}"; do
        clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
    done
fi
if ((${#unformatted[@]})); then
    echo "check-format: ${#unformatted[@]} of ${#files[@]} files differ from .clang-format:" >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    echo "check-format: run 'bash scripts/check-format.sh --fix' and commit the result" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted as .clang-format says"
