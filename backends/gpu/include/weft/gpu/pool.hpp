// The caching allocator of the device memory spaces: freed blocks are kept by size class and handed out
// again, so allocating and freeing a View in a loop costs a lookup, not a cudaMalloc/cudaFree pair.
// WEFT_ALLOCATOR=direct turns it off; print_configuration and finalize report the high-water mark.
#pragma once

#include <cstddef>

namespace weft::impl {

struct PoolStats {
  std::size_t in_use = 0;      // bytes handed out now
  std::size_t cached = 0;      // bytes kept for reuse
  std::size_t high_water = 0;  // most bytes in use at once
  std::size_t hits = 0;        // allocations served from the cache
  std::size_t misses = 0;      // allocations that went to the device allocator
};

class CachingPool {
 public:
  using RawAlloc = void* (*)(std::size_t);
  using RawFree = void (*)(void*);
  /// Called before a freed block enters the cache: a block may only be handed out again once no queued work
  /// can still touch it. Work on one stream is ordered by the stream, so the GPU runtimes' hook does nothing
  /// until a second stream exists, and from then on waits for the device (as Kokkos does on every free).
  using BeforeCache = void (*)();
  /// Events of the vendor runtime, for stream-ordered frees: `record` records one on a stream, `done` queries
  /// it without waiting, `wait` waits for it; `destroy` releases it.
  struct StreamEvents {
    void* (*record)(void* stream);
    bool (*done)(void* event);
    void (*wait)(void* event);
    void (*destroy)(void* event);
  };
  CachingPool(const char* space, RawAlloc alloc, RawFree free, BeforeCache before_cache = nullptr,
              const StreamEvents* events = nullptr);
  ~CachingPool();
  CachingPool(const CachingPool&) = delete;
  CachingPool& operator=(const CachingPool&) = delete;
  /// Blocks are rounded up to a power of two (at least 256 bytes) so that they can be reused.
  void* allocate(std::size_t bytes);
  void deallocate(void* p, std::size_t bytes) noexcept;
  /// Stream-ordered: a block `stream` used. It may be handed out at once to later work on the same stream
  /// (`allocate_on`), and to anyone else once the work queued on `stream` before the free has finished (an
  /// event; the allocation waits for that event only if it must) — no device-wide wait.
  void* allocate_on(std::size_t bytes, void* stream);
  void deallocate_on(void* p, std::size_t bytes, void* stream) noexcept;
  /// Returns every cached block to the device allocator.
  void trim() noexcept;
  PoolStats stats() const noexcept;
  bool enabled() const noexcept { return enabled_; }

 private:
  struct State;
  State* s_;
  RawAlloc alloc_;
  RawFree free_;
  BeforeCache before_cache_;
  const StreamEvents* events_;
  bool enabled_;
  void* take(std::size_t c, void* stream, bool stream_known);
};

}  // namespace weft::impl
