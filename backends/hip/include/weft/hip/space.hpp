// weft::HIP and its memory spaces (HIPSpace, HIPHostPinnedSpace, HIPManagedSpace), and the HIP vendor shim
// that backends/gpu/ launches its kernels through. Compiled by hipcc (the HIP build uses CXX=hipcc).
// Everything else (instances, pool, start-up checks, kernels) is shared with CUDA in backends/gpu/.
#pragma once

#include <weft/config.hpp>
#include <weft/impl/tools.hpp>

#include <hip/hip_runtime.h>

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

class HIP;

namespace impl {
/// The HIP runtime as backends/gpu's shared runtime and front classes see it (<weft/gpu/runtime.hpp>).
struct HipApi {
  using execution_space = HIP;
  using stream_t = hipStream_t;
  using error_t = hipError_t;
  using event_t = hipEvent_t;
  static constexpr error_t success = hipSuccess;
  static constexpr const char* backend = "HIP";
  static constexpr const char* device_space = "HIPSpace";
  static constexpr const char* architectures = WEFT_HIP_ARCHITECTURES;
  static constexpr const char* architectures_option = "WEFT_HIP_ARCHITECTURES";
  static constexpr const char* no_device_advice =
      "run on a machine with an AMD GPU and the ROCm driver (amdgpu/KFD), or configure without -DWEFT_ENABLE_HIP "
      "(the emu preset runs Weft's GPU kernels on the CPU)";
  static const char* error_name(error_t e) { return hipGetErrorName(e); }
  static const char* error_string(error_t e) { return hipGetErrorString(e); }
  static error_t get_last_error() { return hipGetLastError(); }
  static error_t device_count(int* n) { return hipGetDeviceCount(n); }
  static error_t set_device(int d) { return hipSetDevice(d); }
  static error_t device_sync() { return hipDeviceSynchronize(); }
  static int multiprocessor_count(int d);
  static std::size_t shared_per_block(int d);
  static std::string arch(int d);
  static bool describe(std::ostream& os, int d);
  static error_t stream_create(stream_t* s) { return hipStreamCreateWithFlags(s, hipStreamNonBlocking); }
  static void stream_destroy(stream_t s) { (void)hipStreamDestroy(s); }
  static error_t stream_sync(stream_t s) { return hipStreamSynchronize(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s);
  }
  static error_t memset_async(void* p, int v, std::size_t bytes, stream_t s) { return hipMemsetAsync(p, v, bytes, s); }
  static error_t malloc(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
  static void free(void* p) { (void)hipFree(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return hipHostMalloc(p, bytes, hipHostMallocDefault); }
  static void free_host(void* p) { (void)hipHostFree(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return hipMallocManaged(p, bytes); }
  static void free_managed(void* p) { (void)hipFree(p); }
  static error_t event_create(event_t* e) { return hipEventCreateWithFlags(e, hipEventDisableTiming); }
  static error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
  static error_t event_query(event_t e) { return hipEventQuery(e); }
  static error_t event_sync(event_t e) { return hipEventSynchronize(e); }
  static void event_destroy(event_t e) { (void)hipEventDestroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return hipMemGetInfo(free_b, total_b); }
};
using HipFront = gpu_rt::Front<HipApi>;
inline void hip_check(hipError_t e, const char* what, std::string_view label = {}) { HipFront::check(e, what, label); }
}  // namespace impl

/// Device memory of the current GPU (hipMalloc, through the caching pool). Host code may not dereference it
/// through a View.
class HIPSpace : public impl::gpu_rt::DeviceSpace<HIPSpace, impl::HipApi> {
 public:
  static constexpr const char* name() { return "HIPSpace"; }
  WEFT_INLINE_FUNCTION static void impl_check_access(const char* label) {
#if !WEFT_IMPL_DEVICE_PASS
    impl::HipFront::host_access_abort(name(), label);
#else
    (void)label;
#endif
  }
};

/// Page-locked host memory (hipHostMalloc): host code and HIP kernels both read it.
class HIPHostPinnedSpace : public impl::gpu_rt::PinnedSpace<HIPHostPinnedSpace, impl::HipApi> {
 public:
  static constexpr const char* name() { return "HIPHostPinnedSpace"; }
};

/// Managed memory (hipMallocManaged), the SharedSpace of HIP builds.
class HIPManagedSpace : public impl::gpu_rt::ManagedSpace<HIPManagedSpace, impl::HipApi> {
 public:
  static constexpr const char* name() { return "HIPManagedSpace"; }
};

namespace impl {
struct HipVendor;
}

/// The HIP execution space: an instance is a non-blocking stream. Compute units x 2048 resident threads
/// (CDNA: 32 waves of 64 lanes per CU).
class HIP : public impl::gpu_rt::Execution<HIP, impl::HipApi, HIPSpace> {
 public:
  using Execution::Execution;
  using impl_vendor = impl::HipVendor;
  WEFT_INLINE_FUNCTION static bool in_parallel() { return WEFT_IMPL_DEVICE_PASS != 0; }
  hipStream_t hip_stream() const { return impl_stream(); }
  int hip_device() const { return impl::HipFront::device_id(); }
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

/// The HIP vendor shim of backends/gpu/: the launch (the rest is shared; TeamPolicy AUTO keeps the recommended
/// team size, as ROCm 5.2 has no variable-shared-memory occupancy query). The LDS a workgroup may have is 64 KiB
/// on CDNA.
struct HipVendor : gpu_rt::VendorBase<HIP, HipApi> {
  static constexpr int blocks_per_multiprocessor = 4;
  static constexpr bool nvidia_mma_fragments = false;  // the GEMM takes its SIMT layer (MFMA is another ISA)
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const HIP& exec, const char* label, const Shape& s, const K& k) {
    prepare_launch<LB>(label, s);
    if constexpr (LB::max_threads == 0)
      hipLaunchKernelGGL(hip_kernel<K>, dim3(s.grid.x, s.grid.y, s.grid.z), dim3(s.block.x, s.block.y, s.block.z),
                         s.shared_bytes, exec.hip_stream(), k);
    else
      hipLaunchKernelGGL(HIP_KERNEL_NAME(hip_kernel_bounded<LB::max_threads, K>), dim3(s.grid.x, s.grid.y, s.grid.z),
                         dim3(s.block.x, s.block.y, s.block.z), s.shared_bytes, exec.hip_stream(), k);
    HipFront::check_launch(label);
  }
};
}  // namespace impl
}  // namespace weft
