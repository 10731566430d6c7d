#!/usr/bin/env bash
# Installs the Debian 12 packages readscope needs, only those missing. Uses apt-get as root and
# sudo otherwise; runs 'apt-get update' once first, since a fresh machine has no package lists.
#
#   deps.sh          what building and running the app and the CLI needs (scripts/run.sh)
#   deps.sh --test   that and what the test command needs (scripts/test.sh): the formatter,
#                    the package tools, mingw-w64 and Wine, strace and fio (the trace
#                    tests record and import with them), Xvfb with openbox and
#                    xdotool (the first-start keyboard check), and the runtimes whose
#                    reads the runtime traces compare with, each only where its command is
#                    missing (a rustup toolchain or a newer Node already on PATH is used)
# READSCOPE_EXTRA_PACKAGES adds more (a script's own, such as fio or valgrind).
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-svg-dev libqcustomplot-dev
    libfmt-dev nlohmann-json3-dev liburing-dev libcli11-dev
    util-linux
)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(
        doctest-dev clang-format strace fio xauth xvfb openbox xdotool
        dpkg-dev desktop-file-utils appstream
        g++-mingw-w64-x86-64-posix wine64
    )
    # command:package, the runtimes tst_runtime_traces runs, by the command it looks for. Not
    # rustc: Debian 12's 1.63 makes other calls than the Rust 1.95 the rust-* strategies
    # reproduce, so only a newer Rust (rustup) can run that check.
    for pair in python3:python3 go:golang-go java:default-jdk-headless node:nodejs; do
        command -v "${pair%%:*}" >/dev/null || packages+=("${pair#*:}")
    done
fi
if [[ "${READSCOPE_EXTRA_PACKAGES:-}" != "" ]]; then
    read -r -a extra <<<"${READSCOPE_EXTRA_PACKAGES}"
    packages+=("${extra[@]}")
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    echo "readscope: missing packages: ${missing[*]}" >&2
    echo "readscope: run this script as root, or install sudo, to install them" >&2
    exit 1
fi

echo "readscope: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q "${missing[@]}"
