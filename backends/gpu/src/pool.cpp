// The caching allocator of the device memory spaces (see pool.hpp).
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <weft/gpu/pool.hpp>

namespace weft::impl {

struct CachingPool::State {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free_blocks;
  PoolStats stats;
};

namespace {
std::size_t size_class(std::size_t bytes) {
  std::size_t c = 256;
  while (c < bytes) c <<= 1;
  return c;
}
}  // namespace

CachingPool::CachingPool(const char*, RawAlloc alloc, RawFree free, BeforeCache before_cache)
    : s_(new State), alloc_(alloc), free_(free), before_cache_(before_cache) {
  const char* mode = std::getenv("WEFT_ALLOCATOR");
  enabled_ = !(mode && std::string(mode) == "direct");
}

CachingPool::~CachingPool() {
  trim();
  delete s_;
}

void* CachingPool::allocate(std::size_t bytes) {
  if (!enabled_) return alloc_(bytes);
  const std::size_t c = size_class(bytes);
  {
    std::lock_guard<std::mutex> g(s_->mutex);
    auto it = s_->free_blocks.find(c);
    if (it != s_->free_blocks.end()) {
      void* p = it->second;
      s_->free_blocks.erase(it);
      s_->stats.cached -= c;
      s_->stats.in_use += c;
      if (s_->stats.in_use > s_->stats.high_water) s_->stats.high_water = s_->stats.in_use;
      ++s_->stats.hits;
      return p;
    }
  }
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
  s_->free_blocks.emplace(c, p);
  s_->stats.in_use -= c;
  s_->stats.cached += c;
}

void CachingPool::trim() noexcept {
  std::lock_guard<std::mutex> g(s_->mutex);
  for (auto& [c, p] : s_->free_blocks) free_(p);
  s_->free_blocks.clear();
  s_->stats.cached = 0;
}

PoolStats CachingPool::stats() const noexcept {
  std::lock_guard<std::mutex> g(s_->mutex);
  return s_->stats;
}

}  // namespace weft::impl
