#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds Weft (the `default` preset) and runs the main job:
# weft-stream (BabelStream's kernels) on the default backend, validated, with its MB/s table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.ccache}"
cmake --preset default >/dev/null
cmake --build --preset default --target weft-stream
export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-cores}"
exec ./build/default/apps/stream/weft-stream --numtimes "${NUMTIMES:-20}" "$@"
