// weft::GpuEmu and its memory spaces (GpuEmuSpace, GpuEmuHostPinnedSpace, GpuEmuUVMSpace), and the emulator's
// vendor shim that backends/gpu/ launches its kernels through. Shaped as weft::Cuda and CudaVendor: instances
// own streams of the emulated runtime (<weft/emu/runtime.hpp>), kernels and copies are enqueued on them, and
// the host side is gpu_rt::Runtime<EmuApi> (backends/emu/src/gpuemu.cpp), the template CUDA and HIP use.
#pragma once

#include <weft/impl/tools.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <weft/emu/context.hpp>
#include <weft/emu/runtime.hpp>
#include <weft/gpu/front.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

class GpuEmu;

namespace impl {
/// The emulated runtime (<weft/emu/runtime.hpp>) as backends/gpu's shared runtime and front classes see it.
struct EmuApi {
  using execution_space = GpuEmu;
  using stream_t = emu::stream_t;
  using error_t = emu::Status;
  using event_t = emu::event_t;
  static constexpr error_t success = emu::Status::success;
  static constexpr const char* backend = "GpuEmu";
  static constexpr const char* device_space = "GpuEmuSpace";
  static constexpr const char* architectures = "emu";
  static constexpr const char* architectures_option = "WEFT_ENABLE_GPU_EMULATION";
  static constexpr const char* no_device_advice = "the emulator always has a device";
  static const char* error_name(error_t e) { return emu::status_name(e); }
  static const char* error_string(error_t e) { return emu::status_string(e); }
  static error_t get_last_error() { return emu::get_last_error(); }
  static error_t device_count(int* n) {
    *n = emu::device_count();
    return success;
  }
  static error_t set_device(int d) { return d >= 0 && d < emu::device_count() ? success : emu::Status::invalid_value; }
  static error_t device_sync() { return emu::device_sync(); }
  static int multiprocessor_count(int) { return emu::multiprocessor_count(); }
  static std::size_t shared_per_block(int) { return emu::max_shared_per_block; }
  static std::string arch(int) { return "emu"; }
  static bool describe(std::ostream& os, int d);
  static error_t stream_create(stream_t* s) { return emu::stream_create(s, emu::stream_non_blocking); }
  static void stream_destroy(stream_t s) { (void)emu::stream_destroy(s); }
  static error_t stream_sync(stream_t s) { return emu::stream_sync(s); }
  static error_t memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
    return emu::memcpy_async(dst, src, bytes, s);
  }
  static error_t memset_async(void* p, int v, std::size_t bytes, stream_t s) {
    return emu::memset_async(p, v, bytes, s);
  }
  static error_t malloc(void** p, std::size_t bytes) { return emu::malloc_device(p, bytes); }
  static void free(void* p) { (void)emu::free_device(p); }
  static error_t malloc_host(void** p, std::size_t bytes) { return emu::malloc_host(p, bytes); }
  static void free_host(void* p) { (void)emu::free_host(p); }
  static error_t malloc_managed(void** p, std::size_t bytes) { return emu::malloc_managed(p, bytes); }
  static void free_managed(void* p) { (void)emu::free_host(p); }
  /// Pinned and managed memory the host frees: no queued, unordered work may still touch it (the checker).
  static void before_host_free(const void* p, std::size_t bytes, std::string_view label);
  static error_t event_create(event_t* e) { return emu::event_create(e); }
  static error_t event_record(event_t e, stream_t s) { return emu::event_record(e, s); }
  static error_t event_query(event_t e) { return emu::event_query(e); }
  static error_t event_sync(event_t e) { return emu::event_sync(e); }
  static void event_destroy(event_t e) { (void)emu::event_destroy(e); }
  static error_t mem_get_info(std::size_t* free_b, std::size_t* total_b) { return emu::mem_get_info(free_b, total_b); }
};
using GpuEmuFront = gpu_rt::Front<EmuApi>;
inline void gpuemu_check(emu::Status e, const char* what, std::string_view label = {}) {
  GpuEmuFront::check(e, what, label);
}
/// A host access through a View of host-reachable memory: checked against queued, unordered work.
inline void gpuemu_host_view_access(const char* label, const void* p, std::size_t bytes) {
  if (!emu::t_thread && emu::host_reachable_pending()) [[unlikely]]
    emu::host_access(p, bytes, false, label, "the host");
}
class CachingPool;
/// The caching allocator behind GpuEmuSpace (Runtime<EmuApi>'s device pool, see <weft/gpu/pool.hpp>).
CachingPool& gpuemu_pool();
}  // namespace impl

/// Device memory of the emulated GPU. Code outside a GpuEmu kernel may not dereference it through a
/// View: with bounds checks on, doing so aborts with the View's label (as a segfault would on a GPU).
class GpuEmuSpace : public impl::gpu_rt::DeviceSpace<GpuEmuSpace, impl::EmuApi> {
 public:
  static constexpr const char* name() { return "GpuEmuSpace"; }
  /// Called by View accesses when bounds checks are on: only code in a GpuEmu kernel may dereference it.
  static bool impl_access_allowed() { return impl::emu::t_thread != nullptr; }
  [[noreturn]] static void impl_host_access_abort(const char* label) {
    impl::GpuEmuFront::host_access_abort(name(), label);
  }
  /// GpuEmu's memory model: an element access through a View in a kernel.
  __attribute__((always_inline)) static void impl_note_access(const void* p, std::size_t bytes) {
    impl::emu::model_access(p, bytes);
  }
  /// The stream-order checker: View::data() in a kernel (the pointer may reach any element of the View).
  __attribute__((always_inline)) static void impl_note_data(const void* p, std::size_t bytes) {
    impl::emu::data_access(p, bytes);
  }
};

/// Page-locked host memory of the emulated runtime: host code and GpuEmu kernels both read it.
class GpuEmuHostPinnedSpace : public impl::gpu_rt::PinnedSpace<GpuEmuHostPinnedSpace, impl::EmuApi> {
 public:
  static constexpr const char* name() { return "GpuEmuHostPinnedSpace"; }
  static void impl_check_access(const char* label, const void* p, std::size_t bytes) {
    impl::gpuemu_host_view_access(label, p, bytes);
  }
  /// GpuEmu's memory model: an element access through a View in a kernel.
  __attribute__((always_inline)) static void impl_note_access(const void* p, std::size_t bytes) {
    impl::emu::model_access(p, bytes);
  }
  /// The stream-order checker: View::data() in a kernel (the pointer may reach any element of the View).
  __attribute__((always_inline)) static void impl_note_data(const void* p, std::size_t bytes) {
    impl::emu::data_access(p, bytes);
  }
};

/// Managed memory of the emulated runtime (as CudaUVMSpace): host code and GpuEmu kernels both read it.
class GpuEmuUVMSpace : public impl::gpu_rt::ManagedSpace<GpuEmuUVMSpace, impl::EmuApi> {
 public:
  static constexpr const char* name() { return "GpuEmuUVMSpace"; }
  static void impl_check_access(const char* label, const void* p, std::size_t bytes) {
    impl::gpuemu_host_view_access(label, p, bytes);
  }
  /// GpuEmu's memory model: an element access through a View in a kernel.
  __attribute__((always_inline)) static void impl_note_access(const void* p, std::size_t bytes) {
    impl::emu::model_access(p, bytes);
  }
  /// The stream-order checker: View::data() in a kernel (the pointer may reach any element of the View).
  __attribute__((always_inline)) static void impl_note_data(const void* p, std::size_t bytes) {
    impl::emu::data_access(p, bytes);
  }
};

namespace impl {
struct EmuVendor;
}

/// The emulated GPU's execution space: an instance owns a stream of the emulated runtime (or uses the user's,
/// as Cuda(cudaStream_t)).
class GpuEmu : public impl::gpu_rt::Execution<GpuEmu, impl::EmuApi, GpuEmuSpace> {
 public:
  using Execution::Execution;
  using impl_vendor = impl::EmuVendor;
  static bool in_parallel() { return impl::emu::t_thread != nullptr; }
  /// A slot in [0, concurrency()) for the calling thread, for per-thread counters (Kokkos's host spaces have it
  /// and Weft's do; Kokkos's Cuda has none): inside a kernel, the emulated thread's index in the grid modulo
  /// concurrency(), as the GPU would seat resident threads; 0 outside a kernel.
  static int impl_hardware_thread_id() {
    const impl::emu::ThreadContext* t = impl::emu::t_thread;
    if (t == nullptr) return 0;
    const std::uint64_t block = t->block_idx.x + std::uint64_t(t->grid_dim.x) *
                                                     (t->block_idx.y + std::uint64_t(t->grid_dim.y) * t->block_idx.z);
    const std::uint64_t threads = std::uint64_t(t->block_dim.x) * t->block_dim.y * t->block_dim.z;
    return static_cast<int>((block * threads + t->linear) %
                            (std::uint64_t(impl::gpu_rt::Front<impl::EmuApi>::multiprocessor_count()) * 2048));
  }
  /// GpuEmu's memory model: an access through a team scratch View (shared memory at level 0, global at 1).
  __attribute__((always_inline)) static void impl_note_access(const void* p, std::size_t bytes) {
    impl::emu::model_access(p, bytes);
  }
};

namespace impl {
template <>
struct accessible<GpuEmu, GpuEmuHostPinnedSpace> : std::true_type {};
template <>
struct accessible<GpuEmu, GpuEmuUVMSpace> : std::true_type {};

/// The emulator's vendor shim of backends/gpu/, shaped as CudaVendor: a launch copies the kernel object (as a
/// GPU copies kernel arguments; the copy holds no View references) and enqueues it on the instance's stream.
struct EmuVendor : gpu_rt::VendorBase<GpuEmu, EmuApi> {
  static constexpr int blocks_per_multiprocessor = 2;
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const GpuEmu& exec, const char* label, const Shape& s, const K& k) {
    prepare_launch<LB>(label, s);
    std::vector<emu::Access> accesses = emu::take_next_kernel_accesses();
    std::shared_ptr<const K> args;
    {
      emu::CaptureScope capture(accesses);  // the Views the kernel captured, and what it may write
      args = std::make_shared<const K>(k);
    }
    const emu::Dim3 grid{s.grid.x, s.grid.y, s.grid.z}, block{s.block.x, s.block.y, s.block.z};
    const std::size_t shared = s.shared_bytes;
    std::shared_ptr<std::vector<emu::ModelView>> views;
    if (emu::memory_model_on()) {  // the memory model names global requests by the View they fall in
      views = std::make_shared<std::vector<emu::ModelView>>();
      for (const emu::Access& a : accesses) views->push_back({a.begin, a.bytes, a.label});
    }
    const emu::Status status = emu::launch_kernel(
        exec.impl_stream(), label, grid, block, shared,
        [args, views, name = std::string(label), grid, block, shared] {
          emu::launch(
              name.c_str(), grid, block, shared, [](const void* p) { (*static_cast<const K*>(p))(); }, args.get(),
              views.get());
        },
        std::move(accesses));
    if (status != emu::Status::success) [[unlikely]] {
      (void)emu::get_last_error();  // reported here, as cudaGetLastError after a launch
      GpuEmuFront::fail(status, "launching a kernel", label);
    }
  }
};
}  // namespace impl
}  // namespace weft
