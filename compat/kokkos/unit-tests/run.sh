#!/usr/bin/env bash
# Builds and runs Kokkos 4.6.01's unit tests against an installed Weft Kokkos drop-in, one test file at a time, and
# prints per file: compiled or not, tests run, passed, failed, skipped and pass/FAIL (README.md).
#
#   compat/kokkos/unit-tests/run.sh --kokkos <kokkos checkout> --prefix <Weft install prefix>
#       [--category OpenMP|Serial|GpuEmu] [--kinds core,containers,algorithms,std] [--files A,B,...]
#       [--build <dir>] [--out <table.md>] [--timeout <s>] [--jobs N] [Name ...]
#
# Without names or --files it runs every file of suite-4.6.01.txt (Kokkos 4.6.01's per-backend suite) of the kinds
# given (default core,containers,algorithms: the 144 files outside the std algorithms); a name may be kind:Name (core
# and containers both have WithoutInitializing; containers' builds as containers_WithoutInitializing). It exits 1 when a file does
# not compile, a test fails, or a program crashes, times out or runs no test; 2 on bad arguments. The build folder
# defaults to a temporary one outside the repository; each file's compile log and test output stay there
# (<build>/logs/<Name>.{build,run}.log).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kokkos="" prefix="" category=OpenMP build="" out="" timeout_s=600 jobs=$(nproc) kinds=core,containers,algorithms
names=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --kokkos) kokkos=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --category) category=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --kinds) kinds=$2; shift 2 ;;
    --files) IFS=',' read -r -a more <<<"$2"; names+=("${more[@]}"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[[ -f $kokkos/core/unit_test/UnitTestMainInit.cpp ]] || { echo "run.sh: --kokkos '$kokkos' is not a Kokkos checkout" >&2; exit 2; }
[[ -f $prefix/lib/weft-kokkos/lib/cmake/Kokkos/KokkosConfig.cmake ]] || {
  echo "run.sh: --prefix '$prefix' has no Kokkos drop-in (lib/weft-kokkos); install Weft there first" >&2; exit 2; }
case $category in OpenMP|Serial|GpuEmu) ;; *) echo "run.sh: --category must be OpenMP, Serial or GpuEmu" >&2; exit 2 ;; esac
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --jobs '$jobs' is not a positive whole number" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --timeout '$timeout_s' is not a positive number of seconds" >&2; exit 2; }
suite=$here/suite-4.6.01.txt
if [[ ${#names[@]} -eq 0 ]]; then
  IFS=',' read -r -a kind_list <<<"$kinds"
  [[ ${#kind_list[@]} -gt 0 ]] || { echo "run.sh: --kinds '$kinds' names no kind" >&2; exit 2; }
  for k in "${kind_list[@]}"; do
    case $k in core|containers|algorithms|std) ;; *) echo "run.sh: --kinds: '$k' is not core, containers, algorithms or std" >&2; exit 2 ;; esac
    mapfile -t -O "${#names[@]}" names < <(awk -v k="$k" '$1 == k { print $1 ":" $2 }' "$suite")
  done
fi
for n in "${names[@]}"; do
  [[ $n =~ ^((core|containers|algorithms|std):)?[A-Za-z0-9_]+$ ]] ||
    { echo "run.sh: '$n' is not a test file name (Name or kind:Name for Test<Name>.hpp)" >&2; exit 2; }
done
[[ ${#names[@]} -gt 0 ]] || { echo "run.sh: no test file to run" >&2; exit 2; }
[[ -n $build ]] || build=$(mktemp -d "${TMPDIR:-/tmp}/weft-kokkos-tests-$category.XXXXXX")
mkdir -p "$build/logs"
if [[ -f $here/../../../scripts/ccache-env.sh ]]; then source "$here/../../../scripts/ccache-env.sh"; fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
list=$(IFS=';'; echo "${names[*]}")
if ! cmake -S "$here" -B "$build" -G Ninja -DKOKKOS_SOURCE="$kokkos" -DCATEGORY="$category" -DTESTS="$list" \
  -DKokkos_ROOT="$prefix/lib/weft-kokkos" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-O1" "${launcher[@]}" \
  >"$build/logs/configure.log" 2>&1; then
  echo "run.sh: configure failed; see $build/logs/configure.log" >&2; tail -5 "$build/logs/configure.log" >&2; exit 1
fi
cmake --build "$build" --target kokkos_test_main >"$build/logs/main.build.log" 2>&1 || {
  echo "run.sh: Kokkos's test main does not compile; see $build/logs/main.build.log" >&2; exit 1; }
# The targets CMake made of the entries (a containers file whose name core also has is containers_<Name>).
declare -A target_of
while read -r entry target; do target_of[$entry]=$target; done <"$build/targets.txt"
targets=()
for n in "${names[@]}"; do targets+=("${target_of[$n]:?run.sh: no target for $n}"); done
names=("${targets[@]}")
# Compile the files side by side (one compiler each; --jobs, default the core count), then run them one by one.
export build
printf '%s\n' "${names[@]}" | xargs -P "$jobs" -I{} sh -c \
  'cmake --build "$build" --target {} -j1 >"$build/logs/{}.build.log" 2>&1 && touch "$build/logs/{}.built" || rm -f "$build/logs/{}.built"'
rows=()
for n in "${names[@]}"; do
  printf '%-28s ' "$n" >&2
  if [[ -f $build/logs/$n.built ]]; then
    (cd "$build" && OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} timeout "$timeout_s" "./$n" >"logs/$n.run.log" 2>&1)
    rc=$?
    row=$(python3 "$here/summarize.py" "$build/logs/$n.run.log" "$n" "$rc")
  else
    first=$(grep -m1 -E 'error:|error #' "$build/logs/$n.build.log" | sed -E 's|^[^ ]*/||; s/\|/\\|/g' | cut -c1-160)
    row="| $n | no | | | | | FAIL | ${first:-does not compile (see logs/$n.build.log)} |"
  fi
  echo "$row" | cut -c1-150 >&2
  rows+=("$row")
done
{
  echo "Kokkos 4.6.01 unit tests on Weft's drop-in, category $category ($(date -u +%F), $(git -C "$here" rev-parse --short HEAD 2>/dev/null), $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-2})"
  echo
  echo "| file | compiles | run | passed | failed | skipped | result | first error or failing test |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  python3 "$here/summarize.py" --total "${rows[@]}"
} >"${out:-$build/table.md}"
cat "${out:-$build/table.md}"
failing=$(printf '%s\n' "${rows[@]}" | grep -c '| FAIL |')
if [[ $failing -gt 0 ]]; then
  echo "run.sh: $failing of ${#names[@]} files fall short (do not compile, fail a test, or crash)" >&2
  exit 1
fi
echo "run.sh: all ${#names[@]} files compile and pass" >&2
