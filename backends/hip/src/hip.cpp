// The HIP backend's runtime: the out-of-line parts of HipApi, and the one instantiation of backends/gpu's
// shared runtime over it (device selection, instances, the caching pools, error reports with labels).
#include <hip/hip_runtime.h>

#include <ostream>
#include <string>

#define WEFT_IMPL_GPU_RUNTIME_SOURCE 1
#include <weft/config.hpp>
#include <weft/error.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/hip/space.hpp>

namespace weft::impl {
int HipApi::multiprocessor_count(int d) {
  int n = 0;
  (void)hipDeviceGetAttribute(&n, hipDeviceAttributeMultiprocessorCount, d);
  return n;
}
std::size_t HipApi::shared_per_block(int d) {
  int n = 0;
  (void)hipDeviceGetAttribute(&n, hipDeviceAttributeMaxSharedMemoryPerBlock, d);
  return n > 0 ? std::size_t(n) : 0;
}
/// "gfx90a" (without feature suffixes such as ":sramecc+:xnack-"), as --offload-arch spells it.
std::string HipApi::arch(int d) {
  hipDeviceProp_t prop{};
  if (hipGetDeviceProperties(&prop, d) != hipSuccess) return "unknown";
  const std::string name = prop.gcnArchName;
  return name.substr(0, name.find(':'));
}
bool HipApi::describe(std::ostream& os, int d) {
  hipDeviceProp_t prop{};
  if (hipGetDeviceProperties(&prop, d) != hipSuccess) return false;
  os << prop.name << ", " << prop.gcnArchName << ", " << prop.multiProcessorCount << " CUs, wavefront " << prop.warpSize
     << ", " << (prop.totalGlobalMem >> 20) << " MiB";
  return true;
}

template struct gpu_rt::Front<HipApi>;
void register_backend_hip() { HipFront::register_backend(); }
}  // namespace weft::impl
