// The GpuEmu backend's runtime: its memory space and default instance.
#include <cstdlib>
#include <ostream>
#include <string>

#include <weft/emu/space.hpp>
#include <weft/error.hpp>
#include <weft/gpu/pool.hpp>

namespace weft {

namespace impl {
CachingPool& gpuemu_pool() {
  static CachingPool pool(
      "GpuEmuSpace", [](std::size_t b) { return std::aligned_alloc(256, (b + 255) / 256 * 256); },
      [](void* p) { std::free(p); });
  return pool;
}
}  // namespace impl

void* GpuEmuSpace::allocate(std::size_t bytes, std::string_view label) const {
  if (bytes == 0) return nullptr;
  void* p = impl::gpuemu_pool().allocate(bytes);
  if (!p)
    impl::throw_error("weft::GpuEmuSpace: allocating " + std::to_string(bytes) + " bytes for " + impl::quote(label) +
                      " failed (out of memory); use smaller extents or free other Views first");
  return p;
}
void GpuEmuSpace::deallocate(void* ptr, std::size_t bytes, std::string_view) const {
  impl::gpuemu_pool().deallocate(ptr, bytes);
}

void GpuEmuSpace::impl_host_access_abort(const char* label) {
  std::string msg = std::string("View \"") + label +
                    "\" lives in GpuEmuSpace (device memory) but was accessed from host code; copy it to a host "
                    "mirror first (weft::create_mirror_view_and_copy(weft::HostSpace(), view))";
  impl::abort_with(msg.c_str());
}

namespace impl {
void host_space_kernel_access_check(const char* label) {
  if (!emu::t_thread) return;
  const std::string msg = std::string("View \"") + label +
                          "\" lives in HostSpace but was accessed in a device kernel, which fails on a GPU; allocate "
                          "it in the kernel's memory space or copy it there "
                          "(weft::create_mirror_view_and_copy(weft::GpuEmuSpace(), view))";
  emu::report(msg.c_str());  // names the kernel, block and thread
}

HostInstance* g_gpuemu_default_instance = nullptr;
HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads);

void gpuemu_initialize() { host_default_instance(g_gpuemu_default_instance, "GpuEmu", 1); }
void gpuemu_print_configuration(std::ostream& os) {
  os << "  GpuEmu: SIMT emulator, " << emu::multiprocessor_count() << " emulated multiprocessors (CPU threads), "
     << "warp size 32, " << emu::max_shared_per_block / 1024 << " KiB shared memory per block; block order "
     << (std::getenv("WEFT_EMU_BLOCK_ORDER") ? std::getenv("WEFT_EMU_BLOCK_ORDER") : "index")
     << "; vendor libraries (CUB, cuBLAS, NCCL) are not emulated: Weft's portable kernels run instead\n";
  const PoolStats st = gpuemu_pool().stats();
  os << "  GpuEmuSpace allocator: " << (gpuemu_pool().enabled() ? "caching pool" : "direct (WEFT_ALLOCATOR=direct)")
     << ", high-water mark " << st.high_water << " bytes, " << st.hits << " reuses, " << st.misses << " allocations\n";
}
}  // namespace impl
}  // namespace weft
