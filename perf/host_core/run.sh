#!/usr/bin/env bash
# Runs perf/host_core as the issue specifies (OpenMP, 2 threads, spread over cores), 15 interleaved
# repetitions, and prints the ratio table. usage: perf/host_core/run.sh BUILD_DIR [OUT.json]
set -euo pipefail
build=${1:-build/default}
out=${2:-$build/host_core.json}
here=$(cd "$(dirname "$0")" && pwd)
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=spread OMP_PLACES=cores \
  "$build/perf/host_core/weft-perf-host-core" --benchmark_repetitions=15 \
  --benchmark_enable_random_interleaving=true --benchmark_min_time=0.1 \
  --benchmark_out="$out" --benchmark_out_format=json >/dev/null
python3 "$here/../compare.py" "$out" "$here/goals.json"
