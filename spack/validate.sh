#!/usr/bin/env bash
# Validates spack/packages/weft with Spack itself, offline, with Debian's packages as externals.
#
# usage: spack/validate.sh SPACK_ROOT [--work DIR] [--keep] [--no-build]
#
#   SPACK_ROOT   a Spack checkout outside this repository (tested with Spack 0.23.0.dev0, commit e8f8cf8543 of
#                github.com/manuel-g-castro/spack, June 2024); nothing is written into it
#   --work DIR   where the throw-away Spack configuration, environments, build stage and install tree go
#                (default: a new folder under ${TMPDIR:-/tmp}); removed at the end unless --keep or a step failed
#   --no-build   stop after the concretization checks (about 10 minutes instead of about 25)
#   --no-matrix  skip the concretization matrix (to rerun the build steps)
#
# Steps: Debian's packages (scripts/setup.sh --hip) and clingo (pip) when missing; a Spack environment whose
# packages are all externals (not buildable) and whose mirrors are none; `spack audit packages`, `spack info`; the
# concretization matrix of spack/concretize_matrix.py (every variant combination, every dependency an external,
# the impossible combinations refused with the recipe's message); `weft@main +openmp +mpi +tests` built from a
# copy of this working tree (a `develop` spec), tested (`spack install --test=root`) and installed; the
# out-of-tree consumer built against the Spack-installed prefix; `weft@main +cuda cuda_arch=90` compiled,
# linked and installed (no GPU needed). Every Spack command runs in a network namespace of its own (unshare -n)
# when the machine allows it, so a step that tried to download would fail rather than fetch.
# Exits non-zero on the first failed step, naming it.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
usage() { sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
spack_root="" work="" keep=0 build=1 matrix=1
while (($#)); do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --no-build) build=0; shift ;;
    --no-matrix) matrix=0; shift ;;
    -h|--help) usage ;;
    -*) echo "spack/validate.sh: unknown option $1" >&2; usage ;;
    *) spack_root="$1"; shift ;;
  esac
done
[ -n "$spack_root" ] || usage
[ -x "$spack_root/bin/spack" ] || { echo "spack/validate.sh: no bin/spack under $spack_root" >&2; exit 2; }
spack_root="$(cd "$spack_root" && pwd)"
case "$spack_root/" in "$repo/"*) echo "spack/validate.sh: the Spack checkout must be outside the repository" >&2; exit 2 ;; esac
[ -n "$work" ] || work="$(mktemp -d "${TMPDIR:-/tmp}/weft-spack.XXXXXX")"
mkdir -p "$work"
work="$(cd "$work" && pwd)"

start=$(date +%s)
current=""
step() {
  current="$*"
  echo "==> [$(($(date +%s) - start)) s] $current"
}
die() {
  echo "FAILED step: $current${1:+ ($1)}" >&2
  echo "(the work folder $work is kept for inspection)" >&2
  exit 1
}

# Spack reads and writes nothing of the user's or the site's configuration: only the environments below.
export SPACK_DISABLE_LOCAL_CONFIG=1 SPACK_USER_CONFIG_PATH="$work/user" SPACK_USER_CACHE_PATH="$work/cache"
nonet=()
if unshare -n true 2>/dev/null && command -v ip >/dev/null; then
  # Only the loopback interface, up: Open MPI's compiler wrappers and the MPI tests need one interface (without it
  # mpicxx prints "unable to find network interfaces" and CMake's FindMPI misreads its include folders).
  nonet=(unshare -n sh -c 'ip link set lo up && exec "$@"' sh)
else
  echo "note: cannot make a network namespace here (unshare -n needs root, ip needs iproute2); downloads are prevented" \
    "by configuration only"
fi
spack() { "${nonet[@]}" "$spack_root/bin/spack" "$@"; }

step "prerequisites: Debian's packages (scripts/setup.sh --hip) and clingo for Spack's concretizer (pip)"
bash "$repo/scripts/setup.sh" --hip || die "scripts/setup.sh"
if ! python3 -c "import clingo" 2>/dev/null; then
  python3 -m pip install --quiet clingo 2>/dev/null || python3 -m pip install --quiet --break-system-packages clingo ||
    die "pip install clingo"
fi
echo "Spack $(spack --version) at $spack_root ($(git -C "$spack_root" rev-parse --short=10 HEAD 2>/dev/null || echo 'not a git checkout')); clingo $(python3 -c 'import clingo; print(clingo.__version__)')"

step "the externals: versions read off this machine"
deb() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed -E 's/^[0-9]+://; s/[~+-].*//'; }
gcc_v=$(gcc -dumpfullversion)
cmake_v=$(cmake --version | sed -n 's/^cmake version //p')
ninja_v=$(ninja --version)
ompi_v=$(deb libopenmpi-dev)
openblas_v=$(deb libopenblas-dev)
doctest_v=$(deb doctest-dev)
benchmark_v=$(deb libbenchmark-dev)
boost_v=$(dpkg-query -W -f='${Version}' libboost-context1.74-dev 2>/dev/null | sed -E 's/[+~-].*//')
python_v=$(/usr/bin/python3 -c 'import platform; print(platform.python_version())')
hip_v=$(deb libamdhip64-dev)
hsa_v=$(deb libhsa-runtime-dev)
rocprim_v=$(deb librocprim-dev)
llvm_amdgpu_dir=$(dirname "$(dirname "$(readlink -f "$(command -v clang++-15 || echo /usr/lib/llvm-15/bin/clang++)")")")
cuda_root=/usr/local/cuda
cuda_v=$("$cuda_root/bin/nvcc" --version 2>/dev/null | sed -nE 's/.*release [0-9.]+, V([0-9.]+).*/\1/p')
nccl_v=$(awk '/define NCCL_(MAJOR|MINOR|PATCH) /{v = v (v ? "." : "") $3} END {print v}' "$cuda_root/include/nccl.h" 2>/dev/null)
os=$(spack arch -o) || die "spack arch"
for v in gcc_v cmake_v ninja_v ompi_v openblas_v doctest_v benchmark_v boost_v python_v hip_v hsa_v rocprim_v cuda_v nccl_v; do
  [ -n "${!v}" ] || die "could not read the version of ${v%_v}"
  printf '  %-10s %s\n' "${v%_v}" "${!v}"
done

# The configuration shared by both environments: one compiler, externals only, no mirrors, a private install tree.
common="$work/common.yaml"
cat >"$common" <<EOF
  concretizer:
    unify: false
    reuse: false
  mirrors:: {}
  config:
    install_tree: {root: $work/opt}
    build_stage: [$work/stage]
    source_cache: $work/cache/source
    misc_cache: $work/cache/misc
    build_jobs: $(nproc)
  repos: [$repo/spack]
  compilers:
  - compiler:
      spec: gcc@=$gcc_v
      paths: {cc: $(command -v gcc), cxx: $(command -v g++), f77: null, fc: null}
      operating_system: $os
      target: $(uname -m)
      modules: []
  packages:
    all:
      compiler: [gcc@$gcc_v]
      providers: {mpi: [openmpi], blas: [openblas], lapack: [openblas]}
    cmake: {buildable: false, externals: [{spec: cmake@$cmake_v, prefix: /usr}]}
    ninja: {buildable: false, externals: [{spec: ninja@$ninja_v, prefix: /usr}]}
    gmake: {buildable: false, externals: [{spec: gmake@$(make --version | sed -nE '1s/.* ([0-9.]+)$/\1/p'), prefix: /usr}]}
    openmpi: {buildable: false, externals: [{spec: openmpi@$ompi_v, prefix: /usr}]}
    mpi: {buildable: false}
    openblas:
      buildable: false
      externals:
      - {spec: openblas@$openblas_v threads=openmp, prefix: /usr}
      - {spec: openblas@$openblas_v threads=pthreads, prefix: /usr}
    doctest: {buildable: false, externals: [{spec: doctest@$doctest_v, prefix: /usr}]}
    benchmark: {buildable: false, externals: [{spec: benchmark@$benchmark_v, prefix: /usr}]}
    boost: {buildable: false, externals: [{spec: boost@$boost_v +context, prefix: /usr}]}
    python: {buildable: false, externals: [{spec: python@$python_v, prefix: /usr}]}
    cuda: {buildable: false, externals: [{spec: cuda@$cuda_v, prefix: $(readlink -f $cuda_root)}]}
    nccl: {buildable: false, externals: [{spec: nccl@$nccl_v, prefix: $(readlink -f $cuda_root)}]}
    hip: {buildable: false, externals: [{spec: hip@$hip_v +rocm, prefix: /usr}]}
    hsa-rocr-dev: {buildable: false, externals: [{spec: hsa-rocr-dev@$hsa_v, prefix: /usr}]}
    llvm-amdgpu: {buildable: false, externals: [{spec: llvm-amdgpu@$hip_v, prefix: $llvm_amdgpu_dir}]}
    rocprim: {buildable: false, externals: [{spec: rocprim@$rocprim_v, prefix: /usr}]}
EOF
make_env() {  # make_env NAME SPEC...: an environment with the common configuration and the given root specs
  local dir="$work/$1"; shift
  mkdir -p "$dir"
  {
    echo "spack:"
    if (($#)); then echo "  specs:"; else echo "  specs: []"; fi
    for s in "$@"; do echo "  - '$s'"; done
    echo "  view: false"
    cat "$common"
  } >"$dir/spack.yaml"
}
make_env matrix
spack -e "$work/matrix" config blame packages >/dev/null || die "Spack rejects the generated configuration"

step "spack audit packages weft doctest"
spack -e "$work/matrix" audit packages weft doctest || die
step "spack info weft"
spack -e "$work/matrix" info weft || die

if ((matrix)); then
  step "concretization matrix (spack/concretize_matrix.py)"
  spack -e "$work/matrix" python "$repo/spack/concretize_matrix.py" || die
fi

step "the example environment spack/spack.yaml concretizes (its repository path pointed at this checkout)"
mkdir -p "$work/example"
sed "s#/path/to/weft/spack#$repo/spack#" "$repo/spack/spack.yaml" >"$work/example/spack.yaml"
spack -e "$work/example" concretize -f || die

if ((build)); then
  # A copy of the working tree (tracked and untracked files, not build folders): Spack builds a develop spec in
  # a folder inside its source, which must not be this repository.
  step "copy of the source for the develop spec"
  mkdir -p "$work/src"
  (cd "$repo" && git ls-files -co --exclude-standard -z | tar -c --null -T - -f -) | tar -x -C "$work/src" || die

  step "spack install --test=root weft@main +openmp +mpi +tests (a develop spec from the copy; ctest runs as check())"
  make_env openmp "weft@main +openmp +mpi +tests"
  spack -e "$work/openmp" develop --no-clone --path "$work/src" weft@main || die "spack develop"
  spack -e "$work/openmp" concretize -f || die "spack concretize"
  spack -e "$work/openmp" install --test=root --show-log-on-error || die
  prefix=$(spack -e "$work/openmp" location -i weft) || die "spack location"
  echo "installed at $prefix"
  grep -q 'Weft_ENABLED_BACKENDS "Serial;OpenMP"' "$prefix/lib/cmake/Weft/WeftConfig.cmake" &&
    grep -q 'set(Weft_MPI ON)' "$prefix/lib/cmake/Weft/WeftConfig.cmake" ||
    die "the installed Weft is not the configuration asked for (Serial + OpenMP backends, MPI on)"
  tests_log="$prefix/.spack/install-time-test-log.txt"
  grep -q "100% tests passed" "$tests_log" && grep -Eq "test_comm_mpi4 .*Passed" "$tests_log" ||
    die "Spack's test run ($tests_log) did not pass every test, MPI tests on 4 ranks included"
  echo "spack install --test=root: $(grep -E '^[0-9]+% tests passed' "$tests_log")"

  step "the installed weft: its configuration (OpenMP backend, OpenBLAS's OpenMP build) and a run of weft-gemm"
  conf=$("$prefix/bin/weft-gemm" --weft-print-configuration --sizes 96 --types double,float --reps 1 2>&1) ||
    { echo "$conf"; die "weft-gemm"; }
  echo "$conf"
  grep -q "backends: .*OpenMP" <<<"$conf" || die "the OpenMP backend is not in the installed build's configuration"
  grep -q "threading: OpenMP" <<<"$conf" || die "the installed build does not run OpenBLAS's OpenMP build"
  grep -q "Validation: PASSED" <<<"$conf" || die "weft-gemm did not validate"

  step "out-of-tree consumer (tests/consumer) against the Spack-installed prefix"
  cmake -S "$repo/tests/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null || die "configure"
  cmake --build "$work/consumer" >/dev/null || die "build"
  "$work/consumer/consumer" || die "run"

  step "spack install weft@main +cuda cuda_arch=90 (compile and link only: no GPU here)"
  make_env cuda "weft@main +cuda cuda_arch=90 ~tests"
  spack -e "$work/cuda" develop --no-clone --path "$work/src" weft@main || die "spack develop"
  spack -e "$work/cuda" concretize -f || die "spack concretize"
  spack -e "$work/cuda" install --show-log-on-error || die
  cprefix=$(spack -e "$work/cuda" location -i weft) || die "spack location"
  ls "$cprefix/lib"/libweft* >/dev/null || die "no libweft under $cprefix/lib"
  grep -q 'Weft_ENABLED_BACKENDS "Serial;OpenMP;Cuda"' "$cprefix/lib/cmake/Weft/WeftConfig.cmake" ||
    die "the installed +cuda Weft has no CUDA backend"
  cuobjdump=$(python3 -c "import glob, nvidia; print((glob.glob(nvidia.__path__[0] + '/cu*/bin/cuobjdump') + [''])[0])" \
    2>/dev/null || true)
  if [ -n "$cuobjdump" ]; then
    "$cuobjdump" --list-elf "$cprefix/lib/libweft_linalg.a" | grep -q "sm_90" ||
      die "the installed libweft_linalg.a holds no sm_90 machine code"
    echo "libweft_linalg.a: $("$cuobjdump" --list-elf "$cprefix/lib/libweft_linalg.a" | grep -c sm_90) sm_90 cubins"
  fi
fi

step "validated in $(($(date +%s) - start)) s"
if ((keep)); then echo "kept: $work"; else rm -rf "$work"; fi
