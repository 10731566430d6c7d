#!/usr/bin/env bash
# Installs the Debian 12 packages readscope needs, only those missing. Uses apt-get as root and
# sudo otherwise; runs 'apt-get update' once first, since a fresh machine has no package lists.
set -euo pipefail

packages=(
    build-essential cmake pkg-config
    qt6-base-dev qt6-svg-dev libqcustomplot-dev
    libfmt-dev nlohmann-json3-dev liburing-dev libcli11-dev
    util-linux xauth xvfb
    doctest-dev
    strace golang-go
)
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
