// The Cuda backend's runtime: the CUDA Api of backends/gpu's shared runtime (device selection, instances,
// the caching pool that View memory and kernel scratch come from, error reports with labels).
#include <cuda_runtime.h>

#include <ostream>
#include <string>

#define WEFT_IMPL_GPU_RUNTIME_SOURCE 1
#include <weft/config.hpp>
#include <weft/cuda/space.hpp>
#include <weft/error.hpp>
#include <weft/gpu/runtime.hpp>

namespace weft {
namespace impl {
namespace {
struct CudaApi {
  using stream_t = cudaStream_t;
  using error_t = cudaError_t;
  static constexpr error_t success = cudaSuccess;
  static constexpr const char* backend = "Cuda";
  static constexpr const char* device_space = "CudaSpace";
  static constexpr const char* architectures = WEFT_CUDA_ARCHITECTURES;
  static constexpr const char* architectures_option = "CMAKE_CUDA_ARCHITECTURES";
  static constexpr const char* no_device_advice =
      "run on a machine with an NVIDIA GPU and its driver, or configure without -DWEFT_ENABLE_CUDA (the emu "
      "preset runs Weft's GPU kernels on the CPU)";
  static const char* error_name(error_t e) { return cudaGetErrorName(e); }
  static const char* error_string(error_t e) { return cudaGetErrorString(e); }
  static error_t get_last_error() { return cudaGetLastError(); }
  static error_t device_count(int* n) { return cudaGetDeviceCount(n); }
  static error_t set_device(int d) { return cudaSetDevice(d); }
  static error_t device_sync() { return cudaDeviceSynchronize(); }
  static int multiprocessor_count(int d) {
    int n = 0;
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d);
    return n;
  }
  static std::size_t shared_per_block(int d) {
    int n = 0;
    cudaDeviceGetAttribute(&n, cudaDevAttrMaxSharedMemoryPerBlockOptin, d);
    return n > 0 ? std::size_t(n) : 0;
  }
  /// "90" for sm_90: CMAKE_CUDA_ARCHITECTURES spells architectures that way.
  static std::string arch(int d) {
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d);
    return std::to_string(major * 10 + minor);
  }
  static bool describe(std::ostream& os, int d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) return false;
    os << prop.name << ", sm_" << prop.major << prop.minor << ", " << prop.multiProcessorCount << " SMs, "
       << (prop.totalGlobalMem >> 20) << " MiB";
    return true;
  }
  static error_t stream_create(stream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
  static void stream_destroy(stream_t s) { cudaStreamDestroy(s); }
  static error_t stream_sync(stream_t s) { return cudaStreamSynchronize(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
  }
  static error_t malloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static void free(void* p) { cudaFree(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
  static void free_host(void* p) { cudaFreeHost(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return cudaMallocManaged(p, bytes); }
  using event_t = cudaEvent_t;
  static error_t event_create(event_t* e) { return cudaEventCreateWithFlags(e, cudaEventDisableTiming); }
  static error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
  static error_t event_query(event_t e) { return cudaEventQuery(e); }
  static error_t event_sync(event_t e) { return cudaEventSynchronize(e); }
  static void event_destroy(event_t e) { cudaEventDestroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return cudaMemGetInfo(free_b, total_b); }
};
using R = gpu_rt::Runtime<CudaApi>;
}  // namespace

CudaInstance* g_cuda_default_instance = nullptr;

void cuda_throw(cudaError_t e, const char* what, std::string_view label) { R::fail(e, what, label); }
void cuda_check_launch(const char* label) { cuda_check(cudaGetLastError(), "launching a kernel", label); }
void cuda_copy_bytes(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, bool wait) {
  R::copy_bytes(dst, src, bytes, stream, wait);
}
cudaStream_t cuda_default_stream() { return R::default_instance ? R::default_instance->stream : nullptr; }
void cuda_host_access_abort(const char* space, const char* label) { R::host_access_abort(space, label); }
CudaInstance* cuda_instance_create(cudaStream_t stream, bool owned) { return R::instance_create(stream, owned); }
void cuda_instance_release(CudaInstance* p) noexcept { R::instance_release(p); }
int cuda_multiprocessor_count() { return R::multiprocessors > 0 ? R::multiprocessors : 1; }
int cuda_device_id() { return R::device; }
std::size_t cuda_shared_per_block() { return R::shared_per_block; }
void cuda_allow_shared(const void* kernel, std::size_t bytes, const char* label) {
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
             "raising the kernel's dynamic shared memory limit (cudaFuncSetAttribute)", label);
}

/// Kernel scratch (reduction partials, level-1 team scratch) comes from the same pool as View memory.
void* cuda_scratch_allocate(std::size_t bytes) { return R::allocate_device(bytes, "weft kernel scratch"); }
void cuda_scratch_free(void* p, std::size_t bytes) noexcept { R::pool().deallocate(p, bytes); }
void* cuda_scratch_allocate_on(std::size_t bytes, cudaStream_t stream) { return R::allocate_scratch(bytes, stream); }
void cuda_scratch_free_on(void* p, std::size_t bytes, cudaStream_t stream) noexcept {
  R::free_scratch(p, bytes, stream);
}
void* cuda_result_allocate(std::size_t bytes) { return R::allocate_result_pinned(bytes); }
void cuda_result_free(void* p, std::size_t bytes, cudaStream_t stream) noexcept {
  R::free_result_pinned(p, bytes > 0 ? bytes : 1, stream);
}

void gpu_initialize(int device_id) {
  R::initialize(device_id);
  g_cuda_default_instance = R::default_instance;
}
void gpu_fence_all() { R::fence_all(); }
void gpu_finalize() { R::finalize(); }
void gpu_print_configuration(std::ostream& os) { R::print_configuration(os); }
}  // namespace impl

void* CudaSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_device(bytes, label);
}
void CudaSpace::deallocate(void* ptr, std::size_t bytes, std::string_view) const {
  impl::R::pool().deallocate(ptr, bytes);
}
void* CudaHostPinnedSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_host_pinned(bytes, label);
}
void CudaHostPinnedSpace::deallocate(void* ptr, std::size_t, std::string_view) const { impl::CudaApi::free_host(ptr); }
void* CudaUVMSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_managed(bytes, label);
}
void CudaUVMSpace::deallocate(void* ptr, std::size_t, std::string_view) const { impl::CudaApi::free(ptr); }

}  // namespace weft
