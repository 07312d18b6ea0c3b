#!/bin/sh
# The architecture's rules that a grep can check (issue: backends register themselves; vendor paths beside the
# portable code): core names no backend (outside the generated config.hpp.in), the modules include only the layers
# below them, and the generic linalg and
# algorithm headers select vendor paths by specialization, never by #if WEFT_HAS_<backend> inside a function.
# Prints each offending line and exits 1.
root=${1:?usage: architecture.sh SOURCE_DIR}
status=0
found=$(grep -rnE 'WEFT_HAS_(SERIAL|OPENMP|CUDA|HIP|GPU_EMU)|#include <weft/(serial|openmp|cuda|hip|emu|gpu|host)/' \
  "$root/core" --include='*.hpp' --include='*.cpp' 2>/dev/null)
if [ -n "$found" ]; then
  echo "core/ names a backend (let the backend register itself, or use a hook macro of config.hpp.in):"
  echo "$found"
  status=1
fi
# The layers' include directions (../shared/DESIGN.md): core knows no module; backends know no module above them;
# algorithms, linalg and comm know no app and nothing of the Kokkos drop-in; comm knows no linalg. Nothing below
# compat/ includes compat/ (weft/compat/, Kokkos_*.hpp). tests/CMakeLists.txt's lint_architecture_catches runs this
# on a tree with one bad include per rule and expects each to be reported.
# forbid WHAT DIRS... -- PATTERN: every #include in DIRS matching the extended regular expression PATTERN is an error.
forbid() {
  what=$1
  shift
  dirs=""
  while [ "$1" != "--" ]; do
    [ -d "$root/$1" ] && dirs="$dirs $root/$1"
    shift
  done
  shift
  [ -z "$dirs" ] && return
  # shellcheck disable=SC2086
  hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($1)" $dirs --include='*.hpp' --include='*.cpp' \
    --include='*.h' --include='*.in' --include='*.cu' 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "$what:"
    echo "$hits"
    status=1
  fi
}
modules='weft/(algorithms|linalg|comm|compat)[./]'
apps='app_common\.hpp|app_mpi\.hpp|apps/'
compat='weft/compat/|Kokkos'
forbid "core/ includes a module above it (core knows no module)" core -- "$modules|$apps|$compat"
forbid "backends/ include a module above them" backends -- "$modules|$apps|$compat"
forbid "algorithms/, linalg/ or comm/ include an app or the Kokkos drop-in" algorithms linalg comm -- "$apps|$compat"
forbid "comm/ includes linalg (comm knows no linalg)" comm -- "weft/linalg[./]"
# The generic matrix_product, gemv, trsm, sort and GPU GEMM name no backend: a vendor path is a specialization
# or a vendor trait (DeviceVendorBlas, has_vendor_radix_sort_v, impl_vendor::nvidia_mma_fragments); the one line
# allowed is gemm.hpp's "is there a GPU backend".
found=$(grep -nE 'WEFT_HAS_(CUDA|HIP|GPU_EMU)' "$root/linalg/include/weft/linalg/gemm.hpp" \
  "$root/linalg/include/weft/linalg/blas2.hpp" "$root/linalg/include/weft/linalg/triangular.hpp" \
  "$root/algorithms/include/weft/algorithms/sort.hpp" "$root/linalg/include/weft/linalg/gpu_gemm.hpp" \
  "$root/linalg/include/weft/linalg/device_gemm.hpp" 2>/dev/null | grep -vE 'gemm.hpp:[0-9]+:#if WEFT_HAS_CUDA \|\| WEFT_HAS_HIP \|\| WEFT_HAS_GPU_EMU$')
if [ -n "$found" ]; then
  echo "a generic linalg/algorithms header names a backend (specialize DeviceVendorBlas / has_vendor_radix_sort_v):"
  echo "$found"
  status=1
fi
[ $status -eq 0 ] && echo "architecture rules hold"
exit $status
