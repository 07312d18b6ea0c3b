// The block every host execution space shares (Serial, OpenMP): the Kokkos typedefs, the instance handle,
// fence with its tools scope and counter, instance ids and comparison.
#pragma once

#include <weft/impl/backend_registry.hpp>
#include <weft/impl/tools.hpp>

#include <cstdint>
#include <string_view>

#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft::impl {

template <class Derived>
class HostExecution {
 public:
  using execution_space = Derived;
  using memory_space = HostSpace;
  using device_type = Device<Derived, HostSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutRight;
  using scratch_memory_space = ScratchMemorySpace<Derived>;
  static constexpr bool impl_is_host_space = true;

  /// A host dispatch has completed when it returns: a fence on an instance only orders memory.
  void fence(std::string_view label = {}) const {
    tools::FenceScope profile(label, impl_instance_id());
    count_instance_fence();
    if (h_.get()) host_instance_fence(h_.get());
  }
  std::uint32_t impl_instance_id() const { return h_.get() ? h_.get()->id : 0; }
  /// The calling thread's index in the host parallel region it runs in (0 outside one), below the space's
  /// concurrency(): for per-thread slots (Kokkos's impl_hardware_thread_id).
  static int impl_hardware_thread_id() { return t_in_host_parallel ? t_host_thread_index : 0; }
  HostInstance* impl_instance() const { return h_.get(); }
  /// This backend's settings (Kokkos's member form; weft::print_configuration prints every backend).
  void print_configuration(std::ostream& os, bool /*verbose*/ = false) const {
    print_backend_configuration(Derived::name(), os);
  }
  friend bool operator==(const HostExecution& a, const HostExecution& b) { return a.h_.get() == b.h_.get(); }

 protected:
  /// Shares `instance` (a space's default instance).
  explicit HostExecution(HostInstance* instance) : h_(instance) {}
  /// A space object on a fresh instance (one reference, which the object takes over).
  static Derived adopt(HostInstance* fresh) {
    Derived d;
    static_cast<HostExecution&>(d).h_ = HostInstanceHandle(fresh);
    host_instance_release(fresh);
    return d;
  }
  HostInstanceHandle h_;
};

}  // namespace weft::impl
