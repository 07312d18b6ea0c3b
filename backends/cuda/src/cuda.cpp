// The Cuda backend's runtime: the out-of-line parts of CudaApi, and the one instantiation of backends/gpu's
// shared runtime over it (device selection, instances, the caching pools, error reports with labels).
#include <cuda_runtime.h>

#include <ostream>
#include <string>

#define WEFT_IMPL_GPU_RUNTIME_SOURCE 1
#include <weft/config.hpp>
#include <weft/cuda/space.hpp>
#include <weft/error.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/impl/tools.hpp>
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define WEFT_IMPL_NVTX 1
#else
#define WEFT_IMPL_NVTX 0
#endif

namespace weft::impl {
int CudaApi::multiprocessor_count(int d) {
  int n = 0;
  cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d);
  return n;
}
std::size_t CudaApi::shared_per_block(int d) {
  int n = 0;
  cudaDeviceGetAttribute(&n, cudaDevAttrMaxSharedMemoryPerBlockOptin, d);
  return n > 0 ? std::size_t(n) : 0;
}
/// "90" for sm_90: CMAKE_CUDA_ARCHITECTURES spells architectures that way.
std::string CudaApi::arch(int d) {
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d);
  return std::to_string(major * 10 + minor);
}
bool CudaApi::describe(std::ostream& os, int d) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) return false;
  os << prop.name << ", sm_" << prop.major << prop.minor << ", " << prop.multiProcessorCount << " SMs, "
     << (prop.totalGlobalMem >> 20) << " MiB";
  return true;
}

template struct gpu_rt::Front<CudaApi>;
void register_backend_cuda() {
  CudaFront::register_backend();
#if WEFT_IMPL_NVTX
  // Nsight Systems shows Weft's kernels and profiling regions by name, with or without a tool library.
  tools::set_range_annotator({[](const char* name) { nvtxRangePushA(name); }, [] { nvtxRangePop(); }});
#endif
}

void cuda_allow_shared(const void* kernel, std::size_t bytes, const char* label) {
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
             "raising the kernel's dynamic shared memory limit (cudaFuncSetAttribute)", label);
}
}  // namespace weft::impl
