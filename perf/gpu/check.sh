#!/usr/bin/env bash
# The prepared runs for a lent NVIDIA GPU (H200, sm_90), in stages that each fit one device command (8 minutes on
# the 16-core machine; perf/gpu/README.md has the expected times). Needs perf/gpu/debs (perf/gpu/fetch-debs.sh)
# carried along, and build/gpu carried or left from the previous stage on a warm machine. Every stage writes what
# it has to $OUT as it goes ($OUT/summary.txt line by line), so a stage cut short still returns its logs.
#
#   bash perf/gpu/check.sh 1   configure for sm_90, build the core and GPU-engine tests, run them, compute-sanitizer
#                              memcheck (test_gpu, test_streams, test_reduce), synccheck (test_team) and racecheck
#                              (test_gpu's team and block cases)
#   bash perf/gpu/check.sh 2   build everything else, run the remaining tests (linalg, algorithms, comm, apps), the
#                              linalg auto table for weft::Cuda
#   bash perf/gpu/check.sh 3   the GPU benchmarks, the mini-app suite (large size) and the goals table
#   bash perf/gpu/check.sh 4   the CUB fast paths of weft::experimental: Weft with CUB, raw CUB, Weft's portable
#                              kernels (perf/gpu/gpu_cub.cpp, 2^26 elements, about 2 minutes) and their goals table
#   bash perf/gpu/check.sh     all four, in order
# Run stage 1 first: code that has never met a GPU is more likely to fail its tests than to be slow.
set -uo pipefail
cd "$(dirname "$0")/../.."
stages=${1:-all}
out=${OUT:-/tmp/weft-gpu-out}
mkdir -p "$out"
prefix=$PWD/build/gpu-prefix
mkdir -p "$prefix"
log() { echo "$*" | tee -a "$out/summary.txt"; }

setup() {
  for f in perf/gpu/debs/*.deb; do dpkg -x "$f" "$prefix"; done
  # MPI + NCCL when the Open MPI packages came along (perf/gpu/debs/mpi): comm tests on one rank, NCCL path included.
  mpi_flags="-DWEFT_ENABLE_MPI=OFF"
  if ls perf/gpu/debs/mpi/*.deb >/dev/null 2>&1; then
    for f in perf/gpu/debs/mpi/*.deb; do dpkg -x "$f" "$prefix"; done
    export OPAL_PREFIX="$prefix/usr" PATH="$prefix/usr/bin:$PATH"
    export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu/openmpi/lib:$prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mpi_flags="-DWEFT_ENABLE_MPI=ON -DWEFT_ENABLE_NCCL=ON -DMPI_HOME=$prefix/usr/lib/x86_64-linux-gnu/openmpi"
    mpi_flags="$mpi_flags -DMPI_CXX_COMPILER=$prefix/usr/bin/mpicxx.openmpi"
  fi
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
  if [ ! -f build/gpu/build.ninja ]; then
    cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DWEFT_ENABLE_PERF=ON $mpi_flags -DCMAKE_PREFIX_PATH="$prefix/usr" -Ddoctest_DIR="$prefix/usr/lib/cmake/doctest" \
      -Dbenchmark_DIR="$(dirname "$(find "$prefix" -name benchmarkConfig.cmake | head -1)")" >"$out/configure.log" 2>&1 ||
      { tail -30 "$out/configure.log"; exit 1; }
  fi
}

# Stage 1's tests: the core and GPU-engine suites (test_linalg and test_algorithms, whose CUDA compiles take the
# longest, wait for stage 2).
core_tests="test_gpu test_streams test_parallel test_reduce test_team test_view test_atomics test_half test_runtime"

stage1() {
  local start targets t
  start=$(date +%s)
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/gpu.txt"
  targets=""
  for t in $core_tests; do targets="$targets tests/$t"; done
  # shellcheck disable=SC2086
  cmake --build build/gpu -j "$(nproc)" --target $targets >"$out/build_stage1.log" 2>&1 ||
    { grep -m20 -E "error" "$out/build_stage1.log"; log "stage 1: build FAILED"; return 1; }
  log "stage 1: core tests built in $(( $(date +%s) - start )) s"
  local regex
  regex="^($(echo $core_tests | tr ' ' '|'))(_3threads)?$"
  timeout 150 ctest --test-dir build/gpu -j 4 --output-on-failure --timeout 120 -R "$regex" >"$out/ctest_stage1.log" 2>&1
  log "stage 1: ctest rc $? ($(grep -E 'tests passed|tests failed' "$out/ctest_stage1.log" | tail -1))"
  local san=/usr/local/cuda/bin/compute-sanitizer
  if [ -x "$san" ]; then
    for t in test_gpu test_streams test_reduce; do
      timeout 70 $san --tool memcheck --error-exitcode 3 "build/gpu/tests/$t" >"$out/memcheck_$t.log" 2>&1
      log "stage 1: memcheck $t rc $? (124: cut at 70 s)"
    done
    timeout 60 $san --tool synccheck --error-exitcode 3 build/gpu/tests/test_team >"$out/synccheck_test_team.log" 2>&1
    log "stage 1: synccheck test_team rc $?"
    timeout 60 $san --tool racecheck --error-exitcode 3 build/gpu/tests/test_gpu -tc="*teams*,*block*" \
      >"$out/racecheck.log" 2>&1
    log "stage 1: racecheck test_gpu (teams, block) rc $?"
  fi
  log "stage 1: $(( $(date +%s) - start )) s"
}

stage2() {
  local start
  start=$(date +%s)
  cmake --build build/gpu -j "$(nproc)" >"$out/build.log" 2>&1 ||
    { grep -m20 -E "error" "$out/build.log"; log "stage 2: build FAILED"; return 1; }
  log "stage 2: everything built in $(( $(date +%s) - start )) s"
  local regex
  regex="^($(echo $core_tests | tr ' ' '|'))(_3threads)?$"
  timeout 200 ctest --test-dir build/gpu -j 4 --output-on-failure --timeout 180 -E "compile_fail|$regex" \
    >"$out/ctest_stage2.log" 2>&1
  log "stage 2: ctest (linalg, algorithms, comm, apps, the rest) rc $? ($(grep -E 'tests passed|tests failed' "$out/ctest_stage2.log" | tail -1))"
  # Impl::automatic's table for weft::Cuda (commit it as linalg/src/auto_table_device.inc)
  timeout 120 build/gpu/perf/linalg/weft-linalg-auto-table --device --reps 5 --out "$out/auto_table_device.inc" \
    >"$out/auto_table.log" 2>&1
  log "stage 2: auto table rc $?: $(grep -c vendor "$out/auto_table.log") points, cuBLAS won $(grep -c -- '-> vendor' "$out/auto_table.log")"
  log "stage 2: $(( $(date +%s) - start )) s"
}

stage3() {
  local start
  start=$(date +%s)
  timeout 110 build/gpu/perf/gpu/weft-perf-gpu --benchmark_repetitions=5 --benchmark_out="$out/gpu_core.json" \
    --benchmark_out_format=json >"$out/bench.log" 2>&1
  log "stage 3: core benchmarks rc $?"
  WEFT_PERF_GEMM_N=8192 timeout 140 build/gpu/perf/gpu/weft-perf-gpu-linalg --benchmark_repetitions=3 \
    --benchmark_out="$out/gpu_linalg.json" --benchmark_out_format=json >"$out/bench_linalg.log" 2>&1
  log "stage 3: linalg benchmarks rc $?"
  timeout 40 build/gpu/perf/gpu/weft-perf-gpu-team --benchmark_repetitions=5 --benchmark_out="$out/gpu_team.json" \
    --benchmark_out_format=json >"$out/bench_team.log" 2>&1
  log "stage 3: team benchmarks rc $?"
  WEFT_PERF_ALGO_N=$((1 << 28)) timeout 90 build/gpu/perf/gpu/weft-perf-gpu-algorithms --benchmark_repetitions=3 \
    --benchmark_out="$out/gpu_algorithms.json" --benchmark_out_format=json >"$out/bench_algorithms.log" 2>&1
  log "stage 3: algorithm benchmarks rc $?"
  grep -E "WRONG" "$out/bench_algorithms.log"
  timeout 90 python3 build/gpu/apps/bench/weft-bench --size large --json "$out/suite.json" >"$out/suite.log" 2>&1
  tail -8 "$out/suite.log"
  python3 perf/compare.py "$out/gpu_core.json" perf/gpu/goals.json | tee "$out/table.txt"
  python3 perf/compare.py "$out/gpu_linalg.json" perf/gpu/goals.json | tee -a "$out/table.txt"
  python3 perf/compare.py "$out/gpu_algorithms.json" perf/gpu/goals.json | tee -a "$out/table.txt"
  python3 perf/compare.py "$out/gpu_team.json" perf/gpu/goals.json | tee -a "$out/table.txt"
  log "stage 3: $(( $(date +%s) - start )) s"
}

stage4() {
  local start
  start=$(date +%s)
  if [ ! -x build/gpu/perf/gpu/weft-perf-gpu-cub ]; then
    cmake --build build/gpu -j "$(nproc)" --target weft-perf-gpu-cub >"$out/build_stage4.log" 2>&1 ||
      { grep -m20 -E "error" "$out/build_stage4.log"; log "stage 4: build FAILED"; return 1; }
  fi
  timeout 150 build/gpu/perf/gpu/weft-perf-gpu-cub --benchmark_repetitions=3 --benchmark_min_time=0.2 \
    --benchmark_enable_random_interleaving=true --benchmark_out="$out/gpu_cub.json" --benchmark_out_format=json \
    >"$out/bench_cub.log" 2>&1
  log "stage 4: CUB fast-path benchmarks rc $?"
  grep -E "WRONG" "$out/bench_cub.log"
  python3 perf/compare.py "$out/gpu_cub.json" perf/gpu/goals.json | tee "$out/table_cub.txt"
  log "stage 4: $(( $(date +%s) - start )) s"
}

setup
case "$stages" in
  1) stage1 ;;
  2) stage2 ;;
  3) stage3 ;;
  4) stage4 ;;
  all) stage1 && stage2 && stage3 && stage4 ;;
  *) echo "usage: bash perf/gpu/check.sh [1|2|3|4]" >&2; exit 2 ;;
esac
