#!/usr/bin/env bash
# perf/comm on 2 and 4 ranks (one thread each), as the comm issue specifies; prints the tables.
# usage: perf/comm/run.sh [BUILD_DIR] [REPS]
set -euo pipefail
build=${1:-build/default}
reps=${2:-31}
export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
for n in 2 4; do
  mpiexec -n "$n" "$build/perf/comm/weft-perf-comm" --reps "$reps"
done
