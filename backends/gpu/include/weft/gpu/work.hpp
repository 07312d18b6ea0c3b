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

/// Owns the level-1 team scratch of one dispatch (none for other policies).
template <class Vendor>
class GpuLevel1 {
 public:
  template <class Work>
  GpuLevel1(Work& work, unsigned blocks) : bytes_(work.level1_bytes_per_block() * blocks) {
    if (bytes_) {
      p_ = static_cast<char*>(Vendor::scratch_allocate(bytes_));
      work.set_level1(p_);
    }
  }
  ~GpuLevel1() {
    if (p_) Vendor::scratch_free(p_, bytes_);
  }
  GpuLevel1(const GpuLevel1&) = delete;
  GpuLevel1& operator=(const GpuLevel1&) = delete;

 private:
  std::size_t bytes_;
  char* p_ = nullptr;
};

/// Blocks of 256 threads, enough of them to fill the device (a few per multiprocessor), fewer for small n.
template <class Vendor>
GpuLaunchShape range_shape(std::int64_t n) {
  GpuLaunchShape s;
  s.block = {256, 1, 1};
  const std::int64_t want = (n + 255) / 256;
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
    return range_shape<Vendor>(static_cast<std::int64_t>(e_ - b_));
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

template <class... P>
class GpuWork<MDRangePolicy<P...>> {
  using Policy = MDRangePolicy<P...>;
  using I = typename Policy::index_type;
  static constexpr int N = Policy::rank;

 public:
  GpuWork(std::string_view, const Policy& p) {
    total_ = 1;
    for (int k = 0; k < N; ++k) {
      lo_[k] = p.lower(k);
      ext_[k] = p.upper(k) - p.lower(k);
      total_ *= ext_[k];
    }
  }
  template <class Vendor>
  GpuLaunchShape shape() const {
    return range_shape<Vendor>(total_);
  }
  std::size_t shared_end() const { return 0; }
  std::size_t level1_bytes_per_block() const { return 0; }
  void set_level1(char*) {}

  template <class Item>
  WEFT_DEVICE void run(const Item& item) const {
    const std::int64_t stride = std::int64_t(gpu::grid_dim().x) * gpu::block_dim().x;
    for (std::int64_t f = std::int64_t(gpu::block_idx().x) * gpu::block_dim().x + gpu::thread_idx().x; f < total_;
         f += stride) {
      I idx[N];
      std::int64_t rem = f;
      if constexpr (Policy::iterate_right) {
        for (int k = N - 1; k >= 0; --k) {
          idx[k] = static_cast<I>(lo_[k] + rem % ext_[k]);
          rem /= ext_[k];
        }
      } else {
        for (int k = 0; k < N; ++k) {
          idx[k] = static_cast<I>(lo_[k] + rem % ext_[k]);
          rem /= ext_[k];
        }
      }
      call(idx, item, std::make_index_sequence<N>{});
    }
  }

 private:
  template <class Item, std::size_t... K>
  WEFT_DEVICE static void call(const I* idx, const Item& item, std::index_sequence<K...>) {
    item(idx[K]...);
  }
  std::int64_t lo_[N];
  std::int64_t ext_[N];
  std::int64_t total_;
};

}  // namespace weft::impl
