// weft::HIP and its memory spaces (HIPSpace, HIPHostPinnedSpace, HIPManagedSpace), and the HIP vendor shim
// that backends/gpu/ launches its kernels through. Compiled by hipcc (the HIP build uses CXX=hipcc).
// Everything else (instances, pool, start-up checks, kernels) is shared with CUDA in backends/gpu/.
#pragma once

#include <weft/impl/tools.hpp>

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <weft/gpu/runtime.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

class HIP;

namespace impl {
[[noreturn]] void hip_throw(hipError_t e, const char* what, std::string_view label);
inline void hip_check(hipError_t e, const char* what, std::string_view label = {}) {
  if (e != hipSuccess) [[unlikely]]
    hip_throw(e, what, label);
}
void hip_copy_bytes(void* dst, const void* src, std::size_t bytes, hipStream_t stream, bool wait);
/// The default instance's stream (non-blocking; never the legacy stream, which it does not wait for).
hipStream_t hip_default_stream();
[[noreturn]] void hip_host_access_abort(const char* space, const char* label);
}  // namespace impl

/// Device memory of the current GPU (hipMalloc). Host code may not dereference it through a View.
class HIPSpace {
 public:
  using memory_space = HIPSpace;
  using execution_space = HIP;
  using size_type = std::size_t;
  static constexpr const char* name() { return "HIPSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = false;
  WEFT_INLINE_FUNCTION static void impl_check_access(const char* label) {
#if !WEFT_IMPL_DEVICE_PASS
    impl::hip_host_access_abort(name(), label);
#else
    (void)label;
#endif
  }
  static void impl_copy_bytes(void* dst, const void* src, std::size_t bytes) {
    impl::hip_copy_bytes(dst, src, bytes, impl::hip_default_stream(), true);
  }
};

/// Page-locked host memory (hipHostMalloc): host code and HIP kernels both read it.
class HIPHostPinnedSpace {
 public:
  using memory_space = HIPHostPinnedSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "HIPHostPinnedSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
};

/// Managed memory (hipMallocManaged), the SharedSpace of HIP builds.
class HIPManagedSpace {
 public:
  using memory_space = HIPManagedSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "HIPManagedSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
};

namespace impl {
struct HipVendor;
using HipInstance = gpu_rt::Instance<hipStream_t>;
extern HipInstance* g_hip_default_instance;
HipInstance* hip_instance_create(hipStream_t stream, bool owned);
void hip_instance_release(HipInstance* p) noexcept;
int hip_multiprocessor_count();
int hip_device_id();
std::size_t hip_shared_per_block();
}  // namespace impl

class HIP {
  using handle_t = impl::gpu_rt::Handle<hipStream_t, impl::hip_instance_release>;

 public:
  using execution_space = HIP;
  using memory_space = HIPSpace;
  using device_type = Device<HIP, HIPSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutLeft;
  using scratch_memory_space = ScratchMemorySpace<HIP>;
  using impl_vendor = impl::HipVendor;
  static constexpr bool impl_is_host_space = false;

  /// The default instance (its own stream, created at initialize).
  HIP() : h_(impl::g_hip_default_instance) {}
  /// An instance on the user's stream (not destroyed by Weft).
  explicit HIP(hipStream_t stream) : h_(handle_t::adopt(impl::hip_instance_create(stream, false))) {}
  static HIP impl_create_instance(int = 1) { return HIP(handle_t::adopt(impl::hip_instance_create(nullptr, true))); }

  static constexpr const char* name() { return "HIP"; }
  /// Compute units x 2048 resident threads (CDNA: 32 waves of 64 lanes per CU).
  int concurrency() const { return impl::hip_multiprocessor_count() * 2048; }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    impl::hip_check(hipStreamSynchronize(hip_stream()), "hipStreamSynchronize", label);
  }
  WEFT_INLINE_FUNCTION static bool in_parallel() { return WEFT_IMPL_DEVICE_PASS != 0; }
  hipStream_t hip_stream() const { return h_.stream(); }
  int hip_device() const { return impl::hip_device_id(); }
  std::uint32_t impl_instance_id() const { return h_.id(); }
  /// Enqueues a byte copy on this instance's stream (deep_copy(exec, ...)); returns at once.
  void impl_copy_bytes_async(void* dst, const void* src, std::size_t bytes) const {
    impl::hip_copy_bytes(dst, src, bytes, hip_stream(), false);
  }
  friend bool operator==(const HIP& a, const HIP& b) { return a.h_ == b.h_; }

 private:
  explicit HIP(handle_t h) : h_(std::move(h)) {}
  handle_t h_;
};

namespace impl {
template <>
struct accessible<HIP, HIPHostPinnedSpace> : std::true_type {};
template <>
struct accessible<HIP, HIPManagedSpace> : std::true_type {};

template <class K>
__global__ void hip_kernel(const K k) {
  k();
}
/// A kernel of a policy with LaunchBounds<MaxThreads, ...> (HIP's bound is the block size). Files of a HIP build
/// compiled as plain C++ see no __launch_bounds__ (nor launch kernels).
#if defined(__HIP__)
#define WEFT_IMPL_HIP_LAUNCH_BOUNDS(n) __launch_bounds__(n)
#else
#define WEFT_IMPL_HIP_LAUNCH_BOUNDS(n)
#endif
template <unsigned MaxThreads, class K>
__global__ void WEFT_IMPL_HIP_LAUNCH_BOUNDS(MaxThreads) hip_kernel_bounded(const K k) {
  k();
}

void* hip_scratch_allocate(std::size_t bytes);
void hip_scratch_free(void* p, std::size_t bytes) noexcept;
void* hip_scratch_allocate_on(std::size_t bytes, hipStream_t stream);
void hip_scratch_free_on(void* p, std::size_t bytes, hipStream_t stream) noexcept;
void* hip_result_allocate(std::size_t bytes);
void hip_result_free(void* p, std::size_t bytes, hipStream_t stream) noexcept;
void hip_check_launch(const char* label);

/// The HIP vendor shim of backends/gpu/.
struct HipVendor {
  static constexpr int blocks_per_multiprocessor = 4;
  static int multiprocessor_count() { return hip_multiprocessor_count(); }
  /// The LDS a workgroup may have (64 KiB on CDNA).
  static std::size_t shared_per_block() { return hip_shared_per_block(); }
  /// TeamPolicy AUTO keeps the recommended team size here (ROCm 5.2 has no variable-shared-memory occupancy query).
  template <class K, class LB = LaunchBounds<>, class SharedFn>
  static int occupancy_block(const SharedFn&, int fallback) {
    return fallback;
  }
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const HIP& exec, const char* label, const Shape& s, const K& k) {
    if (impl::tools::g_print_launches) [[unlikely]]
      impl::tools::print_launch(label, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, s.shared_bytes);
    check_launch_bounds<LB>(label, s.threads());
    if constexpr (LB::max_threads == 0)
      hipLaunchKernelGGL(hip_kernel<K>, dim3(s.grid.x, s.grid.y, s.grid.z), dim3(s.block.x, s.block.y, s.block.z),
                         s.shared_bytes, exec.hip_stream(), k);
    else
      hipLaunchKernelGGL(HIP_KERNEL_NAME(hip_kernel_bounded<LB::max_threads, K>), dim3(s.grid.x, s.grid.y, s.grid.z),
                         dim3(s.block.x, s.block.y, s.block.z), s.shared_bytes, exec.hip_stream(), k);
    hip_check_launch(label);
  }
  /// Kernel scratch of work on exec: freed stream-ordered (no device-wide wait; see CachingPool::deallocate_on).
  static void* scratch_allocate(const HIP& exec, std::size_t bytes) {
    return hip_scratch_allocate_on(bytes, exec.hip_stream());
  }
  static void scratch_free(const HIP& exec, void* p, std::size_t bytes) {
    hip_scratch_free_on(p, bytes, exec.hip_stream());
  }
  /// Enqueued on the instance's stream (Weft's streams are non-blocking; see CudaVendor::memset).
  static void memset(const HIP& exec, void* p, int v, std::size_t bytes) {
    hip_check(hipMemsetAsync(p, v, bytes, exec.hip_stream()), "hipMemsetAsync");
  }
  /// Pinned host memory the reduction kernel writes its result to (no copy after the kernel).
  static void* host_result_allocate(std::size_t bytes) { return hip_result_allocate(bytes); }
  static void host_result_free(const HIP& exec, void* p, std::size_t bytes) {
    hip_result_free(p, bytes, exec.hip_stream());
  }
  /// Waits for the instance, then hands the result (in pinned memory) to the adaptor.
  template <class Adaptor, class V>
  static void deliver(const HIP& exec, const Adaptor& a, const V* pinned_result, int) {
    hip_check(hipStreamSynchronize(exec.hip_stream()), "hipStreamSynchronize (reduction result)");
    a.store(pinned_result);
  }
};
}  // namespace impl
}  // namespace weft
