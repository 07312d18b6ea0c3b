// weft::OpenMP: the execution space that runs patterns on an OpenMP thread team.
#pragma once

#include <weft/impl/tools.hpp>

#include <omp.h>

#include <weft/host/execution.hpp>

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
/// How the host engine runs a parallel region on OpenMP: one `omp parallel` per dispatch; a dispatch
/// nested inside a kernel runs inline in the calling thread.
template <>
struct HostThreading<OpenMP> {
  template <class F>
  static void parallel(int nthreads, F&& f) {
    if (nthreads <= 1 || t_in_host_parallel) {
      HostParallelScope scope;
      f(0, 1);
      return;
    }
#pragma omp parallel num_threads(nthreads)
    {
      HostParallelScope scope;
      f(omp_get_thread_num(), omp_get_num_threads());
    }
  }
  static void barrier(int nthreads) {
    if (nthreads > 1) {
#pragma omp barrier
    }
  }
};
}  // namespace impl
}  // namespace weft
