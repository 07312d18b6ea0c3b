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

namespace weft {
namespace impl {
namespace {
struct EmuApi {
  using stream_t = emu::stream_t;
  using error_t = emu::Status;
  static constexpr error_t success = emu::Status::success;
  static constexpr const char* backend = "GpuEmu";
  static constexpr const char* device_space = "GpuEmuSpace";
  static constexpr const char* architectures = "emu";
  static constexpr const char* architectures_option = "WEFT_ENABLE_GPU_EMULATION";
  static constexpr const char* no_device_advice = "the emulator always has one device";
  static const char* error_name(error_t e) { return emu::status_name(e); }
  static const char* error_string(error_t e) { return emu::status_string(e); }
  static error_t get_last_error() { return emu::get_last_error(); }
  static error_t device_count(int* n) {
    *n = 1;
    return success;
  }
  static error_t set_device(int d) { return d == 0 ? success : emu::Status::invalid_value; }
  static error_t device_sync() { return emu::device_sync(); }
  static int multiprocessor_count(int) { return emu::multiprocessor_count(); }
  static std::size_t shared_per_block(int) { return emu::max_shared_per_block; }
  static std::string arch(int) { return "emu"; }
  static bool describe(std::ostream& os, int) {
    const char* order = std::getenv("WEFT_EMU_BLOCK_ORDER");
    os << "(SIMT emulator, " << emu::multiprocessor_count() << " emulated multiprocessors (CPU threads), warp size 32, "
       << emu::max_shared_per_block / 1024 << " KiB shared memory per block; block order " << (order ? order : "index")
       << "; streams " << emu::streams_mode() << ", stream-order checker " << (emu::checker_on() ? "on" : "off")
       << "; vendor libraries (CUB, cuBLAS, NCCL) are not emulated: Weft's portable kernels run instead)";
    return true;
  }
  static error_t stream_create(stream_t* s) { return emu::stream_create(s, emu::stream_non_blocking); }
  static void stream_destroy(stream_t s) { (void)emu::stream_destroy(s); }
  static error_t stream_sync(stream_t s) { return emu::stream_sync(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return emu::memcpy_async(dst, src, bytes, s);
  }
  static error_t malloc(void** p, std::size_t bytes) { return emu::malloc_device(p, bytes); }
  static void free(void* p) { (void)emu::free_device(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return emu::malloc_host(p, bytes); }
  static void free_host(void* p) { (void)emu::free_host(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return emu::malloc_managed(p, bytes); }
  using event_t = emu::event_t;
  static error_t event_create(event_t* e) { return emu::event_create(e); }
  static error_t event_record(event_t e, stream_t s) { return emu::event_record(e, s); }
  static error_t event_query(event_t e) { return emu::event_query(e); }
  static error_t event_sync(event_t e) { return emu::event_sync(e); }
  static void event_destroy(event_t e) { (void)emu::event_destroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return emu::mem_get_info(free_b, total_b); }
};
using R = gpu_rt::Runtime<EmuApi>;
}  // namespace

GpuEmuInstance* g_gpuemu_default_instance = nullptr;
CachingPool& gpuemu_pool() { return R::pool(); }

void gpuemu_throw(emu::Status e, const char* what, std::string_view label) { R::fail(e, what, label); }
void gpuemu_check_launch(emu::Status e, const char* label) {
  if (e != emu::Status::success) [[unlikely]] {
    (void)emu::get_last_error();
    R::fail(e, "launching a kernel", label);
  }
}
void gpuemu_copy_bytes(void* dst, const void* src, std::size_t bytes, emu::stream_t stream, bool wait) {
  R::copy_bytes(dst, src, bytes, stream, wait);
}
emu::stream_t gpuemu_default_stream() { return R::default_instance ? R::default_instance->stream : nullptr; }
GpuEmuInstance* gpuemu_instance_create(emu::stream_t stream, bool owned) { return R::instance_create(stream, owned); }
void gpuemu_instance_release(GpuEmuInstance* p) noexcept { R::instance_release(p); }
int gpuemu_multiprocessor_count() { return emu::multiprocessor_count(); }
std::size_t gpuemu_shared_per_block() { return R::shared_per_block; }

void* gpuemu_scratch_allocate(std::size_t bytes, emu::stream_t stream) {
  return R::allocate_scratch(bytes > 0 ? bytes : 1, stream);
}
void gpuemu_scratch_free(void* p, std::size_t bytes, emu::stream_t stream) noexcept {
  R::free_scratch(p, bytes > 0 ? bytes : 1, stream);
}
void* gpuemu_result_allocate(std::size_t bytes) { return R::allocate_result_pinned(bytes > 0 ? bytes : 1); }
void gpuemu_result_free(void* p, std::size_t bytes, emu::stream_t stream) noexcept {
  R::free_result_pinned(p, bytes > 0 ? bytes : 1, stream);
}

void gpu_initialize(int device_id) {
  R::initialize(device_id);
  g_gpuemu_default_instance = R::default_instance;
}
void gpu_fence_all() { R::fence_all(); }
void gpu_finalize() { R::finalize(); }
void gpu_print_configuration(std::ostream& os) { R::print_configuration(os); }

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

void* GpuEmuSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_device(bytes, label);
}
void GpuEmuSpace::deallocate(void* ptr, std::size_t bytes, std::string_view) const {
  impl::R::pool().deallocate(ptr, bytes);
}
void GpuEmuSpace::impl_host_access_abort(const char* label) {
  std::string msg = std::string("View \"") + label +
                    "\" lives in GpuEmuSpace (device memory) but was accessed from host code; copy it to a host "
                    "mirror first (weft::create_mirror_view_and_copy(weft::HostSpace(), view))";
  impl::abort_with(msg.c_str());
}
void* GpuEmuHostPinnedSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_host_pinned(bytes, label);
}
void GpuEmuHostPinnedSpace::deallocate(void* ptr, std::size_t bytes, std::string_view label) const {
  impl::host_space_free_check(ptr, bytes, label);
  impl::EmuApi::free_host(ptr);
}
void* GpuEmuUVMSpace::allocate(std::size_t bytes, std::string_view label) const {
  return impl::R::allocate_managed(bytes, label);
}
void GpuEmuUVMSpace::deallocate(void* ptr, std::size_t bytes, std::string_view label) const {
  impl::host_space_free_check(ptr, bytes, label);
  impl::EmuApi::free_host(ptr);
}

}  // namespace weft
