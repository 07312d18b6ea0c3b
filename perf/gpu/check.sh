#!/usr/bin/env bash
# The one prepared run for a lent NVIDIA GPU (H200, sm_90): configure for sm_90, build, run every test on
# the CUDA backend (with MPI + NCCL when their packages came along: comm and apps on one rank), compute-sanitizer
# memcheck and racecheck on the GPU suite, the GPU benchmarks, the mini-app suite (large size), and a short table
# last (GEMM against cuBLAS; sort, copy_if, fill_random against CUB and cuRAND). Needs perf/gpu/debs (perf/gpu/fetch-debs.sh) carried along. Writes to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/weft-gpu-out}
mkdir -p "$out"
prefix=$PWD/build/gpu-prefix
mkdir -p "$prefix"
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
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/gpu.txt"
start=$(date +%s)
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DWEFT_ENABLE_PERF=ON $mpi_flags -DCMAKE_PREFIX_PATH="$prefix/usr" -Ddoctest_DIR="$prefix/usr/lib/cmake/doctest" \
  -Dbenchmark_DIR="$(dirname "$(find "$prefix" -name benchmarkConfig.cmake | head -1)")" >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
cmake --build build/gpu -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -m20 -E "error" "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
ctest --test-dir build/gpu -j 4 --output-on-failure -E "compile_fail" >"$out/ctest.log" 2>&1
tests_rc=$?
tail -3 "$out/ctest.log"
san=/usr/local/cuda/bin/compute-sanitizer
if [ -x "$san" ]; then
  $san --tool memcheck --error-exitcode 3 build/gpu/tests/test_gpu >"$out/memcheck.log" 2>&1; echo "memcheck rc $?"
  $san --tool racecheck --error-exitcode 3 build/gpu/tests/test_gpu -tc="*teams*,*block*" >"$out/racecheck.log" 2>&1
  echo "racecheck rc $?"
fi
build/gpu/perf/gpu/weft-perf-gpu --benchmark_repetitions=5 --benchmark_out="$out/gpu_core.json" \
  --benchmark_out_format=json >"$out/bench.log" 2>&1
WEFT_PERF_GEMM_N=8192 build/gpu/perf/gpu/weft-perf-gpu-linalg --benchmark_repetitions=3 \
  --benchmark_out="$out/gpu_linalg.json" --benchmark_out_format=json >"$out/bench_linalg.log" 2>&1
grep -E "^gemm" "$out/bench_linalg.log"
# Impl::automatic's table for weft::Cuda (commit it as linalg/src/auto_table_device.inc)
build/gpu/perf/linalg/weft-linalg-auto-table --device --reps 5 --out "$out/auto_table_device.inc" \
  >"$out/auto_table.log" 2>&1
echo "auto table rc $?: $(grep -c vendor "$out/auto_table.log") points, cuBLAS won $(grep -c -- '-> vendor' "$out/auto_table.log")"
WEFT_PERF_ALGO_N=$((1 << 28)) build/gpu/perf/gpu/weft-perf-gpu-algorithms --benchmark_repetitions=3 \
  --benchmark_out="$out/gpu_algorithms.json" --benchmark_out_format=json >"$out/bench_algorithms.log" 2>&1
grep -E "WRONG" "$out/bench_algorithms.log"
python3 build/gpu/apps/bench/weft-bench --size large --json "$out/suite.json" >"$out/suite.log" 2>&1
tail -8 "$out/suite.log"
echo "total: $(( $(date +%s) - start )) s, tests rc $tests_rc"
python3 perf/compare.py "$out/gpu_core.json" perf/gpu/goals.json | tee "$out/table.txt"
python3 perf/compare.py "$out/gpu_linalg.json" perf/gpu/goals.json | tee -a "$out/table.txt"
python3 perf/compare.py "$out/gpu_algorithms.json" perf/gpu/goals.json | tee -a "$out/table.txt"
