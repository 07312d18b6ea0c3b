// The GPU backends' side of core's device atomics (<weft/atomics.hpp>): the compare-and-swap that every atomic
// without a hardware instruction of its own loops on. CUDA and HIP spell it atomicCAS.
#pragma once

#include <weft/atomics.hpp>

namespace weft::impl {
#if WEFT_IMPL_DEVICE_PASS
template <class U>
__device__ inline U device_compare_and_swap(U* p, U expected, U desired) {
  return atomicCAS(p, expected, desired);
}
#endif
}  // namespace weft::impl
