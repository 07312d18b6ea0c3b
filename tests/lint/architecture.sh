#!/bin/sh
# The architecture's rules that a grep can check (issue: backends register themselves; vendor paths beside the
# portable code): core names no backend (outside the generated config.hpp.in), and the generic linalg and
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
# The generic matrix_product, gemv, trsm and sort name no backend: a vendor path is a specialization
# (DeviceVendorBlas, has_vendor_radix_sort_v); the one line allowed is gemm.hpp's "is there a GPU backend".
found=$(grep -nE 'WEFT_HAS_(CUDA|HIP|GPU_EMU)' "$root/linalg/include/weft/linalg/gemm.hpp" \
  "$root/linalg/include/weft/linalg/blas2.hpp" "$root/linalg/include/weft/linalg/triangular.hpp" \
  "$root/algorithms/include/weft/algorithms/sort.hpp" | grep -vE 'gemm.hpp:[0-9]+:#if WEFT_HAS_CUDA \|\| WEFT_HAS_HIP \|\| WEFT_HAS_GPU_EMU$')
if [ -n "$found" ]; then
  echo "a generic linalg/algorithms header names a backend (specialize DeviceVendorBlas / has_vendor_radix_sort_v):"
  echo "$found"
  status=1
fi
[ $status -eq 0 ] && echo "architecture rules hold"
exit $status
