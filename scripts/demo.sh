#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds Weft (the `default` preset) and runs the main job:
# the mini-app suite (weft-bench) on the default backend, validated, with its summary table and results.json.
# Arguments go to weft-bench (e.g. --ranks 2, --size small, --only stream).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --chart
source scripts/ccache-env.sh  # one cache for every checkout (CI's clone reuses this one's work)
cmake --preset default >/dev/null
cmake --build --preset default --target weft-stream weft-heat weft-cg weft-md weft-gemm
# Debian's python3, which setup.sh gave matplotlib for the chart (weft-bench also finds it on its own when a pyenv or
# venv python3 without matplotlib runs it).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" ./build/default/apps/bench/weft-bench --json "${WEFT_RESULTS:-results.json}" "$@"
