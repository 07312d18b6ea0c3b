// What the host backends (Serial, OpenMP) share at run time: instances with reference counts and ids, and the
// spin-then-yield barrier of a host team.
#include <sched.h>

#include <weft/atomics.hpp>
#include <weft/host/barrier.hpp>
#include <weft/host/instances.hpp>
#include <weft/host/region.hpp>
#include <weft/spaces.hpp>

namespace weft::impl {
namespace {
std::uint32_t g_next_id = 1;
/// Spins until done(), yielding after the first 2000 tries (the awaited thread may need this core).
template <class Done>
void spin_until(const Done& done) {
  for (int spin = 0; !done(); ++spin) {
    if (spin < 2000)
      cpu_relax();
    else
      sched_yield();
  }
}
}  // namespace

HostInstance* host_instance_create(const char* space_name, int nthreads) {
  const std::uint32_t id = __atomic_fetch_add(&g_next_id, 1u, __ATOMIC_RELAXED);
  return new HostInstance{1, id, nthreads > 0 ? nthreads : 1, space_name, false};
}

void host_instance_wait_turn(HostInstance* p, std::uintptr_t self) noexcept {
  spin_until([&] {
    std::uintptr_t free = 0;
    return __atomic_load_n(&p->busy, __ATOMIC_RELAXED) == 0 &&
           __atomic_compare_exchange_n(&p->busy, &free, self, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
  });
}

void host_instance_fence(HostInstance* p) noexcept {
  if (!t_in_host_parallel) {
    const std::uintptr_t self = host_turn_token();
    spin_until([&] {
      const std::uintptr_t b = __atomic_load_n(&p->busy, __ATOMIC_ACQUIRE);
      return b == 0 || b == self;
    });
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void host_instance_release(HostInstance* p) noexcept {
  if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) == 0) delete p;
}

HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads) {
  if (!slot) {
    slot = host_instance_create(space_name, nthreads);
    slot->is_default = true;
  }
  slot->nthreads = nthreads > 0 ? nthreads : 1;
  return slot;
}

void host_team_barrier_wait(HostTeamBarrier* b, int team_size) {
  const int gen = __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == team_size) {
    __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->generation, gen + 1, __ATOMIC_RELEASE);
    return;
  }
  for (int spin = 0; __atomic_load_n(&b->generation, __ATOMIC_ACQUIRE) == gen; ++spin) {
    if (spin < 2000) {
      cpu_relax();
    } else {
      if (host_region_failed()) throw HostRegionAborted{};  // a teammate threw: it will not arrive
      sched_yield();                                        // more threads than cores: let the others arrive
    }
  }
}

void host_dispatch_failed(std::string_view label) {
  const auto name = [&] {
    return label.empty() ? std::string("a kernel with no label") : "kernel \"" + std::string(label) + "\"";
  };
  try {
    throw;
  } catch (const HostRegionAborted&) {
    throw;  // only a region's edge catches it
  } catch (const std::exception& e) {
    if (kokkos_error_style()) throw;  // through the Kokkos drop-in: the functor's exception itself, as Kokkos
    std::throw_with_nested(Error(name() + " threw: " + e.what()));
  } catch (...) {
    if (kokkos_error_style()) throw;
    std::throw_with_nested(Error(name() + " threw an exception that is not a std::exception"));
  }
}

void host_region_wait(HostRegion* r, int gen) {
  for (int spin = 0; r->generation.load(std::memory_order_acquire) == gen; ++spin) {
    if (spin < 2000) {
      cpu_relax();
    } else {
      if (r->failed.load(std::memory_order_acquire)) throw HostRegionAborted{};
      sched_yield();
    }
  }
}
}  // namespace weft::impl
