// Block-wide primitives built on the warp ones: reduce and exclusive scan over all threads of a block.
// Shared memory is explicit (TempStorage = bytes the caller reserves), as in CUB.
#pragma once

#include <cstddef>

#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/warp.hpp>

namespace weft::gpu {

template <class V>
struct BlockTemp {
  /// Bytes of shared memory block_reduce / block_exclusive_scan need for `threads` threads.
  static constexpr std::size_t bytes(unsigned threads) {
    return sizeof(V) * ((threads + warp_size - 1) / warp_size + 2);
  }
};

WEFT_DEVICE inline unsigned block_threads() {
  const dim3_t d = block_dim();
  return d.x * d.y * d.z;
}

/// Reduces v over the block; every thread gets the result. `temp` holds BlockTemp<V>::bytes(threads).
/// Blocks whose size is not a multiple of warp_size reduce through shared memory one warp at a time.
template <class Adaptor, class V>
WEFT_DEVICE inline V block_reduce(const Adaptor& a, V v, void* temp) {
  V* slots = static_cast<V*>(temp);
  const unsigned n = block_threads();
  const unsigned warps = (n + warp_size - 1) / warp_size;
  const unsigned last = n - (warps - 1) * warp_size;  // lanes in the last warp
  const unsigned w = warp_id();
  if (last == warp_size) {
    v = warp_reduce(a, v);
  } else {
    // Partial last warp: shuffle only among the full warps; the partial one joins serially.
    const lane_mask_t mask = (w + 1 == warps) ? low_lanes(last) : full_mask;
    if (w + 1 < warps) {
      v = warp_reduce(a, v);
    } else {
      // Gather the partial warp's values in lane order through shared memory.
      V* tmp = slots + warps + 1;
      for (unsigned l = 0; l < last; ++l) {
        if (lane_id() == l) {
          V acc = v;
          if (l > 0) {
            acc = shared_load(tmp);
            a.join(&acc, &v);
          }
          shared_store(tmp, acc);
        }
        sync_warp(mask);
      }
      v = shared_load(tmp);
      sync_warp(mask);
    }
  }
  if (lane_id() == 0) shared_store(&slots[w], v);
  sync_block();
  if (thread_rank() == 0) {
    V acc = shared_load(&slots[0]);
    for (unsigned k = 1; k < warps; ++k) {
      const V s = shared_load(&slots[k]);
      a.join(&acc, &s);
    }
    shared_store(&slots[warps], acc);
  }
  sync_block();
  const V r = shared_load(&slots[warps]);
  sync_block();  // the slots may be reused right after
  return r;
}

/// Exclusive scan of v over the block in thread-rank order; *total gets the block's reduction.
/// Needs a block size that is a multiple of warp_size.
template <class Adaptor, class V>
WEFT_DEVICE inline V block_exclusive_scan(const Adaptor& a, V v, V* total, void* temp) {
  V* slots = static_cast<V*>(temp);
  const unsigned n = block_threads();
  const unsigned warps = n / warp_size;
  const V incl = warp_inclusive_scan(a, v);
  if (lane_id() == warp_size - 1) shared_store(&slots[warp_id()], incl);
  sync_block();
  if (thread_rank() == 0) {
    V run;
    a.init(&run);
    for (unsigned k = 0; k < warps; ++k) {
      const V s = shared_load(&slots[k]);
      shared_store(&slots[k], run);  // exclusive prefix of warp k
      a.join(&run, &s);
    }
    shared_store(&slots[warps], run);
  }
  sync_block();
  // exclusive within the warp: shift the inclusive scan up by one lane
  V ex = shfl_up(incl, 1u);
  V r = shared_load(&slots[warp_id()]);
  if (lane_id() > 0) a.join(&r, &ex);
  *total = shared_load(&slots[warps]);
  sync_block();
  return r;
}

}  // namespace weft::gpu
