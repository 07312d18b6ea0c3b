// The GpuEmu backend's runtime: the emulated runtime's Api of backends/gpu's shared runtime (device selection,
// instances and their streams, the caching pools of device and pinned memory, error reports with labels), the
// same gpu_rt::Runtime template the CUDA and HIP backends run, and the host-side checks of GpuEmu's spaces.
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>

#define WEFT_IMPL_GPU_RUNTIME_SOURCE 1
#include <weft/config.hpp>
#include <weft/emu/runtime.hpp>
#include <weft/emu/space.hpp>
#include <weft/error.hpp>
#include <weft/gpu/pool.hpp>
#include <weft/gpu/runtime.hpp>

#include "memory_model.hpp"

namespace weft {
namespace impl {
bool EmuApi::describe(std::ostream& os, int) {
  const char* order = std::getenv("WEFT_EMU_BLOCK_ORDER");
  os << "(SIMT emulator, " << emu::multiprocessor_count() << " emulated multiprocessors (CPU threads), warp size 32, "
     << emu::max_shared_per_block / 1024 << " KiB shared memory per block; block order " << (order ? order : "index")
     << "; streams " << emu::streams_mode() << ", stream-order checker " << (emu::checker_on() ? "on" : "off")
     << "; vendor libraries (CUB, cuBLAS, NCCL) are not emulated: Weft's portable kernels run instead)";
  return true;
}
void EmuApi::before_host_free(const void* p, std::size_t bytes, std::string_view label) {
  host_space_free_check(p, bytes, label);
}

template struct gpu_rt::Front<EmuApi>;
void register_backend_gpuemu() {
  GpuEmuFront::register_backend();
  emu::register_memory_model_report();
}
CachingPool& gpuemu_pool() { return gpu_rt::Runtime<EmuApi>::pool(); }

void host_space_access_check(const char* label, const void* p, std::size_t bytes) {
  if (!emu::t_thread) {
    gpuemu_host_view_access(label, p, bytes);  // host code: checked as pinned and managed memory are
    return;
  }
  const std::string msg = std::string("View \"") + label +
                          "\" lives in HostSpace but was accessed in a device kernel, which fails on a GPU; allocate "
                          "it in the kernel's memory space or copy it there "
                          "(weft::create_mirror_view_and_copy(weft::GpuEmuSpace(), view))";
  emu::report(msg.c_str());  // names the kernel, block and thread
}
void host_space_free_check(const void* p, std::size_t bytes, std::string_view label) {
  if (emu::host_reachable_pending()) [[unlikely]]
    emu::host_free(p, bytes, std::string(label).c_str());
}
void host_copy_check(const void* d, const void* s, std::size_t bytes) {
  if (emu::t_thread || !emu::host_reachable_pending()) return;
  emu::host_access(s, bytes, false, nullptr, "a host-side copy (deep_copy)");
  emu::host_access(d, bytes, true, nullptr, "a host-side copy (deep_copy)");
}
void note_kernel_access(const void* p, std::size_t bytes, bool write, std::string_view label) {
  emu::note_next_kernel_access(p, bytes, write, std::string(label).c_str());
}
}  // namespace impl

}  // namespace weft
