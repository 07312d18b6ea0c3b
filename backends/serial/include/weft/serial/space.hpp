// weft::Serial: the execution space that runs every pattern in the calling thread.
#pragma once

#include <weft/impl/tools.hpp>

#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

namespace impl {
extern HostInstance* g_serial_default_instance;
}

class Serial {
 public:
  using execution_space = Serial;
  using memory_space = HostSpace;
  using device_type = Device<Serial, HostSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutRight;
  using scratch_memory_space = ScratchMemorySpace<Serial>;
  static constexpr bool impl_is_host_space = true;

  /// The default instance.
  Serial() : h_(impl::g_serial_default_instance) {}
  /// A new, independent instance (its own lock, so its fence waits only for its own work).
  static Serial impl_create_instance(int /*nthreads*/ = 1) { return Serial(impl::host_instance_create("Serial", 1)); }

  static constexpr const char* name() { return "Serial"; }
  int concurrency() const { return 1; }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    if (h_.get()) impl::host_instance_fence(h_.get());
  }
  static bool in_parallel() { return impl::t_in_host_parallel; }
  std::uint32_t impl_instance_id() const { return h_.get() ? h_.get()->id : 0; }
  impl::HostInstance* impl_instance() const { return h_.get(); }
  int impl_thread_count() const { return 1; }
  friend bool operator==(const Serial& a, const Serial& b) { return a.h_.get() == b.h_.get(); }

 private:
  explicit Serial(impl::HostInstance* fresh) : h_(fresh) { impl::host_instance_release(fresh); }
  impl::HostInstanceHandle h_;
};

namespace impl {
/// How the host engine (backends/host/) runs a parallel region on Serial: in the calling thread.
template <class E>
struct HostThreading;
template <>
struct HostThreading<Serial> {
  template <class F>
  static void parallel(int, F&& f) {
    HostParallelScope scope;
    f(0, 1);
  }
  static void barrier(int) {}
};
}  // namespace impl
}  // namespace weft
