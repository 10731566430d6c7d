#!/usr/bin/env bash
# Configures and builds a preset (default: dev) after installing what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
bash scripts/deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
