// Host execution-space instances: reference counts, the lock that orders work on an instance, the
// registry that global fences walk, and the team barrier.
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include <weft/atomics.hpp>
#include <weft/host/barrier.hpp>
#include <weft/spaces.hpp>

namespace weft::impl {
namespace {
std::mutex g_instances_mutex;
std::vector<HostInstance*>& instances() {
  static std::vector<HostInstance*> v;
  return v;
}
std::uint32_t g_next_id = 1;
long g_global_fences = 0;
long g_instance_fences = 0;
}  // namespace

HostInstance* host_instance_create(const char* space_name, int nthreads) {
  auto* p = new HostInstance{1, 0, nthreads > 0 ? nthreads : 1, space_name, nullptr, 0, 0, false};
  std::lock_guard<std::mutex> g(g_instances_mutex);
  p->id = g_next_id++;
  instances().push_back(p);
  return p;
}

void host_instance_release(HostInstance* p) noexcept {
  if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
  {
    std::lock_guard<std::mutex> g(g_instances_mutex);
    auto& v = instances();
    v.erase(std::remove(v.begin(), v.end(), p), v.end());
  }
  std::free(p->scratch);
  delete p;
}

void host_instance_lock_slow(HostInstance* p) noexcept {
  for (int spin = 0; __atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE); ++spin) {
    if (spin < 1000)
      cpu_relax();
    else
      sched_yield();
  }
}

HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads) {
  if (!slot) {
    slot = host_instance_create(space_name, nthreads);
    slot->is_default = true;
  }
  slot->nthreads = nthreads > 0 ? nthreads : 1;
  return slot;
}

void* host_instance_scratch(HostInstance* p, std::size_t bytes) {
  if (bytes > p->scratch_bytes) {
    std::free(p->scratch);
    p->scratch = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p->scratch) throw_error("weft: allocating " + std::to_string(bytes) + " bytes of instance scratch failed");
    p->scratch_bytes = bytes;
  }
  return p->scratch;
}

void host_instance_fence(HostInstance* p) noexcept {
  if (t_in_host_parallel) return;  // a fence inside a kernel has nothing to wait for
  host_instance_lock(p);
  host_instance_unlock(p);
}

void count_instance_fence() noexcept { __atomic_fetch_add(&g_instance_fences, 1, __ATOMIC_RELAXED); }

FenceCounters fence_counters() noexcept {
  return {__atomic_load_n(&g_global_fences, __ATOMIC_RELAXED), __atomic_load_n(&g_instance_fences, __ATOMIC_RELAXED)};
}

void fence_all_instances() {
  __atomic_fetch_add(&g_global_fences, 1, __ATOMIC_RELAXED);
  if (t_in_host_parallel) return;
  std::vector<HostInstance*> snapshot;
  {
    std::lock_guard<std::mutex> g(g_instances_mutex);
    snapshot = instances();
    for (auto* p : snapshot) __atomic_fetch_add(&p->refcount, 1, __ATOMIC_RELAXED);
  }
  for (auto* p : snapshot) {
    host_instance_lock(p);
    host_instance_unlock(p);
    host_instance_release(p);
  }
}

void host_team_barrier_wait(HostTeamBarrier* b, int team_size) noexcept {
  const int gen = __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == team_size) {
    __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->generation, gen + 1, __ATOMIC_RELEASE);
    return;
  }
  for (int spin = 0; __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE) == gen; ++spin) {
    if (spin < 2000)
      cpu_relax();
    else
      sched_yield();  // more threads than cores: let the others arrive
  }
}

}  // namespace weft::impl
