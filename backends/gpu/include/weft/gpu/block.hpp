// Block-wide primitives built on the warp ones: reduce and exclusive scan over all threads of a block, of any
// size. Shared memory is explicit (TempStorage = bytes the caller reserves), as in CUB.
//
// Each warp reduces (scans) with shuffles; a warp that is only partly there (the last one of a block whose size
// is not a multiple of warp_size) does the same tree through shared memory, log2 steps. The warps' values then
// meet in one shared-memory step: each warp's lane 0 (last lane) stores one slot, warp 0 loads them all in one
// request, reduces (scans) them with shuffles and stores the result. No thread walks the slots serially and no
// request has a bank conflict (consecutive slots, one per lane).
//
// Join order: the reduction joins in a fixed tree (deterministic for a fixed block size, assuming a commutative
// join, as every Weft reduction does); the scan joins in thread-rank order and needs only associativity. Lanes of
// warp 0 beyond the block's warps join the identity (init), which leaves every exact value unchanged.
#pragma once

#include <cstddef>

#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/warp.hpp>

namespace weft::gpu {

template <class V>
struct BlockTemp {
  /// Slots: one per warp ([0, warp_size)), a partial warp's tree ([warp_size, 2 warp_size)) and the result.
  static constexpr std::size_t slots = 2 * std::size_t(warp_size) + 1;
  /// Bytes of shared memory block_reduce / block_exclusive_scan need (any block size).
  static constexpr std::size_t bytes(unsigned = 0) { return sizeof(V) * slots; }
};

WEFT_DEVICE inline unsigned block_threads() {
  const dim3_t d = block_dim();
  return d.x * d.y * d.z;
}

/// Reduces v over the first n lanes of the calling warp (all of them when n == warp_size); lane 0 gets the
/// result. A partial warp (n < warp_size) reduces through `tree` (warp_size values of shared memory) in the same
/// tree as the shuffles: lane l joins lane l + d for d = 16, 8, ..., 1.
template <class Adaptor, class V>
WEFT_DEVICE inline V warp_reduce_partial(const Adaptor& a, V v, unsigned n, V* tree) {
  if (n >= unsigned(warp_size)) return warp_reduce(a, v);
  const lane_mask_t mask = low_lanes(n);
  const unsigned l = lane_id();
  shared_store(&tree[l], v);
  sync_warp(mask);
  unsigned top = 1;
  while (top < n) top *= 2;
  for (unsigned d = top / 2; d > 0; d /= 2) {
    if (l < d && l + d < n) {
      const V o = shared_load(&tree[l + d]);
      a.join(&v, &o);
    }
    sync_warp(mask);  // every read of this step before the writes of the next
    if (l < d) shared_store(&tree[l], v);
    sync_warp(mask);
  }
  return v;
}

/// Inclusive scan of v over the first n lanes of the calling warp (lane order); *exclusive gets the lane's
/// exclusive prefix (init on lane 0). A partial warp scans through `tree` (warp_size values of shared memory).
template <class Adaptor, class V>
WEFT_DEVICE inline V warp_scan_partial(const Adaptor& a, V v, unsigned n, V* tree, V* exclusive) {
  const unsigned l = lane_id();
  if (n >= unsigned(warp_size)) {
    const V incl = warp_inclusive_scan(a, v);
    V up = shfl_up(incl, 1u);
    if (l == 0) a.init(&up);
    *exclusive = up;
    return incl;
  }
  const lane_mask_t mask = low_lanes(n);
  shared_store(&tree[l], v);
  sync_warp(mask);
  for (unsigned d = 1; d < n; d *= 2) {
    V up;
    if (l >= d) up = shared_load(&tree[l - d]);
    sync_warp(mask);
    if (l >= d) {
      a.join(&up, &v);
      v = up;
      shared_store(&tree[l], v);
    }
    sync_warp(mask);
  }
  V ex;
  if (l > 0)
    ex = shared_load(&tree[l - 1]);
  else
    a.init(&ex);
  sync_warp(mask);  // the tree may be reused right after
  *exclusive = ex;
  return v;
}

/// Reduces v over the block; every thread gets the result. `temp` holds BlockTemp<V>::bytes().
template <class Adaptor, class V>
WEFT_DEVICE inline V block_reduce(const Adaptor& a, V v, void* temp) {
  V* slots = static_cast<V*>(temp);
  V* tree = slots + warp_size;
  V* result = slots + 2 * warp_size;
  const unsigned n = block_threads();
  const unsigned warps = (n + warp_size - 1) / warp_size;
  const unsigned w = warp_id(), l = lane_id();
  const unsigned lanes = w + 1 == warps ? n - w * warp_size : unsigned(warp_size);
  v = warp_reduce_partial(a, v, lanes, tree);
  if (warps == 1) {
    if (l == 0) shared_store(result, v);
  } else {
    if (l == 0) shared_store(&slots[w], v);
    sync_block();
    if (w == 0) {  // a full warp: the block has more than one
      V x;
      if (l < warps)
        x = shared_load(&slots[l]);
      else
        a.init(&x);
      x = warp_reduce(a, x);
      if (l == 0) shared_store(result, x);
    }
  }
  sync_block();
  const V r = shared_load(result);
  sync_block();  // the slots may be reused right after
  return r;
}

/// Exclusive scan of v over the block in thread-rank order (thread 0 gets init); *total gets the block's
/// reduction. `temp` holds BlockTemp<V>::bytes().
template <class Adaptor, class V>
WEFT_DEVICE inline V block_exclusive_scan(const Adaptor& a, V v, V* total, void* temp) {
  V* slots = static_cast<V*>(temp);
  V* tree = slots + warp_size;
  V* result = slots + 2 * warp_size;
  const unsigned n = block_threads();
  const unsigned warps = (n + warp_size - 1) / warp_size;
  const unsigned w = warp_id(), l = lane_id();
  const unsigned lanes = w + 1 == warps ? n - w * warp_size : unsigned(warp_size);
  V ex;
  const V incl = warp_scan_partial(a, v, lanes, tree, &ex);
  if (warps == 1) {
    if (l + 1 == lanes) shared_store(result, incl);
    sync_block();
    *total = shared_load(result);
    sync_block();
    return ex;
  }
  if (l + 1 == lanes) shared_store(&slots[w], incl);
  sync_block();
  if (w == 0) {  // warp 0 turns the warps' totals into their exclusive prefixes
    V x;
    if (l < warps)
      x = shared_load(&slots[l]);
    else
      a.init(&x);
    V before;
    const V upto = warp_scan_partial(a, x, unsigned(warp_size), tree, &before);
    if (l < warps) shared_store(&slots[l], before);
    if (l == unsigned(warp_size) - 1) shared_store(result, upto);
  }
  sync_block();
  V r = shared_load(&slots[w]);
  a.join(&r, &ex);
  *total = shared_load(result);
  sync_block();
  return r;
}

}  // namespace weft::gpu
