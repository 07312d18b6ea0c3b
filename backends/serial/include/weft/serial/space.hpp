// weft::Serial: the execution space that runs every pattern in the calling thread.
#pragma once

#include <weft/impl/tools.hpp>

#include <weft/host/execution.hpp>

namespace weft {

namespace impl {
extern HostInstance* g_serial_default_instance;
}

class Serial : public impl::HostExecution<Serial> {
 public:
  /// The default instance.
  Serial() : HostExecution(impl::g_serial_default_instance) {}
  /// A new, independent instance (its own id; its fence orders only memory, as every host fence).
  static Serial impl_create_instance(int /*nthreads*/ = 1) { return adopt(impl::host_instance_create("Serial", 1)); }
  /// Serial(NewInstance{}): the same, as Kokkos spells it.
  explicit Serial(NewInstance) : Serial(impl_create_instance()) {}

  static constexpr const char* name() { return "Serial"; }
  int concurrency() const { return 1; }
  static bool in_parallel() { return impl::t_in_host_parallel; }
  int impl_thread_count() const { return 1; }
};

namespace impl {
/// How the host engine (backends/host/) runs a parallel region on Serial: in the calling thread.
template <class E>
struct HostThreading;
template <>
struct HostThreading<Serial> {
  template <class F>
  static void parallel(int, F&& f) {
    HostParallelScope scope(0);
    f(0, 1);
  }
  static void barrier(int) {}
};
}  // namespace impl
}  // namespace weft
