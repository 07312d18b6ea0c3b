// The Cuda backend's runtime: device selection, instances (streams), memory spaces (View memory and kernel
// scratch from one caching pool)
// the kernels' temporary buffers come from, and error reporting with labels.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>

#include <weft/config.hpp>
#include <weft/cuda/space.hpp>
#include <weft/error.hpp>
#include <weft/gpu/pool.hpp>

namespace weft {
namespace impl {
CudaInstance* g_cuda_default_instance = nullptr;
namespace {
int g_device = 0;
int g_sm_count = 0;
std::uint32_t g_next_id = 1u << 20;
}  // namespace

void cuda_throw(cudaError_t e, const char* what, std::string_view label) {
  std::string msg = std::string("weft::Cuda: ") + what;
  if (!label.empty()) msg += " (kernel or View " + quote(label) + ")";
  msg += " failed: " + std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  throw Error(msg);
}

void cuda_check_launch(const char* label) { cuda_check(cudaGetLastError(), "launching a kernel", label); }

void cuda_copy_bytes(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, bool wait) {
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream), "cudaMemcpyAsync");
  if (wait) cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void cuda_host_access_abort(const char* space, const char* label) {
  std::string msg = std::string("View \"") + label + "\" lives in " + space +
                    " (device memory) but was accessed from host code; copy it to a host mirror first "
                    "(weft::create_mirror_view_and_copy(weft::HostSpace(), view))";
  abort_with(msg.c_str());
}

CudaInstance* cuda_instance_create(cudaStream_t stream, bool owned) {
  if (owned) cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const std::uint32_t id = __atomic_fetch_add(&g_next_id, 1u, __ATOMIC_RELAXED);
  return new CudaInstance{1, id, stream, owned, false};
}
void cuda_instance_release(CudaInstance* p) noexcept {
  if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
  if (p->owned) cudaStreamDestroy(p->stream);
  delete p;
}
int cuda_multiprocessor_count() { return g_sm_count > 0 ? g_sm_count : 1; }
int cuda_device_id() { return g_device; }

CachingPool& cuda_pool() {
  static CachingPool pool(
      "CudaSpace",
      [](std::size_t b) -> void* {
        void* p = nullptr;
        return cudaMalloc(&p, b) == cudaSuccess ? p : nullptr;
      },
      [](void* p) { cudaFree(p); });
  return pool;
}

extern bool g_device_round_robin;

/// Kernel scratch (reduction partials, level-1 team scratch) comes from the same pool as View memory.
void* cuda_scratch_allocate(std::size_t bytes) { return CudaSpace().allocate(bytes, "weft kernel scratch"); }
void cuda_scratch_free(void* p, std::size_t bytes) noexcept { cuda_pool().deallocate(p, bytes); }

void cuda_initialize(int device_id) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    throw Error(std::string("weft::initialize: the Cuda backend found no usable GPU (cudaGetDeviceCount: ") +
                cudaGetErrorName(e) + ": " + cudaGetErrorString(e) +
                "); run on a machine with an NVIDIA GPU and its driver, or configure without -DWEFT_ENABLE_CUDA "
                "(the emu preset runs Weft's GPU kernels on the CPU)");
  if (g_device_round_robin && device_id >= 0) device_id %= count;
  if (device_id >= count)
    throw Error("weft::initialize: --weft-device-id " + std::to_string(device_id) + " but only " +
                std::to_string(count) + " GPU(s) are visible");
  g_device = device_id < 0 ? 0 : device_id;
  cuda_check(cudaSetDevice(g_device), "cudaSetDevice");
  cuda_check(cudaDeviceGetAttribute(&g_sm_count, cudaDevAttrMultiProcessorCount, g_device), "cudaDeviceGetAttribute");
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, g_device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, g_device);
  const std::string sm = std::to_string(major * 10 + minor);
  const std::string archs = std::string(" ") + WEFT_CUDA_ARCHITECTURES + " ";
  bool native = false;
  for (const char* suffix : {"", "-real", "a", "a-real"})
    native = native || archs.find(" " + sm + suffix + " ") != std::string::npos;
  if (!native)
    std::fprintf(stderr,
                 "weft: warning: this binary carries no machine code for the GPU's sm_%s (built for: %s); the "
                 "driver compiles PTX at start-up, which can take minutes. Add %s to CMAKE_CUDA_ARCHITECTURES.\n",
                 sm.c_str(), WEFT_CUDA_ARCHITECTURES, sm.c_str());
  if (!g_cuda_default_instance) {
    g_cuda_default_instance = cuda_instance_create(nullptr, true);
    g_cuda_default_instance->is_default = true;
  }
}
void cuda_fence_all() { cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
void cuda_finalize() { cuda_pool().trim(); }
void cuda_print_configuration(std::ostream& os) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, g_device) == cudaSuccess)
    os << "  Cuda: device " << g_device << " " << prop.name << ", sm_" << prop.major << prop.minor << ", "
       << prop.multiProcessorCount << " SMs, " << (prop.totalGlobalMem >> 20) << " MiB; View allocator "
       << (cuda_pool().enabled() ? "caching pool" : "direct") << ", high-water mark " << cuda_pool().stats().high_water
       << " bytes\n";
  else
    os << "  Cuda: no device\n";
}
}  // namespace impl

void* CudaSpace::allocate(std::size_t bytes, std::string_view label) const {
  if (bytes == 0) return nullptr;
  void* p = impl::cuda_pool().allocate(bytes);
  if (!p) {
    const cudaError_t e = cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw Error("weft::CudaSpace: allocating " + std::to_string(bytes) + " bytes for " + impl::quote(label) +
                " failed (" + cudaGetErrorString(e) + "); " + std::to_string(free_b) + " of " +
                std::to_string(total_b) + " bytes are free on the device");
  }
  return p;
}
void CudaSpace::deallocate(void* ptr, std::size_t bytes, std::string_view) const {
  impl::cuda_pool().deallocate(ptr, bytes);
}
void* CudaHostPinnedSpace::allocate(std::size_t bytes, std::string_view label) const {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  impl::cuda_check(cudaMallocHost(&p, bytes), "cudaMallocHost", label);
  return p;
}
void CudaHostPinnedSpace::deallocate(void* ptr, std::size_t, std::string_view) const { cudaFreeHost(ptr); }
void* CudaUVMSpace::allocate(std::size_t bytes, std::string_view label) const {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  impl::cuda_check(cudaMallocManaged(&p, bytes), "cudaMallocManaged", label);
  return p;
}
void CudaUVMSpace::deallocate(void* ptr, std::size_t, std::string_view) const { cudaFree(ptr); }

}  // namespace weft
