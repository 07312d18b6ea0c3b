// Warp-wide primitives on the intrinsics layer: reduce and inclusive scan of any trivially copyable value
// with any Weft reducer adaptor. The reduction joins in a fixed tree (lane l with lane l + d, d = 16, 8, ...):
// deterministic, but it assumes a commutative join, as every Weft reduction does; the scan joins in lane order
// and needs only associativity.
#pragma once

#include <weft/gpu/intrinsics.hpp>

namespace weft::gpu {

/// Reduces v over `width` consecutive lanes (a power of two <= warp_size); lane 0 of each segment gets the result.
template <class Adaptor, class V>
WEFT_DEVICE inline V warp_reduce(const Adaptor& a, V v, int width = warp_size, lane_mask_t mask = full_mask) {
  for (int d = width / 2; d > 0; d /= 2) {
    const V other = shfl_down(v, static_cast<unsigned>(d), mask, width);
    if (static_cast<int>(lane_id() % width) + d < width) a.join(&v, &other);
  }
  return v;
}

/// Inclusive scan of v over `width` consecutive lanes: lane k gets v0 (+) ... (+) vk.
template <class Adaptor, class V>
WEFT_DEVICE inline V warp_inclusive_scan(const Adaptor& a, V v, int width = warp_size, lane_mask_t mask = full_mask) {
  const int lane = static_cast<int>(lane_id() % width);
  for (int d = 1; d < width; d *= 2) {
    V up = shfl_up(v, static_cast<unsigned>(d), mask, width);
    if (lane >= d) {
      a.join(&up, &v);
      v = up;
    }
  }
  return v;
}

}  // namespace weft::gpu
