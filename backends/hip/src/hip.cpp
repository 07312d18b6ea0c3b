// The HIP backend's runtime: the HIP Api of backends/gpu's shared runtime (device selection, instances,
// the caching pool that View memory and kernel scratch come from, error reports with labels).
#include <hip/hip_runtime.h>

#include <ostream>
#include <string>

#define WEFT_IMPL_GPU_RUNTIME_SOURCE 1
#include <weft/config.hpp>
#include <weft/error.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/hip/space.hpp>

namespace weft {
namespace impl {
namespace {
struct HipApi {
  using stream_t = hipStream_t;
  using error_t = hipError_t;
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
  static int multiprocessor_count(int d) {
    int n = 0;
    (void)hipDeviceGetAttribute(&n, hipDeviceAttributeMultiprocessorCount, d);
    return n;
  }
  static std::size_t shared_per_block(int d) {
    int n = 0;
    (void)hipDeviceGetAttribute(&n, hipDeviceAttributeMaxSharedMemoryPerBlock, d);
    return n > 0 ? std::size_t(n) : 0;
  }
  /// "gfx90a" (without feature suffixes such as ":sramecc+:xnack-"), as --offload-arch spells it.
  static std::string arch(int d) {
    hipDeviceProp_t prop{};
    if (hipGetDeviceProperties(&prop, d) != hipSuccess) return "unknown";
    const std::string name = prop.gcnArchName;
    return name.substr(0, name.find(':'));
  }
  static bool describe(std::ostream& os, int d) {
    hipDeviceProp_t prop{};
    if (hipGetDeviceProperties(&prop, d) != hipSuccess) return false;
    os << prop.name << ", " << prop.gcnArchName << ", " << prop.multiProcessorCount << " CUs, wavefront "
       << prop.warpSize << ", " << (prop.totalGlobalMem >> 20) << " MiB";
    return true;
  }
  static error_t stream_create(stream_t* s) { return hipStreamCreateWithFlags(s, hipStreamNonBlocking); }
  static void stream_destroy(stream_t s) { (void)hipStreamDestroy(s); }
  static error_t stream_sync(stream_t s) { return hipStreamSynchronize(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s);
  }
  static error_t malloc(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
  static void free(void* p) { (void)hipFree(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return hipHostMalloc(p, bytes, hipHostMallocDefault); }
  static void free_host(void* p) { (void)hipHostFree(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return hipMallocManaged(p, bytes); }
  using event_t = hipEvent_t;
  static error_t event_create(event_t* e) { return hipEventCreateWithFlags(e, hipEventDisableTiming); }
  static error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
  static error_t event_query(event_t e) { return hipEventQuery(e); }
  static error_t event_sync(event_t e) { return hipEventSynchronize(e); }
  static void event_destroy(event_t e) { hipEventDestroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return hipMemGetInfo(free_b, total_b); }
};
using R = gpu_rt::Runtime<HipApi>;
}  // namespace

HipInstance* g_hip_default_instance = nullptr;

void hip_throw(hipError_t e, const char* what, std::string_view label) { R::fail(e, what, label); }
void hip_check_launch(const char* label) { hip_check(hipGetLastError(), "launching a kernel", label); }
void hip_copy_bytes(void* dst, const void* src, std::size_t bytes, hipStream_t stream, bool wait) {
  R::copy_bytes(dst, src, bytes, stream, wait);
}
hipStream_t hip_default_stream() { return R::default_instance ? R::default_instance->stream : nullptr; }
void hip_host_access_abort(const char* space, const char* label) { R::host_access_abort(space, label); }
HipInstance* hip_instance_create(hipStream_t stream, bool owned) { return R::instance_create(stream, owned); }
void hip_instance_release(HipInstance* p) noexcept { R::instance_release(p); }
int hip_multiprocessor_count() { return R::multiprocessors > 0 ? R::multiprocessors : 1; }
int hip_device_id() { return R::device; }
std::size_t hip_shared_per_block() { return R::shared_per_block; }

/// Kernel scratch (reduction partials, level-1 team scratch) comes from the same pool as View memory.
void* hip_scratch_allocate(std::size_t bytes) { return R::allocate_device(bytes, "weft kernel scratch"); }
void hip_scratch_free(void* p, std::size_t bytes) noexcept { R::pool().deallocate(p, bytes); }
void* hip_scratch_allocate_on(std::size_t bytes, hipStream_t stream) { return R::allocate_scratch(bytes, stream); }
void hip_scratch_free_on(void* p, std::size_t bytes, hipStream_t stream) noexcept { R::free_scratch(p, bytes, stream); }
void* hip_result_allocate(std::size_t bytes) { return R::allocate_result_pinned(bytes); }
void hip_result_free(void* p, std::size_t bytes, hipStream_t stream) noexcept {
  R::free_result_pinned(p, bytes > 0 ? bytes : 1, stream);
}

void gpu_initialize(int device_id) {
  R::initialize(device_id);
  g_hip_default_instance = R::default_instance;
}
void gpu_fence_all() { R::fence_all(); }
void gpu_finalize() { R::finalize(); }
void gpu_print_configuration(std::ostream& os) { R::print_configuration(os); }
}  // namespace impl

void* HIPSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_device(bytes, label);
}
void HIPSpace::deallocate(void* ptr, std::size_t bytes, std::string_view) const {
  impl::R::pool().deallocate(ptr, bytes);
}
void* HIPHostPinnedSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_host_pinned(bytes, label);
}
void HIPHostPinnedSpace::deallocate(void* ptr, std::size_t, std::string_view) const { impl::HipApi::free_host(ptr); }
void* HIPManagedSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_managed(bytes, label);
}
void HIPManagedSpace::deallocate(void* ptr, std::size_t, std::string_view) const { impl::HipApi::free(ptr); }

}  // namespace weft
