#!/usr/bin/env bash
# The fault cases under ASan + UBSan with bounds checks and MPI (the debug preset has no MPI): builds
# build/asan-mpi (comm_faults, test_comm, weft-heat, weft-cg only) and runs each case; fails on any sanitizer
# report or a case that does not end non-zero within its time limit. Not in CI (time budget): run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ccache-env.sh  # one cache for every checkout (CI's clone reuses this one's work)
cmake -S . -B build/asan-mpi -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=Debug \
  -DWEFT_ENABLE_BOUNDS_CHECK=ON -DWEFT_SANITIZE=address,undefined -DWEFT_ENABLE_PERF=OFF -DWEFT_ENABLE_MPI=ON \
  -DWEFT_ENABLE_TESTS=ON -DWEFT_ENABLE_APPS=ON >/dev/null
cmake --build build/asan-mpi --target comm_faults test_comm weft-heat weft-cg
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS=detect_leaks=0  # Open MPI's own allocations at exit are not ours
b=build/asan-mpi
log=$(mktemp)
fail=0
run() {  # run EXPECT(zero|nonzero) COMMAND...
  local expect=$1
  shift
  set +e
  timeout 300 "$@" >"$log" 2>&1
  local rc=$?
  set -e
  local bad=""
  grep -qE "ERROR: AddressSanitizer|runtime error:" "$log" && bad="sanitizer report"
  [ "$rc" -eq 124 ] && bad="timed out"
  [ "$expect" = zero ] && [ "$rc" -ne 0 ] && bad="exit $rc"
  [ "$expect" = nonzero ] && [ "$rc" -eq 0 ] && bad="exit 0"
  if [ -n "$bad" ]; then
    echo "FAIL ($bad): $*"
    tail -20 "$log"
    fail=1
  else
    echo "ok (exit $rc): $*"
  fi
}
for mode in kill throw exit partial every; do run nonzero mpiexec -n 2 $b/tests/comm_faults $mode; done
for n in 2 3 4; do run zero mpiexec -n $n $b/tests/test_comm; done
run nonzero mpiexec -n 1 $b/apps/heat/weft-heat --n 33 --steps 5 : -n 1 $b/apps/heat/weft-heat --n 34 --steps 5
run nonzero mpiexec -n 1 $b/apps/cg/weft-cg --n 16 : -n 1 $b/apps/cg/weft-cg --n 17
rm -f "$log"
exit $fail
