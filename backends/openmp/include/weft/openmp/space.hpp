// weft::OpenMP: the execution space that runs patterns on an OpenMP thread team.
#pragma once

#include <weft/impl/tools.hpp>

#include <omp.h>

#include <type_traits>

#include <weft/host/execution.hpp>
#include <weft/host/region.hpp>

namespace weft {

namespace impl {
extern HostInstance* g_openmp_default_instance;
}

class OpenMP : public impl::HostExecution<OpenMP> {
 public:
  /// The default instance (all threads given at initialize).
  OpenMP() : HostExecution(impl::g_openmp_default_instance) {}
  /// A new instance that runs on `nthreads` threads (see partition_space); its fence orders only memory, as
  /// every host fence.
  static OpenMP impl_create_instance(int nthreads) { return adopt(impl::host_instance_create("OpenMP", nthreads)); }

  static constexpr const char* name() { return "OpenMP"; }
  int concurrency() const { return h_.get() ? h_.get()->nthreads : omp_get_max_threads(); }
  static bool in_parallel() { return impl::t_in_host_parallel || omp_in_parallel(); }
  int impl_thread_count() const { return h_.get()->nthreads; }
};

namespace impl {
template <class E>
struct HostThreading;
/// Runs share(f, tid, n) on each of nthreads threads of one `omp parallel` region, or inline in the calling
/// thread (tid 0 of 1) for one thread or a dispatch nested inside a kernel; a functor's exception is caught on its
/// thread and rethrown in the caller (weft/host/region.hpp). Compiled once, in the library
/// (backends/openmp/src/openmp.cpp): a kernel's own code is only its loop (`share`), not a region of its own.
void openmp_parallel(int nthreads, void (*share)(void*, int, int), void* f);

/// How the host engine runs a parallel region on OpenMP: one `omp parallel` per dispatch (openmp_parallel).
template <>
struct HostThreading<OpenMP> {
  /// One thread's share of a region: the kernel's loop, compiled once.
  template <class F>
  static void share(void* f, int tid, int n) {
    (*static_cast<F*>(f))(tid, n);
  }
  template <class F>
  static void parallel(int nthreads, F&& f) {
    using G = std::remove_reference_t<F>;
    openmp_parallel(nthreads, &share<G>, const_cast<void*>(static_cast<const void*>(&f)));
  }
  /// All n threads of the region meet; a thread that failed never arrives, so the others leave when they see
  /// the region failed (HostRegionAborted) instead of waiting for it.
  static void barrier(int nthreads) {
    HostRegion* r = t_host_region;
    if (nthreads <= 1 || !r) return;
    const int gen = r->generation.load(std::memory_order_acquire);
    if (r->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == nthreads) {
      r->arrived.store(0, std::memory_order_relaxed);
      r->generation.store(gen + 1, std::memory_order_release);
      return;
    }
    host_region_wait(r, gen);
  }
};
}  // namespace impl
}  // namespace weft
