// The caching allocator of the device memory spaces (see pool.hpp).
#include <bit>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <weft/gpu/pool.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/impl/settings.hpp>

namespace weft::impl {

struct CachingPool::State {
  struct Block {
    void* p;
    void* stream;  // the stream that freed it, stream-ordered (with `event`), or null
    void* event;   // completes when the work queued on `stream` before the free has finished
  };
  std::mutex mutex;
  std::multimap<std::size_t, Block> free_blocks;
  PoolStats stats;
};

namespace {
/// The power of two >= bytes, at least 256; callers pass bytes <= max_bytes (2^63 - 1), whose class fits.
std::size_t size_class(std::size_t bytes) { return bytes <= 256 ? 256 : std::bit_ceil(bytes); }
}  // namespace

CachingPool::CachingPool(const char*, RawAlloc alloc, RawFree free, BeforeCache before_cache,
                         const StreamEvents* events)
    : s_(new State), alloc_(alloc), free_(free), before_cache_(before_cache), events_(events) {
  enabled_ = env_choice("WEFT_ALLOCATOR", 0) == 0;  // pool, direct
}

// The cached blocks go back; the state (a mutex, an empty map, the counters) is never freed. The runtime's pools are
// function-local statics, destroyed at exit in the reverse order of their construction, so weft::finalize called from
// an atexit handler registered before the first device allocation (CloverLeaf's Kokkos model registers
// Kokkos::finalize so) runs after this destructor: its trim() must find an empty pool, not freed memory (it hung on
// the freed mutex; tests/gpu/finalize_at_exit.cpp).
CachingPool::~CachingPool() { trim(); }

void* CachingPool::allocate(std::size_t bytes) { return allocate_on(bytes, nullptr); }

/// A cached block of class c for work on `stream`: one without a pending free first, then one freed on the same
/// stream (ordered by the stream), then one whose free has completed; else the oldest, after waiting for it.
void* CachingPool::take(std::size_t c, void* stream, bool stream_known) {
  void* wait_for = nullptr;
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> g(s_->mutex);
    auto [first, last] = s_->free_blocks.equal_range(c);
    if (first == last) return nullptr;
    auto pick = last;
    for (auto it = first; it != last && pick == last; ++it)
      if (!it->second.event || (stream_known && it->second.stream == stream)) pick = it;
    for (auto it = first; it != last && pick == last; ++it)
      if (events_->done(it->second.event)) pick = it;
    if (pick == last) {
      pick = first;
      wait_for = pick->second.event;
    } else if (pick->second.event) {
      events_->destroy(pick->second.event);
    }
    p = pick->second.p;
    s_->free_blocks.erase(pick);
    s_->stats.cached -= c;
    s_->stats.in_use += c;
    if (s_->stats.in_use > s_->stats.high_water) s_->stats.high_water = s_->stats.in_use;
    ++s_->stats.hits;
  }
  if (wait_for) {
    events_->wait(wait_for);
    events_->destroy(wait_for);
  }
  return p;
}

void* CachingPool::allocate_on(std::size_t bytes, void* stream) {
  if (bytes > max_bytes) return nullptr;  // no device can hold it: the caller's out-of-memory error names it
  if (!enabled_) return alloc_(bytes);
  const std::size_t c = size_class(bytes);
  if (void* p = take(c, stream, stream != nullptr)) return p;
  void* p = alloc_(c);
  if (!p) {
    trim();  // give the cache back and try once more before failing
    p = alloc_(c);
  }
  if (p) {
    std::lock_guard<std::mutex> g(s_->mutex);
    s_->stats.in_use += c;
    if (s_->stats.in_use > s_->stats.high_water) s_->stats.high_water = s_->stats.in_use;
    ++s_->stats.misses;
  }
  return p;
}

void CachingPool::deallocate(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (!enabled_) {
    free_(p);  // cudaFree/hipFree wait for the device themselves
    return;
  }
  if (before_cache_) before_cache_();
  const std::size_t c = size_class(bytes);
  std::lock_guard<std::mutex> g(s_->mutex);
  s_->free_blocks.emplace(c, State::Block{p, nullptr, nullptr});
  s_->stats.in_use -= c;
  s_->stats.cached += c;
}

void CachingPool::deallocate_on(void* p, std::size_t bytes, void* stream) noexcept {
  if (!p) return;
  if (!enabled_ || !events_) {
    deallocate(p, bytes);
    return;
  }
  void* event = events_->record(stream);
  if (!event) {  // the runtime could not record one: the device-wide rule
    deallocate(p, bytes);
    return;
  }
  const std::size_t c = size_class(bytes);
  std::lock_guard<std::mutex> g(s_->mutex);
  s_->free_blocks.emplace(c, State::Block{p, stream, event});
  s_->stats.in_use -= c;
  s_->stats.cached += c;
}

void CachingPool::trim() noexcept {
  std::lock_guard<std::mutex> g(s_->mutex);
  for (auto& [c, b] : s_->free_blocks) {
    if (b.event) {
      events_->wait(b.event);
      events_->destroy(b.event);
    }
    free_(b.p);
  }
  s_->free_blocks.clear();
  s_->stats.cached = 0;
}

PoolStats CachingPool::stats() const noexcept {
  std::lock_guard<std::mutex> g(s_->mutex);
  return s_->stats;
}

}  // namespace weft::impl
