// How the GPU backends map a policy onto a grid: GpuWork<Policy> gives the launch shape and, on the
// device, walks the calling thread's share of the work (grid-stride for ranges and flattened MDRanges).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <weft/gpu/intrinsics.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>

namespace weft::impl {

template <class E>
concept GpuEngineSpace = requires {
  typename E::impl_vendor;
};

struct GpuLaunchShape {
  gpu::dim3_t grid{1, 1, 1};
  gpu::dim3_t block{1, 1, 1};
  std::size_t shared_bytes = 0;
  unsigned threads() const { return block.x * block.y * block.z; }
  unsigned blocks() const { return grid.x * grid.y * grid.z; }
};

/// Owns the level-1 team scratch of one dispatch (none for other policies), freed stream-ordered on the
/// dispatch's instance.
template <class Vendor, class E>
class GpuLevel1ScratchGuard {
 public:
  template <class Work>
  GpuLevel1ScratchGuard(const E& exec, Work& work, unsigned blocks)
      : exec_(exec), bytes_(work.level1_bytes_per_block() * blocks) {
    if (bytes_) {
      p_ = static_cast<char*>(Vendor::scratch_allocate(exec_, bytes_));
      work.set_level1(p_);
    }
  }
  ~GpuLevel1ScratchGuard() {
    if (p_) Vendor::scratch_free(exec_, p_, bytes_);
  }
  GpuLevel1ScratchGuard(const GpuLevel1ScratchGuard&) = delete;
  GpuLevel1ScratchGuard& operator=(const GpuLevel1ScratchGuard&) = delete;

 private:
  E exec_;
  std::size_t bytes_;
  char* p_ = nullptr;
};

/// The device scratch and the host result (pinned on a GPU; none when `host_values` is 0) of one reduction or
/// scan, freed however the call ends. Both go back to their pools stream-ordered on the dispatch's instance (an
/// event, no device-wide wait), so a reduction into a View only enqueues whatever other streams exist.
template <class Vendor, class V, class E>
class GpuResultBuffers {
 public:
  GpuResultBuffers(const E& exec, std::size_t scratch_bytes, std::size_t host_values)
      : exec_(exec), bytes_(scratch_bytes), host_bytes_(sizeof(V) * host_values) {
    scratch_ = static_cast<char*>(Vendor::scratch_allocate(exec_, bytes_));
    if (host_values == 0) return;
    try {
      host_ = static_cast<V*>(Vendor::host_result_allocate(host_bytes_));
    } catch (...) {
      Vendor::scratch_free(exec_, scratch_, bytes_);
      throw;
    }
  }
  GpuResultBuffers(const GpuResultBuffers&) = delete;
  GpuResultBuffers& operator=(const GpuResultBuffers&) = delete;
  ~GpuResultBuffers() {
    if (host_) Vendor::host_result_free(exec_, host_, host_bytes_);
    Vendor::scratch_free(exec_, scratch_, bytes_);
  }
  char* scratch() const { return scratch_; }
  V* host() const { return host_; }

 private:
  E exec_;
  std::size_t bytes_, host_bytes_;
  char* scratch_ = nullptr;
  V* host_ = nullptr;
};

/// Blocks of 256 threads (fewer under a policy's LaunchBounds: `max_threads`, rounded down to whole warps),
/// enough of them to fill the device (a few per multiprocessor), fewer for small n.
template <class Vendor>
GpuLaunchShape range_shape(std::int64_t n, unsigned max_threads = 0) {
  GpuLaunchShape s;
  unsigned b = 256;
  if (max_threads > 0 && max_threads < b) b = max_threads >= 32 ? max_threads / 32 * 32 : max_threads;
  s.block = {b, 1, 1};
  const std::int64_t want = (n + b - 1) / b;
  const std::int64_t cap =
      static_cast<std::int64_t>(Vendor::multiprocessor_count()) * Vendor::blocks_per_multiprocessor;
  s.grid = {static_cast<unsigned>(want < 1 ? 1 : (want < cap ? want : cap)), 1, 1};
  return s;
}

template <class Policy>
class GpuWork;

template <class... P>
class GpuWork<RangePolicy<P...>> {
  using Policy = RangePolicy<P...>;
  using I = typename Policy::index_type;

 public:
  GpuWork(std::string_view, const Policy& p) : b_(p.begin()), e_(p.end()) {}
  template <class Vendor>
  GpuLaunchShape shape() const {
    return range_shape<Vendor>(static_cast<std::int64_t>(e_ - b_), launch_bounds_of_t<Policy>::max_threads);
  }
  template <class Item>
  WEFT_DEVICE void run(const Item& item) const {
    const std::int64_t stride = std::int64_t(gpu::grid_dim().x) * gpu::block_dim().x;
    for (std::int64_t i = std::int64_t(gpu::block_idx().x) * gpu::block_dim().x + gpu::thread_idx().x;
         i < static_cast<std::int64_t>(e_ - b_); i += stride)
      item(static_cast<I>(b_ + i));
  }
  I begin() const { return b_; }
  I end() const { return e_; }
  std::size_t shared_end() const { return 0; }
  std::size_t level1_bytes_per_block() const { return 0; }
  void set_level1(char*) {}

 private:
  I b_, e_;
};

/// MDRange: with tile sizes given by the caller, one tile per block (blocks walk the tiles grid-stride; a
/// block's threads walk its tile in the policy's inner order, so consecutive threads take consecutive
/// inner indices); with default tiles, the whole range flattened and walked grid-stride.
template <class... P>
class GpuWork<MDRangePolicy<P...>> {
  using Policy = MDRangePolicy<P...>;
  using I = typename Policy::index_type;
  static constexpr int N = Policy::rank;

 public:
  GpuWork(std::string_view, const Policy& p) : tiled_(p.impl_user_tiles()) {
    total_ = 1;
    for (int k = 0; k < N; ++k) {
      lo_[k] = p.lower(k);
      ext_[k] = p.upper(k) - p.lower(k);
      total_ *= ext_[k];
      tile_[k] = p.tile(k);
      ntiles_[k] = ext_[k] > 0 ? p.tiles_in(k) : 0;
      tile_elems_ *= tile_[k];
      num_tiles_ *= ntiles_[k];
    }
  }
  template <class Vendor>
  GpuLaunchShape shape() const {
    constexpr unsigned max_threads = launch_bounds_of_t<MDRangePolicy<P...>>::max_threads;
    if (!tiled_ || total_ == 0) return range_shape<Vendor>(total_, max_threads);
    GpuLaunchShape s;
    const std::int64_t warps = (tile_elems_ + gpu::warp_size - 1) / gpu::warp_size;
    std::int64_t threads = warps * gpu::warp_size < 256 ? warps * gpu::warp_size : 256;
    if (max_threads > 0 && threads > std::int64_t(max_threads))
      threads = max_threads >= 32 ? max_threads / 32 * 32 : max_threads;
    s.block = {static_cast<unsigned>(threads), 1, 1};
    const std::int64_t cap =
        static_cast<std::int64_t>(Vendor::multiprocessor_count()) * Vendor::blocks_per_multiprocessor * 4;
    s.grid = {static_cast<unsigned>(num_tiles_ < cap ? num_tiles_ : cap), 1, 1};
    return s;
  }
  std::size_t shared_end() const { return 0; }
  std::size_t level1_bytes_per_block() const { return 0; }
  void set_level1(char*) {}

  template <class Item>
  WEFT_DEVICE void run(const Item& item) const {
    if (tiled_) {
      run_tiles(item);
      return;
    }
    const std::int64_t stride = std::int64_t(gpu::grid_dim().x) * gpu::block_dim().x;
    for (std::int64_t f = std::int64_t(gpu::block_idx().x) * gpu::block_dim().x + gpu::thread_idx().x; f < total_;
         f += stride) {
      I idx[N];
      split(f, ext_, Policy::iterate_right, idx, lo_);
      call(idx, item, std::make_index_sequence<N>{});
    }
  }

 private:
  /// Writes the N coordinates of flat index f over extents ext (last dimension fastest when right) plus base.
  WEFT_DEVICE static void split(std::int64_t f, const std::int64_t* ext, bool right, I* idx, const std::int64_t* base) {
    if (right) {
      for (int k = N - 1; k >= 0; --k) {
        idx[k] = static_cast<I>(base[k] + f % ext[k]);
        f /= ext[k];
      }
    } else {
      for (int k = 0; k < N; ++k) {
        idx[k] = static_cast<I>(base[k] + f % ext[k]);
        f /= ext[k];
      }
    }
  }
  template <class Item>
  WEFT_DEVICE void run_tiles(const Item& item) const {
    for (std::int64_t t = gpu::block_idx().x; t < num_tiles_; t += gpu::grid_dim().x) {
      std::int64_t origin[N];
      {
        I tc[N];
        const std::int64_t zero[N] = {};
        split(t, ntiles_, Policy::tiles_right, tc, zero);
        for (int k = 0; k < N; ++k) origin[k] = lo_[k] + std::int64_t(tc[k]) * tile_[k];
      }
      for (std::int64_t e = gpu::thread_idx().x; e < tile_elems_; e += gpu::block_dim().x) {
        I idx[N];
        split(e, tile_, Policy::iterate_right, idx, origin);
        bool inside = true;
        for (int k = 0; k < N; ++k) inside = inside && std::int64_t(idx[k]) < lo_[k] + ext_[k];
        if (inside) call(idx, item, std::make_index_sequence<N>{});
      }
    }
  }
  template <class Item, std::size_t... K>
  WEFT_DEVICE static void call(const I* idx, const Item& item, std::index_sequence<K...>) {
    item(idx[K]...);
  }
  std::int64_t lo_[N];
  std::int64_t ext_[N];
  std::int64_t tile_[N];
  std::int64_t ntiles_[N];
  std::int64_t total_ = 1;
  std::int64_t tile_elems_ = 1;
  std::int64_t num_tiles_ = 1;
  bool tiled_;
};

}  // namespace weft::impl
