// weft::Cuda and its memory spaces (CudaSpace, CudaHostPinnedSpace, CudaUVMSpace), and the CUDA vendor
// shim that backends/gpu/ launches its kernels through. Compiled as CUDA (weft_compile_for_backend).
#pragma once

#include <weft/impl/tools.hpp>

#include <cuda_runtime.h>

#include <atomic>
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

class Cuda;

namespace impl {
[[noreturn]] void cuda_throw(cudaError_t e, const char* what, std::string_view label);
inline void cuda_check(cudaError_t e, const char* what, std::string_view label = {}) {
  if (e != cudaSuccess) [[unlikely]]
    cuda_throw(e, what, label);
}
void cuda_copy_bytes(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, bool wait);
/// The default instance's stream (non-blocking; never the legacy stream, which it does not wait for).
cudaStream_t cuda_default_stream();
[[noreturn]] void cuda_host_access_abort(const char* space, const char* label);
}  // namespace impl

/// Device memory of the current GPU (cudaMalloc). Host code may not dereference it through a View.
class CudaSpace {
 public:
  using memory_space = CudaSpace;
  using execution_space = Cuda;
  using size_type = std::size_t;
  static constexpr const char* name() { return "CudaSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = false;
  WEFT_INLINE_FUNCTION static void impl_check_access(const char* label) {
#if !WEFT_IMPL_DEVICE_PASS
    impl::cuda_host_access_abort(name(), label);
#else
    (void)label;
#endif
  }
  static void impl_copy_bytes(void* dst, const void* src, std::size_t bytes) {
    impl::cuda_copy_bytes(dst, src, bytes, impl::cuda_default_stream(), true);
  }
};

/// Page-locked host memory (cudaMallocHost): host code and CUDA kernels both read it.
class CudaHostPinnedSpace {
 public:
  using memory_space = CudaHostPinnedSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "CudaHostPinnedSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
};

/// Unified memory (cudaMallocManaged), the SharedSpace of CUDA builds.
class CudaUVMSpace {
 public:
  using memory_space = CudaUVMSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "CudaUVMSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
};

namespace impl {
struct CudaVendor;
using CudaInstance = gpu_rt::Instance<cudaStream_t>;
extern CudaInstance* g_cuda_default_instance;
CudaInstance* cuda_instance_create(cudaStream_t stream, bool owned);
void cuda_instance_release(CudaInstance* p) noexcept;
int cuda_multiprocessor_count();
int cuda_device_id();
std::size_t cuda_shared_per_block();
}  // namespace impl

class Cuda {
  using handle_t = impl::gpu_rt::Handle<cudaStream_t, impl::cuda_instance_release>;

 public:
  using execution_space = Cuda;
  using memory_space = CudaSpace;
  using device_type = Device<Cuda, CudaSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutLeft;
  using scratch_memory_space = ScratchMemorySpace<Cuda>;
  using impl_vendor = impl::CudaVendor;
  static constexpr bool impl_is_host_space = false;

  /// The default instance (its own stream, created at initialize).
  Cuda() : h_(impl::g_cuda_default_instance) {}
  /// An instance on the user's stream (not destroyed by Weft).
  explicit Cuda(cudaStream_t stream) : h_(handle_t::adopt(impl::cuda_instance_create(stream, false))) {}
  static Cuda impl_create_instance(int = 1) { return Cuda(handle_t::adopt(impl::cuda_instance_create(nullptr, true))); }

  static constexpr const char* name() { return "Cuda"; }
  int concurrency() const { return impl::cuda_multiprocessor_count() * 2048; }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    impl::cuda_check(cudaStreamSynchronize(cuda_stream()), "cudaStreamSynchronize", label);
  }
  WEFT_INLINE_FUNCTION static bool in_parallel() { return WEFT_IMPL_DEVICE_PASS != 0; }
  cudaStream_t cuda_stream() const { return h_.stream(); }
  int cuda_device() const { return impl::cuda_device_id(); }
  std::uint32_t impl_instance_id() const { return h_.id(); }
  /// Enqueues a byte copy on this instance's stream (deep_copy(exec, ...)); returns at once.
  void impl_copy_bytes_async(void* dst, const void* src, std::size_t bytes) const {
    impl::cuda_copy_bytes(dst, src, bytes, cuda_stream(), false);
  }
  friend bool operator==(const Cuda& a, const Cuda& b) { return a.h_ == b.h_; }

 private:
  explicit Cuda(handle_t h) : h_(std::move(h)) {}
  handle_t h_;
};

namespace impl {
template <>
struct accessible<Cuda, CudaHostPinnedSpace> : std::true_type {};
template <>
struct accessible<Cuda, CudaUVMSpace> : std::true_type {};

template <class K>
__global__ void cuda_kernel(const K k) {
  k();
}
/// A kernel of a policy with LaunchBounds<MaxThreads, MinBlocks>: ptxas keeps registers within what MinBlocks
/// blocks of MaxThreads need to share a multiprocessor.
template <unsigned MaxThreads, unsigned MinBlocks, class K>
__global__ void __launch_bounds__(MaxThreads, MinBlocks) cuda_kernel_bounded(const K k) {
  k();
}
template <unsigned MaxThreads, class K>
__global__ void __launch_bounds__(MaxThreads) cuda_kernel_max_threads(const K k) {
  k();
}
/// The kernel that runs K under launch bounds LB.
template <class LB, class K>
constexpr auto cuda_kernel_for() {
  if constexpr (LB::max_threads == 0)
    return &cuda_kernel<K>;
  else if constexpr (LB::min_blocks == 0)
    return &cuda_kernel_max_threads<LB::max_threads, K>;
  else
    return &cuda_kernel_bounded<LB::max_threads, LB::min_blocks, K>;
}

void* cuda_scratch_allocate(std::size_t bytes);
void cuda_scratch_free(void* p, std::size_t bytes) noexcept;
void* cuda_scratch_allocate_on(std::size_t bytes, cudaStream_t stream);
void cuda_scratch_free_on(void* p, std::size_t bytes, cudaStream_t stream) noexcept;
void* cuda_result_allocate(std::size_t bytes);
void cuda_result_free(void* p, std::size_t bytes, cudaStream_t stream) noexcept;
void cuda_check_launch(const char* label);
void cuda_allow_shared(const void* kernel, std::size_t bytes, const char* label);

/// Kernel K may use `bytes` of dynamic shared memory: above the 48 KiB every launch may have, CUDA needs the
/// kernel's opt-in (once per kernel, raised as larger launches come).
template <class LB, class K>
void cuda_reserve_shared(std::size_t bytes, const char* label) {
  static std::atomic<std::size_t> allowed{48 * 1024};
  std::size_t have = allowed.load(std::memory_order_relaxed);
  if (bytes <= have) return;
  cuda_allow_shared(reinterpret_cast<const void*>(cuda_kernel_for<LB, K>()), bytes, label);
  while (have < bytes && !allowed.compare_exchange_weak(have, bytes, std::memory_order_relaxed)) {
  }
}

/// The CUDA vendor shim of backends/gpu/.
struct CudaVendor {
  static constexpr int blocks_per_multiprocessor = 4;
  static int multiprocessor_count() { return cuda_multiprocessor_count(); }
  /// The dynamic shared memory a block may have on the device (its opt-in maximum: 227 KiB on sm_90).
  static std::size_t shared_per_block() { return cuda_shared_per_block(); }
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const Cuda& exec, const char* label, const Shape& s, const K& k) {
    if (impl::tools::g_print_launches) [[unlikely]]
      impl::tools::print_launch(label, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, s.shared_bytes);
    check_launch_bounds<LB>(label, s.threads());
    cuda_reserve_shared<LB, K>(s.shared_bytes, label);
    cuda_kernel_for<LB, K>()<<<dim3(s.grid.x, s.grid.y, s.grid.z), dim3(s.block.x, s.block.y, s.block.z),
                               s.shared_bytes, exec.cuda_stream()>>>(k);
    cuda_check_launch(label);
  }
  /// The block size the occupancy calculator picks for kernel K, whose dynamic shared memory for a block of b
  /// threads is shared(b) (TeamPolicy with AUTO); `fallback` when the calculator cannot say.
  template <class K, class LB = LaunchBounds<>, class SharedFn>
  static int occupancy_block(const SharedFn& shared, int fallback) {
    int min_grid = 0, block = 0;
    const cudaError_t e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(
        &min_grid, &block, cuda_kernel_for<LB, K>(), [&](int b) { return shared(b); },
        LB::max_threads > 0 ? int(LB::max_threads) : 1024);
    if (e != cudaSuccess || block <= 0) {
      (void)cudaGetLastError();
      return fallback;
    }
    return block;
  }
  /// Kernel scratch of work on exec: freed stream-ordered (no device-wide wait; see CachingPool::deallocate_on).
  static void* scratch_allocate(const Cuda& exec, std::size_t bytes) {
    return cuda_scratch_allocate_on(bytes, exec.cuda_stream());
  }
  static void scratch_free(const Cuda& exec, void* p, std::size_t bytes) {
    cuda_scratch_free_on(p, bytes, exec.cuda_stream());
  }
  /// Enqueued on the instance's stream: Weft's streams are non-blocking, so a plain cudaMemset (legacy default
  /// stream) would not be ordered before the kernel that reads the bytes.
  static void memset(const Cuda& exec, void* p, int v, std::size_t bytes) {
    cuda_check(cudaMemsetAsync(p, v, bytes, exec.cuda_stream()), "cudaMemsetAsync");
  }
  /// Pinned host memory the reduction kernel writes its result to (no copy after the kernel).
  static void* host_result_allocate(std::size_t bytes) { return cuda_result_allocate(bytes); }
  static void host_result_free(const Cuda& exec, void* p, std::size_t bytes) {
    cuda_result_free(p, bytes, exec.cuda_stream());
  }
  /// Waits for the instance, then hands the result (in pinned memory) to the adaptor.
  template <class Adaptor, class V>
  static void deliver(const Cuda& exec, const Adaptor& a, const V* pinned_result, int) {
    cuda_check(cudaStreamSynchronize(exec.cuda_stream()), "cudaStreamSynchronize (reduction result)");
    a.store(pinned_result);
  }
};
}  // namespace impl
}  // namespace weft
