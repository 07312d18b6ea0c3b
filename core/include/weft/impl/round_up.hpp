// round_up(x, a): x rounded up to a multiple of a (byte offsets and sizes of blocks, pools and shared memory).
#pragma once

#include <cstddef>

#include <weft/macros.hpp>

namespace weft::impl {
template <class T>
WEFT_INLINE_FUNCTION constexpr T round_up(T x, T a) {
  return (x + a - 1) / a * a;
}
}  // namespace weft::impl
