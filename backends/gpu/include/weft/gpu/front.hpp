// The front classes of the GPU backends, written once over a backend's Api (<weft/gpu/runtime.hpp>): the
// device, pinned and managed memory spaces, the execution-space class and the parts of the vendor shim that
// do not launch. weft::Cuda, weft::HIP and weft::GpuEmu derive from them and keep only what truly differs
// (the names Kokkos gives them, how host code is kept out of device memory, how a kernel is launched).
#pragma once

#include <weft/impl/backend_registry.hpp>
#include <weft/impl/tools.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include <weft/gpu/atomics.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft::impl::gpu_rt {

/// Device memory of the current GPU (from the caching pool). Derived supplies the host-access check.
template <class Derived, class Api>
class DeviceSpace {
 public:
  using memory_space = Derived;
  using execution_space = typename Api::execution_space;
  using device_type = Device<execution_space, Derived>;
  using size_type = std::size_t;
  static constexpr bool impl_host_accessible = false;
  void* allocate(std::size_t bytes, std::string_view label = {}) const {
    return Front<Api>::allocate_device(bytes, label);
  }
  void deallocate(void* ptr, std::size_t bytes, std::string_view = {}) const { Front<Api>::free_device(ptr, bytes); }
  /// A blocking copy ordered after the default instance's earlier work (its stream, never the legacy one).
  static void impl_copy_bytes(void* dst, const void* src, std::size_t bytes) {
    Front<Api>::copy_bytes(dst, src, bytes, Front<Api>::default_stream(), true);
  }
};

/// Host-reachable memory that host code and the backend's kernels both read: page-locked (pinned) or managed
/// (unified; the SharedSpace of the backend's builds).
enum class HostReachable { pinned, managed };
template <class Derived, class Api, HostReachable Kind>
class HostReachableSpace {
 public:
  using memory_space = Derived;
  /// As in Kokkos: managed memory belongs to the backend's execution space, pinned memory to the host's.
  using execution_space = std::conditional_t<Kind == HostReachable::managed, typename Api::execution_space,
                                             impl::default_host_execution_space>;
  using device_type = Device<execution_space, Derived>;
  using size_type = std::size_t;
  static constexpr bool impl_host_accessible = true;
  void* allocate(std::size_t bytes, std::string_view label = {}) const {
    return Kind == HostReachable::pinned ? Front<Api>::allocate_pinned(bytes, label)
                                         : Front<Api>::allocate_managed(bytes, label);
  }
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const {
    if constexpr (Kind == HostReachable::pinned)
      Front<Api>::free_pinned(ptr, bytes, label);
    else
      Front<Api>::free_managed(ptr, bytes, label);
  }
};
template <class Derived, class Api>
using PinnedSpace = HostReachableSpace<Derived, Api, HostReachable::pinned>;
template <class Derived, class Api>
using ManagedSpace = HostReachableSpace<Derived, Api, HostReachable::managed>;

/// The execution-space class of a GPU backend: an instance is a reference-counted stream.
template <class Derived, class Api, class DeviceMemory>
class Execution {
  using front = Front<Api>;
  using stream_t = typename Api::stream_t;
  using handle_t = Handle<stream_t, &Front<Api>::instance_release>;

 public:
  using execution_space = Derived;
  using memory_space = DeviceMemory;
  using device_type = Device<Derived, DeviceMemory>;
  using size_type = std::size_t;
  using array_layout = LayoutLeft;  // as Kokkos' GPU backends: coalesced for i-fastest loops
  using scratch_memory_space = ScratchMemorySpace<Derived>;
  static constexpr bool impl_is_host_space = false;

  /// The default instance (its own non-blocking stream, created at initialize).
  Execution() : h_(front::default_instance) {}
  /// An instance on the user's stream (not destroyed by Weft).
  explicit Execution(stream_t stream) : h_(handle_t::adopt(front::instance_create(stream, false))) {}
  /// A new instance with its own stream (partition_space).
  static Derived impl_create_instance(int = 1) {
    Derived d;
    static_cast<Execution&>(d).h_ = handle_t::adopt(front::instance_create(stream_t{}, true));
    return d;
  }

  static constexpr const char* name() { return Api::backend; }
  /// This backend's settings (Kokkos's member form; weft::print_configuration prints every backend).
  void print_configuration(std::ostream& os, bool /*verbose*/ = false) const {
    impl::print_backend_configuration(name(), os);
  }
  /// Threads the device keeps resident: multiprocessors x 2048.
  int concurrency() const { return front::multiprocessor_count() * 2048; }
  void fence(std::string_view label = {}) const {
    tools::FenceScope profile(label, impl_instance_id());
    count_instance_fence();
    front::stream_sync(impl_stream(), "synchronizing the instance's stream", label);
  }
  stream_t impl_stream() const { return h_.stream(); }
  std::uint32_t impl_instance_id() const { return h_.id(); }
  /// Enqueues a byte copy on this instance's stream (deep_copy(exec, ...)); returns at once.
  void impl_copy_bytes_async(void* dst, const void* src, std::size_t bytes) const {
    front::copy_bytes(dst, src, bytes, impl_stream(), false);
  }
  friend bool operator==(const Execution& a, const Execution& b) { return a.h_ == b.h_; }

 private:
  handle_t h_;
};

/// The parts of a backend's vendor shim of backends/gpu/ that do not launch: launch-time sizes, kernel scratch
/// and pinned results (stream-ordered), memset on the instance's stream, and the delivery of a result.
template <class Exec, class Api>
struct VendorBase {
  using front = Front<Api>;
  /// Whether the warp-level matrix fragments of gpu/mma.hpp (NVIDIA's layouts: mma.sync on sm_80+, the same
  /// arithmetic by shuffles elsewhere) are the tensor-core path of this backend; HIP's matrix cores are another ISA.
  static constexpr bool nvidia_mma_fragments = true;
  static int multiprocessor_count() { return front::multiprocessor_count(); }
  /// The dynamic shared memory a block may have on the device (its opt-in maximum: 227 KiB on sm_90).
  static std::size_t shared_per_block() { return front::shared_per_block(); }
  /// The device's global memory in bytes (read once): what level-1 team scratch may ask for at most.
  static std::size_t global_memory_bytes() {
    static const std::size_t total = [] {
      std::size_t free_b = 0, total_b = 0;
      (void)Api::mem_get_info(&free_b, &total_b);
      return total_b;
    }();
    return total;
  }
  /// TeamPolicy AUTO keeps the recommended team size unless the backend has an occupancy calculator.
  template <class K, class LB = LaunchBounds<>, class SharedFn>
  static int occupancy_block(const SharedFn&, int fallback) {
    return fallback;
  }
  /// Kernel scratch of work on exec: freed stream-ordered (no device-wide wait; see CachingPool::deallocate_on).
  static void* scratch_allocate(const Exec& exec, std::size_t bytes) {
    return front::scratch_allocate(bytes, exec.impl_stream());
  }
  static void scratch_free(const Exec& exec, void* p, std::size_t bytes) {
    front::scratch_free(p, bytes, exec.impl_stream());
  }
  /// Enqueued on the instance's stream: Weft's streams are non-blocking, so a plain memset (legacy default
  /// stream) would not be ordered before the kernel that reads the bytes.
  static void memset(const Exec& exec, void* p, int v, std::size_t bytes) {
    front::memset(p, v, bytes, exec.impl_stream());
  }
  /// Pinned host memory the reduction kernel writes its result to (no copy after the kernel).
  static void* host_result_allocate(std::size_t bytes) { return front::result_allocate(bytes); }
  static void host_result_free(const Exec& exec, void* p, std::size_t bytes) {
    front::result_free(p, bytes, exec.impl_stream());
  }
  /// Waits for the instance, then hands the result (in pinned memory) to the adaptor.
  template <class Adaptor, class V>
  static void deliver(const Exec& exec, const Adaptor& a, const V* pinned_result, int) {
    front::stream_sync(exec.impl_stream(), "synchronizing a stream (reduction result)");
    a.store(pinned_result);
  }
  /// What every launch does first: the launch report (--weft-print-launches) and the launch-bounds check.
  template <class LB, class Shape>
  static void prepare_launch(const char* label, const Shape& s) {
    if (tools::g_print_launches) [[unlikely]]
      tools::print_launch(label, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, s.shared_bytes);
    check_launch_bounds<LB>(label, s.threads());
  }
};

}  // namespace weft::impl::gpu_rt
