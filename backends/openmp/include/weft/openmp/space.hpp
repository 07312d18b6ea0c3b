// weft::OpenMP: the execution space that runs patterns on an OpenMP thread team.
#pragma once

#include <string>

#include <weft/impl/tools.hpp>

#include <omp.h>

#include <type_traits>

#include <weft/error.hpp>
#include <weft/host/execution.hpp>
#include <weft/host/region.hpp>

#if defined(_LIBGOMP_OMP_LOCK_DEFINED)
// libgomp's entry point for a parallel region: what g++ compiles `#pragma omp parallel num_threads(n)` into (flags 0:
// no proc_bind clause). Called by name for work that carries its region's address (below).
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);
#define WEFT_OPENMP_GOMP_PARALLEL 1
#endif

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
  /// OpenMP(n): a new instance of n threads, as Kokkos spells it (n < 1 raises weft::Error).
  explicit OpenMP(int nthreads) : OpenMP(impl_create_instance(positive_threads(nthreads))) {}

  static constexpr const char* name() { return "OpenMP"; }
  int concurrency() const { return h_.get() ? h_.get()->nthreads : omp_get_max_threads(); }
  static bool in_parallel() { return impl::t_in_host_parallel || omp_in_parallel(); }
  int impl_thread_count() const { return h_.get()->nthreads; }

 private:
  static int positive_threads(int n) {
    if (n < 1)
      throw Error("weft::OpenMP(" + std::to_string(n) + "): a new instance needs at least one thread; give n >= 1");
    return n;
  }
};

namespace impl {
template <class E>
struct HostThreading;
/// How the host engine runs a parallel region on OpenMP: one `omp parallel` per dispatch; a dispatch
/// nested inside a kernel runs inline in the calling thread. A functor's exception is caught on its thread and
/// rethrown in the caller (weft/host/region.hpp).
template <>
struct HostThreading<OpenMP> {
  /// One thread's share of a region: out of line, so that the inline path (one thread, or nested) and the
  /// `omp parallel` region call one copy of the kernel's loop instead of compiling it twice.
  template <class F>
  [[gnu::noinline]] static void share(F& f, int tid, int n) {
    f(tid, n);
  }
  /// One thread of a region: a functor's exception is recorded in the region (the first one wins).
  template <class F>
  static void region_thread(F& f, HostRegion& region) {
    const int tid = omp_get_thread_num();
    HostParallelScope scope(tid);
    try {
      share(f, tid, omp_get_num_threads());
    } catch (const HostRegionAborted&) {
      // another thread failed while this one waited for it
    } catch (...) {
      region.fail(std::current_exception());
    }
  }
  /// A thread of a region whose data is the work itself. The work has no barrier (a static range), so its threads
  /// need no t_host_region; the region's address is read only when the functor throws.
  template <class W>
  static void region_data_thread(void* data) {
    W& w = *static_cast<W*>(data);
    const int tid = omp_get_thread_num();
    HostParallelScope scope(tid);
    try {
      share(w, tid, omp_get_num_threads());
    } catch (...) {
      w.region->fail(std::current_exception());
    }
  }
  template <class F>
  static void parallel(int nthreads, F&& f) {
    if (nthreads <= 1 || t_in_host_parallel) {
      HostParallelScope scope;
      share(f, 0, 1);
      return;
    }
    HostRegion region;
#ifdef WEFT_OPENMP_GOMP_PARALLEL
    if constexpr (requires { f.region = &region; }) {
      // The work (a packed range) is the region's data itself: a thread's first loads are the range and the functor,
      // not a pointer to them in a block of shared variables, which the calling thread has also just written (one
      // cache-line transfer less per launch; perf/results/2026-12-07-launch-indirection.md).
      f.region = &region;
      GOMP_parallel(&region_data_thread<std::remove_reference_t<F>>, &f, static_cast<unsigned>(nthreads), 0);
    } else
#endif
    {
#pragma omp parallel num_threads(nthreads)
      {
        HostRegion* const saved = t_host_region;
        t_host_region = &region;
        region_thread(f, region);
        t_host_region = saved;
      }
    }
    if (region.error) std::rethrow_exception(region.error);
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
