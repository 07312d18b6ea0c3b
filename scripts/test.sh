#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds Weft (the `default` preset) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/ccache-env.sh  # one cache for every checkout (CI's clone reuses this one's work)
cmake --preset default
cmake --build --preset default
ctest --preset default
