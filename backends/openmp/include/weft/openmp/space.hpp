// weft::OpenMP: the execution space that runs patterns on an OpenMP thread team.
#pragma once

#include <weft/impl/tools.hpp>

#include <omp.h>

#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

namespace impl {
extern HostInstance* g_openmp_default_instance;
}

class OpenMP {
 public:
  using execution_space = OpenMP;
  using memory_space = HostSpace;
  using device_type = Device<OpenMP, HostSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutRight;
  using scratch_memory_space = ScratchMemorySpace<OpenMP>;
  static constexpr bool impl_is_host_space = true;

  /// The default instance (all threads given at initialize).
  OpenMP() : h_(impl::g_openmp_default_instance) {}
  /// A new instance with its own lock that runs on `nthreads` threads (see partition_space).
  static OpenMP impl_create_instance(int nthreads) { return OpenMP(impl::host_instance_create("OpenMP", nthreads)); }

  static constexpr const char* name() { return "OpenMP"; }
  int concurrency() const { return h_.get() ? h_.get()->nthreads : omp_get_max_threads(); }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    if (h_.get()) impl::host_instance_fence(h_.get());
  }
  static bool in_parallel() { return impl::t_in_host_parallel || omp_in_parallel(); }
  std::uint32_t impl_instance_id() const { return h_.get() ? h_.get()->id : 0; }
  impl::HostInstance* impl_instance() const { return h_.get(); }
  int impl_thread_count() const { return h_.get()->nthreads; }
  friend bool operator==(const OpenMP& a, const OpenMP& b) { return a.h_.get() == b.h_.get(); }

 private:
  explicit OpenMP(impl::HostInstance* fresh) : h_(fresh) { impl::host_instance_release(fresh); }
  impl::HostInstanceHandle h_;
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
