#!/usr/bin/env bash
# Builds Kokkos Kernels (kokkos/kokkos-kernels, tag 4.6.01, unchanged) with its own CMake against an installed Weft
# Kokkos drop-in, default ETI and tests on, then its unit-test programs for one backend, runs them and prints a table
# per program: built, tests run, passed, failed, and the first compile error or failing test (issue 63).
#
#   compat/kokkos/kernels/run.sh --kernels <kokkos-kernels checkout> --prefix <Weft install prefix>
#       [--backend openmp|serial] [--components blas,sparse,...] [--programs NAME,...] [--build <dir>]
#       [--out <table.md>] [--timeout <s>] [--jobs N] [--library-only]
#
# --components is Kokkos Kernels' KokkosKernels_ENABLED_COMPONENTS (BATCHED, BLAS, LAPACK, GRAPH, SPARSE; default all);
# --programs picks unit-test programs by name (their ctest names, e.g. blas_openmp); --library-only stops after the
# library. It exits 1 when the library or a program does not build, a test fails, or a program crashes, times out or
# runs no test; 2 on bad arguments. The build folder defaults to a temporary one outside the repository; the logs stay
# in <build>/weft-logs/ (configure.log, library.log, <program>.build.log, <program>.run.log).
set -uo pipefail
kernels="" prefix="" backend=openmp components="" programs="" build="" out="" timeout_s=1800 jobs=$(nproc)
library_only=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --kernels|--prefix|--backend|--components|--programs|--build|--out|--timeout|--jobs)
      [[ $# -ge 2 ]] || { echo "run.sh: $1 needs a value (see --help)" >&2; exit 2; } ;;
  esac
  case $1 in
    --kernels) kernels=${2-}; shift 2 ;;
    --prefix) prefix=${2-}; shift 2 ;;
    --backend) backend=${2-}; shift 2 ;;
    --components) components=${2-}; shift 2 ;;
    --programs) programs=${2-}; shift 2 ;;
    --build) build=${2-}; shift 2 ;;
    --out) out=${2-}; shift 2 ;;
    --timeout) timeout_s=${2-}; shift 2 ;;
    --jobs) jobs=${2-}; shift 2 ;;
    --library-only) library_only=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -f $kernels/CMakeLists.txt && -d $kernels/blas/unit_test ]] ||
  { echo "run.sh: --kernels '$kernels' is not a Kokkos Kernels checkout" >&2; exit 2; }
[[ -f $prefix/lib/weft-kokkos/lib/cmake/Kokkos/KokkosConfig.cmake ]] ||
  { echo "run.sh: --prefix '$prefix' has no Kokkos drop-in (lib/weft-kokkos); install Weft there first" >&2; exit 2; }
case $backend in openmp|serial) ;; *) echo "run.sh: --backend must be openmp or serial" >&2; exit 2 ;; esac
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --jobs '$jobs' is not a positive whole number" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --timeout '$timeout_s' is not a positive number of seconds" >&2; exit 2; }
comp_list=ALL
if [[ -n $components ]]; then
  IFS=',' read -r -a comps <<<"$components,"
  ((${#comps[@]})) || { echo "run.sh: --components '$components' names none" >&2; exit 2; }
  for c in "${comps[@]}"; do
    case ${c^^} in BATCHED|BLAS|LAPACK|GRAPH|SPARSE) ;; *) echo "run.sh: --components: '$c' is not batched, blas, lapack, graph or sparse" >&2; exit 2 ;; esac
  done
  comp_list=$(IFS=';'; echo "${comps[*]^^}")
fi
wanted=()
if [[ -n $programs ]]; then
  IFS=',' read -r -a wanted <<<"$programs,"
  for p in "${wanted[@]}"; do
    [[ $p =~ ^[A-Za-z0-9_]+$ ]] || { echo "run.sh: --programs: '$p' is not a program name" >&2; exit 2; }
  done
fi
[[ -n $build ]] || build=$(mktemp -d "${TMPDIR:-/tmp}/weft-kokkos-kernels-$backend.XXXXXX")
logs=$build/weft-logs
mkdir -p "$logs"
here=$(cd "$(dirname "$0")" && pwd)
if [[ -f $here/../../../scripts/ccache-env.sh ]]; then source "$here/../../../scripts/ccache-env.sh"; fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1: the tests' answers do not need -O3, and the library compiles in far less time.
echo "==> configuring Kokkos Kernels ($kernels) in $build against $prefix"
if ! cmake -S "$kernels" -B "$build" -G Ninja -DKokkos_ROOT="$prefix/lib/weft-kokkos" -DCMAKE_PREFIX_PATH="$prefix" \
  -DKokkosKernels_ENABLE_TESTS=ON -DKokkosKernels_ENABLED_COMPONENTS="$comp_list" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" "${launcher[@]}" >"$logs/configure.log" 2>&1; then
  echo "run.sh: Kokkos Kernels does not configure against the drop-in; see $logs/configure.log" >&2
  grep -m5 -A3 "CMake Error" "$logs/configure.log" >&2
  exit 1
fi
first_error() {  # the first compiler error of a build log, on one line
  grep -m1 -E "error:|Error [0-9]|undefined reference" "$1" | sed -E 's/^[^ ]*\/([^/ ]+:[0-9]+:[0-9]+:)/\1/' | cut -c1-160
}
echo "==> building the library (kokkoskernels) with $jobs jobs"
start=$(date +%s)
if cmake --build "$build" --target kokkoskernels -j "$jobs" -- -k 0 >"$logs/library.log" 2>&1; then
  echo "==> library built in $(($(date +%s) - start)) s"
  library_ok=1
else
  library_ok=0
  failed_objects=$(grep -c "^FAILED:" "$logs/library.log")
  echo "==> library: $failed_objects object(s) failed ($(($(date +%s) - start)) s); first: $(first_error "$logs/library.log")"
fi
if ((library_only)); then
  ((library_ok)) && exit 0 || exit 1
fi
# The unit-test programs of this backend, as ctest knows them (name and executable).
mapfile -t found < <(ctest --test-dir "$build" --show-only=json-v1 2>/dev/null | python3 -c '
import json, os, sys
suffix = "_" + sys.argv[1]
for t in json.load(sys.stdin).get("tests", []):
    if t["name"].endswith(suffix) and t.get("command"):
        print(t["name"], os.path.basename(t["command"][0]))
' "$backend")
((${#found[@]})) || { echo "run.sh: Kokkos Kernels defines no ${backend} unit-test program here; see $logs/configure.log" >&2; exit 1; }
declare -A target_of
for line in "${found[@]}"; do target_of[${line%% *}]=${line#* }; done
if ((${#wanted[@]} == 0)); then
  for line in "${found[@]}"; do wanted+=("${line%% *}"); done
fi
for p in "${wanted[@]}"; do
  [[ -n ${target_of[$p]-} ]] || { echo "run.sh: no unit-test program $p (there are: ${!target_of[*]})" >&2; exit 2; }
done
status=0
rows=("| program | built | tests run | passed | failed | first compile error or failing test |"
      "|---|---|---|---|---|---|")
for p in "${wanted[@]}"; do
  t=${target_of[$p]}
  printf '%-28s ' "$p" >&2
  if ! cmake --build "$build" --target "$t" -j "$jobs" -- -k 0 >"$logs/$p.build.log" 2>&1; then
    echo "does not build: $(first_error "$logs/$p.build.log")" >&2
    rows+=("| $p | no | - | - | - | $(first_error "$logs/$p.build.log" | sed 's/|/\\|/g') |")
    status=1
    continue
  fi
  exe=$(find "$build" -name "$t" -type f -perm -u+x | head -1)
  (cd "$(dirname "$exe")" && timeout "$timeout_s" "$exe") >"$logs/$p.run.log" 2>&1
  rc=$?
  ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran.*/\1/p' "$logs/$p.run.log" | tail -1)
  passed=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?.*/\1/p' "$logs/$p.run.log" | tail -1)
  failed=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) tests?, listed below.*/\1/p' "$logs/$p.run.log" | tail -1)
  first_fail=$(sed -nE 's/^\[  FAILED  \] ([A-Za-z0-9_.\/]+).*/\1/p' "$logs/$p.run.log" | head -1)
  : "${ran:=0}" "${passed:=0}" "${failed:=0}"
  what=$first_fail
  if ((rc == 124)); then what="timed out after ${timeout_s} s"; fi
  if ((rc != 0 && rc != 124 && failed == 0)); then what="exit status $rc (crashed?): $(tail -1 "$logs/$p.run.log" | cut -c1-100)"; fi
  if ((ran == 0 && rc == 0)); then what="ran no test"; fi
  if ((rc != 0 || ran == 0 || failed > 0)); then status=1; fi
  echo "built; $ran run, $passed passed, $failed failed${what:+; $what}" >&2
  rows+=("| $p | yes | $ran | $passed | $failed | $(echo "$what" | sed 's/|/\\|/g') |")
done
((library_ok)) || status=1
{
  echo "Kokkos Kernels ($(git -C "$kernels" describe --tags 2>/dev/null || echo "$kernels")) on Weft's drop-in ($prefix), backend $backend, components $comp_list"
  echo "library: $( ((library_ok)) && echo built || echo "$(grep -c '^FAILED:' "$logs/library.log") object(s) failed; first: $(first_error "$logs/library.log")")"
  echo
  printf '%s\n' "${rows[@]}"
} | tee ${out:+"$out"}
exit $status
