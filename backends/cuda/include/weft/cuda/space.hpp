// weft::Cuda and its memory spaces (CudaSpace, CudaHostPinnedSpace, CudaUVMSpace), and the CUDA vendor
// shim that backends/gpu/ launches its kernels through. Compiled as CUDA (weft_compile_for_backend).
#pragma once

#include <weft/config.hpp>
#include <weft/impl/tools.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include <weft/gpu/front.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

class Cuda;

namespace impl {
/// The CUDA runtime as backends/gpu's shared runtime and front classes see it (<weft/gpu/runtime.hpp>).
struct CudaApi {
  using execution_space = Cuda;
  using stream_t = cudaStream_t;
  using error_t = cudaError_t;
  using event_t = cudaEvent_t;
  static constexpr error_t success = cudaSuccess;
  static constexpr const char* backend = "Cuda";
  static constexpr const char* device_space = "CudaSpace";
  static constexpr const char* architectures_option = "CMAKE_CUDA_ARCHITECTURES";
  static constexpr const char* architectures = WEFT_CUDA_ARCHITECTURES;
  static constexpr const char* no_device_advice =
      "run on a machine with an NVIDIA GPU and its driver, or configure without -DWEFT_ENABLE_CUDA (the emu "
      "preset runs Weft's GPU kernels on the CPU)";
  static const char* error_name(error_t e) { return cudaGetErrorName(e); }
  static const char* error_string(error_t e) { return cudaGetErrorString(e); }
  static error_t get_last_error() { return cudaGetLastError(); }
  static error_t device_count(int* n) { return cudaGetDeviceCount(n); }
  static error_t set_device(int d) { return cudaSetDevice(d); }
  static error_t device_sync() { return cudaDeviceSynchronize(); }
  static int multiprocessor_count(int d);
  static std::size_t shared_per_block(int d);
  static std::string arch(int d);
  static bool describe(std::ostream& os, int d);
  static error_t stream_create(stream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
  static void stream_destroy(stream_t s) { cudaStreamDestroy(s); }
  static error_t stream_sync(stream_t s) { return cudaStreamSynchronize(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
  }
  static error_t memset_async(void* p, int v, std::size_t bytes, stream_t s) { return cudaMemsetAsync(p, v, bytes, s); }
  static error_t malloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static void free(void* p) { cudaFree(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
  static void free_host(void* p) { cudaFreeHost(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return cudaMallocManaged(p, bytes); }
  static void free_managed(void* p) { cudaFree(p); }
  static error_t event_create(event_t* e) { return cudaEventCreateWithFlags(e, cudaEventDisableTiming); }
  static error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
  static error_t event_query(event_t e) { return cudaEventQuery(e); }
  static error_t event_sync(event_t e) { return cudaEventSynchronize(e); }
  static void event_destroy(event_t e) { cudaEventDestroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return cudaMemGetInfo(free_b, total_b); }
};
using CudaFront = gpu_rt::Front<CudaApi>;
inline void cuda_check(cudaError_t e, const char* what, std::string_view label = {}) {
  CudaFront::check(e, what, label);
}
}  // namespace impl

/// Device memory of the current GPU (cudaMalloc, through the caching pool). Host code may not dereference it
/// through a View.
class CudaSpace : public impl::gpu_rt::DeviceSpace<CudaSpace, impl::CudaApi> {
 public:
  static constexpr const char* name() { return "CudaSpace"; }
  WEFT_INLINE_FUNCTION static void impl_check_access(const char* label) {
#if !WEFT_IMPL_DEVICE_PASS
    impl::CudaFront::host_access_abort(name(), label);
#else
    (void)label;
#endif
  }
};

/// Page-locked host memory (cudaMallocHost): host code and CUDA kernels both read it.
class CudaHostPinnedSpace : public impl::gpu_rt::PinnedSpace<CudaHostPinnedSpace, impl::CudaApi> {
 public:
  static constexpr const char* name() { return "CudaHostPinnedSpace"; }
};

/// Unified memory (cudaMallocManaged), the SharedSpace of CUDA builds.
class CudaUVMSpace : public impl::gpu_rt::ManagedSpace<CudaUVMSpace, impl::CudaApi> {
 public:
  static constexpr const char* name() { return "CudaUVMSpace"; }
};

namespace impl {
struct CudaVendor;
}

/// The CUDA execution space: an instance is a non-blocking stream.
class Cuda : public impl::gpu_rt::Execution<Cuda, impl::CudaApi, CudaSpace> {
 public:
  using Execution::Execution;
  using impl_vendor = impl::CudaVendor;
  WEFT_INLINE_FUNCTION static bool in_parallel() { return WEFT_IMPL_DEVICE_PASS != 0; }
  cudaStream_t cuda_stream() const { return impl_stream(); }
  int cuda_device() const { return impl::CudaFront::device_id(); }
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

/// The CUDA vendor shim of backends/gpu/: the launch and the occupancy calculator (the rest is shared).
struct CudaVendor : gpu_rt::VendorBase<Cuda, CudaApi> {
  static constexpr int blocks_per_multiprocessor = 4;
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const Cuda& exec, const char* label, const Shape& s, const K& k) {
    prepare_launch<LB>(label, s);
    cuda_reserve_shared<LB, K>(s.shared_bytes, label);
    cuda_kernel_for<LB, K>()<<<dim3(s.grid.x, s.grid.y, s.grid.z), dim3(s.block.x, s.block.y, s.block.z),
                               s.shared_bytes, exec.cuda_stream()>>>(k);
    CudaFront::check_launch(label);
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
};
}  // namespace impl
}  // namespace weft
