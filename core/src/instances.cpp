// Fence counters and the global fence of host work (each backend's own instances live in backends/).
#include <weft/spaces.hpp>

#include "internal.hpp"

namespace weft::impl {
namespace {
long g_global_fences = 0;
long g_instance_fences = 0;
}  // namespace

void count_instance_fence() noexcept { __atomic_fetch_add(&g_instance_fences, 1, __ATOMIC_RELAXED); }

FenceCounters fence_counters() noexcept {
  return {__atomic_load_n(&g_global_fences, __ATOMIC_RELAXED), __atomic_load_n(&g_instance_fences, __ATOMIC_RELAXED)};
}

/// Every host dispatch has completed when it returns, so a global fence only orders memory; backends with
/// queued work (the GPU backends) have waited for it through their registry entry before this runs.
void fence_all_instances() {
  __atomic_fetch_add(&g_global_fences, 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
}  // namespace weft::impl
