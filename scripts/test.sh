#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds Weft (the `default` preset) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.ccache}"
cmake --preset default
cmake --build --preset default
ctest --preset default
