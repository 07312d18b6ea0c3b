// impl::ParallelScan on the GPU backends: one pass with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016), built on the warp and block primitives.
//
// Each block takes the next tile of `threads * items` indices from an atomic counter (so a tile only ever waits
// for tiles that running blocks hold), calls the functor once per index with final = false in a coalesced order
// and keeps the contributions in shared memory, which each thread then reads back in blocked order (its `items`
// consecutive indices) and accumulates serially. A warp scan and a block scan of those sums give the tile's
// aggregate (gpu::block_exclusive_scan). Warp 0 publishes it (flag A) and walks back over its predecessors a warp-wide
// window at a time, joining aggregates until it meets an inclusive prefix (flag P), then publishes its own inclusive
// prefix. Each index is then called again with final = true and its exclusive prefix. Input is read from memory once
// (the second call finds it in cache) and the result written once: the traffic of a copy, as cub::DeviceScan.
//
// Join order is index order, so any associative join works (commutativity is not assumed). Which predecessors
// contribute inclusive prefixes and which aggregates depends on timing, so floating-point sums may differ in the
// last bits from run to run, exactly as with cub::DeviceScan; integer and other exact scans are reproducible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <weft/error.hpp>
#include <weft/gpu/block.hpp>
#include <weft/gpu/work.hpp>
#include <weft/impl/round_up.hpp>

namespace weft::impl {

template <class V>
struct GpuScanShape {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / gpu::warp_size;
  /// Indices per thread: a tile's contributions take at most 16 KiB of shared memory (8 int64 or 16 int32).
  static constexpr unsigned items = sizeof(V) * threads * 16 <= 16384    ? 16
                                    : 16384 / (sizeof(V) * threads) >= 1 ? unsigned(16384 / (sizeof(V) * threads))
                                                                         : 1u;
  static constexpr unsigned tile = threads * items;
  /// One warp's staging: warp_size * items values plus one pad value after every warp_size (position
  /// p + p / warp_size). The coalesced stores (warp_size consecutive values) stay contiguous, and the blocked
  /// reads (lane l's value k at l * items + k) spread over the banks evenly: the pads shift each group of
  /// 32 / items lanes by one value, so 4-, 8-, 16- and 32-byte values (items 16, 8, 4, 2) take only the ideal
  /// wavefronts (no bank conflicts; tests/gpu/test_memory_model.cpp).
  static constexpr std::size_t warp_stage = items > 1 ? std::size_t(gpu::warp_size) * items + items : 0;
  static constexpr std::size_t stage_bytes = round_up<std::size_t>(sizeof(V) * warp_stage * warps, 16);
  static constexpr std::size_t temp_bytes = round_up<std::size_t>(gpu::BlockTemp<V>::bytes(threads), 16);
  static constexpr std::size_t shared_bytes = stage_bytes + temp_bytes + round_up<std::size_t>(sizeof(V), 16) + 16;
  WEFT_DEVICE static constexpr unsigned padded(unsigned p) { return p + p / unsigned(gpu::warp_size); }
};

/// Tile states of the look-back.
inline constexpr unsigned scan_flag_none = 0, scan_flag_aggregate = 1, scan_flag_prefix = 2;

template <class F, class Adaptor, class Policy>
struct GpuScanKernel {
  using V = typename Adaptor::value_type;
  using I = typename Policy::index_type;
  using Shape = GpuScanShape<V>;
  F f;
  Adaptor a;
  I begin;
  std::int64_t n;
  unsigned* next_tile;  // zero before the launch
  unsigned* flags;      // one per tile, zero (scan_flag_none) before the launch
  V* aggregates;        // one per tile
  V* prefixes;          // one per tile: inclusive prefixes
  V* total;             // the last tile writes the total here (device memory, pinned host memory, or a View)

  WEFT_DEVICE void call(std::int64_t k, V& v, bool final) const {
    invoke<typename Policy::work_tag>(f, static_cast<I>(static_cast<std::int64_t>(begin) + k), v, final);
  }

  WEFT_DEVICE void operator()() const {
    constexpr unsigned items = Shape::items, W = gpu::warp_size;
    char* shared = gpu::dynamic_shared();
    V* stage_all = reinterpret_cast<V*>(shared);
    void* temp = shared + Shape::stage_bytes;
    V* tile_prefix = reinterpret_cast<V*>(shared + Shape::stage_bytes + Shape::temp_bytes);
    unsigned* tile_slot = reinterpret_cast<unsigned*>(shared + Shape::shared_bytes - 16);

    if (gpu::thread_rank() == 0) gpu::shared_store(tile_slot, atomic_fetch_add(next_tile, 1u));
    gpu::sync_block();
    const unsigned tile = gpu::shared_load(tile_slot);
    const unsigned w = gpu::warp_id(), lane = gpu::lane_id();
    const std::int64_t lo = std::int64_t(tile) * Shape::tile;
    const std::int64_t hi = lo + Shape::tile < n ? lo + Shape::tile : n;
    // Warp w owns [seg, seg + W * items): calls run lane-consecutive (coalesced), sums run per thread.
    const std::int64_t seg = lo + std::int64_t(w) * W * items;
    V* stage = stage_all + std::size_t(w) * Shape::warp_stage;

    V mine;  // this thread's contributions, joined in index order
    a.init(&mine);
    if constexpr (items == 1) {
      if (seg + lane < hi) call(seg + lane, mine, false);
    } else {
      for (unsigned j = 0; j < items; ++j) {
        const unsigned q = j * W + lane;
        V v;
        a.init(&v);
        if (seg + q < hi) call(seg + q, v, false);
        gpu::shared_store(stage + Shape::padded(q), v);
      }
      gpu::sync_warp();
      for (unsigned k = 0; k < items; ++k) {
        const V v = gpu::shared_load(stage + Shape::padded(lane * items + k));
        a.join(&mine, &v);
      }
    }

    // The tile's aggregate and every thread's exclusive prefix within the tile.
    V aggregate;
    const V within = gpu::block_exclusive_scan(a, mine, &aggregate, temp);
    if (w == 0) look_back(tile, aggregate, tile_prefix);
    gpu::sync_block();

    V run = gpu::shared_load(tile_prefix);
    a.join(&run, &within);
    if constexpr (items == 1) {
      if (seg + lane < hi) call(seg + lane, run, true);
    } else {
      // Each thread turns its contributions into exclusive prefixes in place, then the calls run coalesced.
      for (unsigned k = 0; k < items; ++k) {
        V* p = stage + Shape::padded(lane * items + k);
        const V v = gpu::shared_load(p);
        gpu::shared_store(p, run);
        a.join(&run, &v);
      }
      gpu::sync_warp();
      for (unsigned j = 0; j < items; ++j) {
        const unsigned q = j * W + lane;
        if (seg + q < hi) {
          V u = gpu::shared_load(stage + Shape::padded(q));
          call(seg + q, u, true);
        }
      }
    }
  }

  /// Warp 0: publishes the tile's aggregate, finds its exclusive prefix, publishes the inclusive prefix and
  /// leaves the exclusive one in *out (shared memory).
  WEFT_DEVICE void look_back(unsigned tile, const V& aggregate, V* out) const {
    const unsigned lane = gpu::lane_id(), W = gpu::warp_size;
    V exclusive;
    a.init(&exclusive);
    if (tile > 0) {
      if (lane == 0) {
        aggregates[tile] = aggregate;
        gpu::store_flag(&flags[tile], scan_flag_aggregate);
      }
      // Windows of W predecessors, lane W-1 the nearest; indices below 0 count as an empty inclusive prefix.
      std::int64_t end = tile;
      while (true) {
        const std::int64_t pred = end - W + lane;
        unsigned s;
        do {
          s = pred < 0 ? scan_flag_prefix : gpu::load_flag(&flags[pred]);
        } while (gpu::any(s == scan_flag_none));
        gpu::acquire_fence();
        const gpu::lane_mask_t with_prefix = gpu::ballot(s == scan_flag_prefix);
        int nearest = -1;  // the highest lane that holds an inclusive prefix
        for (unsigned k = 0; k < W; ++k)
          if ((with_prefix >> k) & 1u) nearest = int(k);
        V v;
        a.init(&v);
        if (pred >= 0 && int(lane) >= nearest)
          v = s == scan_flag_prefix ? gpu::load_coherent(&prefixes[pred]) : gpu::load_coherent(&aggregates[pred]);
        // A scan, not warp_reduce: its tree joins lane l with lane l + 16 first, which needs a commutative join.
        V window = gpu::shfl(gpu::warp_inclusive_scan(a, v), int(W) - 1);
        a.join(&window, &exclusive);
        exclusive = window;
        if (nearest >= 0) break;
        end -= W;
      }
    }
    if (lane == 0) {
      V inclusive = exclusive;
      a.join(&inclusive, &aggregate);
      prefixes[tile] = inclusive;
      gpu::store_flag(&flags[tile], scan_flag_prefix);
      if (std::int64_t(tile + 1) * Shape::tile >= n) *total = inclusive;
      gpu::shared_store(out, exclusive);
    }
  }
};

template <class F, class Adaptor, class Policy, class E>
requires GpuEngineSpace<E>
class ParallelScan<F, Adaptor, Policy, E> {
  using Vendor = typename E::impl_vendor;
  using V = typename Adaptor::value_type;
  using Shape = GpuScanShape<V>;

 public:
  ParallelScan(std::string_view label, const F& f, const Adaptor& a, const Policy& p)
      : label_(label), f_(f), a_(a), p_(p) {}

  void execute() const {
    static_assert(!Adaptor::is_array, "weft::parallel_scan: array value types are not supported");
    const std::int64_t n = static_cast<std::int64_t>(p_.end()) - static_cast<std::int64_t>(p_.begin());
    V* direct = nullptr;
    if constexpr (requires { a_.template direct_target<E>(); }) direct = a_.template direct_target<E>();
    if (n <= 0) {
      V init;
      a_.init(&init);
      a_.store(&init);
      return;
    }
    const std::int64_t tiles = (n + Shape::tile - 1) / Shape::tile;
    if (tiles > std::int64_t(0x7fffffff))
      throw Error("weft::parallel_scan \"" + label_ + "\": " + std::to_string(n) +
                  " indices need more than 2^31 - 1 tiles of " + std::to_string(Shape::tile) +
                  "; split the range into several scans");
    // One device buffer: [tile counter + flags (zeroed on the stream) | aggregates | inclusive prefixes].
    const std::size_t flag_bytes = round_up<std::size_t>(sizeof(unsigned) * (std::size_t(tiles) + 1), 64);
    const std::size_t value_bytes = round_up<std::size_t>(sizeof(V) * std::size_t(tiles), 64);
    const std::size_t bytes = flag_bytes + 2 * value_bytes;
    const GpuResultBuffers<Vendor, V, E> buffers(p_.space(), bytes, direct ? 0 : 1);
    char* buf = buffers.scratch();
    V* host_out = buffers.host();
    Vendor::memset(p_.space(), buf, 0, flag_bytes);
    using K = GpuScanKernel<F, Adaptor, Policy>;
    const K k{f_,
              a_,
              p_.begin(),
              n,
              reinterpret_cast<unsigned*>(buf),
              reinterpret_cast<unsigned*>(buf) + 1,
              reinterpret_cast<V*>(buf + flag_bytes),
              reinterpret_cast<V*>(buf + flag_bytes + value_bytes),
              direct ? direct : host_out};
    GpuLaunchShape s;
    s.grid = {static_cast<unsigned>(tiles), 1, 1};
    s.block = {Shape::threads, 1, 1};
    s.shared_bytes = Shape::shared_bytes;
    Vendor::template launch<launch_bounds_of_t<Policy>>(p_.space(), label_.c_str(), s, k);
    if (host_out) Vendor::deliver(p_.space(), a_, host_out, 1);
  }

 private:
  std::string label_;
  const F& f_;
  Adaptor a_;
  Policy p_;
};

}  // namespace weft::impl
