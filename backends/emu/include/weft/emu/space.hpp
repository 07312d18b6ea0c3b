// weft::GpuEmu and its memory spaces (GpuEmuSpace, GpuEmuHostPinnedSpace, GpuEmuUVMSpace), and the emulator's
// vendor shim that backends/gpu/ launches its kernels through. Shaped as weft::Cuda and CudaVendor: instances
// own streams of the emulated runtime (<weft/emu/runtime.hpp>), kernels and copies are enqueued on them, and
// the host side is gpu_rt::Runtime<EmuApi> (backends/emu/src/gpuemu.cpp), the template CUDA and HIP use.
#pragma once

#include <weft/impl/tools.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <weft/emu/context.hpp>
#include <weft/emu/runtime.hpp>
#include <weft/gpu/runtime.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

class GpuEmu;

namespace impl {
[[noreturn]] void gpuemu_throw(emu::Status e, const char* what, std::string_view label);
inline void gpuemu_check(emu::Status e, const char* what, std::string_view label = {}) {
  if (e != emu::Status::success) [[unlikely]]
    gpuemu_throw(e, what, label);
}
void gpuemu_copy_bytes(void* dst, const void* src, std::size_t bytes, emu::stream_t stream, bool wait);
emu::stream_t gpuemu_default_stream();
/// A host access through a View of host-reachable memory: checked against queued, unordered work.
inline void gpuemu_host_view_access(const char* label, const void* p, std::size_t bytes) {
  if (!emu::t_thread && emu::host_reachable_pending()) [[unlikely]]
    emu::host_access(p, bytes, false, label, "the host");
}
}  // namespace impl

/// Device memory of the emulated GPU. Code outside a GpuEmu kernel may not dereference it through a
/// View: with bounds checks on, doing so aborts with the View's label (as a segfault would on a GPU).
class GpuEmuSpace {
 public:
  using memory_space = GpuEmuSpace;
  using execution_space = GpuEmu;
  using size_type = std::size_t;
  static constexpr const char* name() { return "GpuEmuSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = false;
  /// Called by View accesses when bounds checks are on: only code in a GpuEmu kernel may dereference it.
  static bool impl_access_allowed() { return impl::emu::t_thread != nullptr; }
  [[noreturn]] static void impl_host_access_abort(const char* label);
  /// A blocking copy ordered after the default instance's earlier work (its stream, never the legacy one).
  static void impl_copy_bytes(void* dst, const void* src, std::size_t bytes) {
    impl::gpuemu_copy_bytes(dst, src, bytes, impl::gpuemu_default_stream(), true);
  }
};

/// Page-locked host memory of the emulated runtime: host code and GpuEmu kernels both read it.
class GpuEmuHostPinnedSpace {
 public:
  using memory_space = GpuEmuHostPinnedSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "GpuEmuHostPinnedSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
  static void impl_check_access(const char* label, const void* p, std::size_t bytes) {
    impl::gpuemu_host_view_access(label, p, bytes);
  }
};

/// Managed memory of the emulated runtime (as CudaUVMSpace): host code and GpuEmu kernels both read it.
class GpuEmuUVMSpace {
 public:
  using memory_space = GpuEmuUVMSpace;
  using size_type = std::size_t;
  static constexpr const char* name() { return "GpuEmuUVMSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
  static void impl_check_access(const char* label, const void* p, std::size_t bytes) {
    impl::gpuemu_host_view_access(label, p, bytes);
  }
};

namespace impl {
class CachingPool;
/// The caching allocator behind GpuEmuSpace (Runtime<EmuApi>'s device pool, see <weft/gpu/pool.hpp>).
CachingPool& gpuemu_pool();
struct EmuVendor;
using GpuEmuInstance = gpu_rt::Instance<emu::stream_t>;
extern GpuEmuInstance* g_gpuemu_default_instance;
GpuEmuInstance* gpuemu_instance_create(emu::stream_t stream, bool owned);
void gpuemu_instance_release(GpuEmuInstance* p) noexcept;
int gpuemu_multiprocessor_count();
std::size_t gpuemu_shared_per_block();
}  // namespace impl

class GpuEmu {
  using handle_t = impl::gpu_rt::Handle<impl::emu::stream_t, impl::gpuemu_instance_release>;

 public:
  using execution_space = GpuEmu;
  using memory_space = GpuEmuSpace;
  using device_type = Device<GpuEmu, GpuEmuSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutLeft;  // as Kokkos' GPU backends: coalesced for i-fastest loops
  using scratch_memory_space = ScratchMemorySpace<GpuEmu>;
  using impl_vendor = impl::EmuVendor;
  static constexpr bool impl_is_host_space = false;

  /// The default instance (its own non-blocking stream, created at initialize).
  GpuEmu() : h_(impl::g_gpuemu_default_instance) {}
  /// An instance on the user's stream of the emulated runtime (not destroyed by Weft), as Cuda(cudaStream_t).
  explicit GpuEmu(impl::emu::stream_t stream) : h_(handle_t::adopt(impl::gpuemu_instance_create(stream, false))) {}
  static GpuEmu impl_create_instance(int = 1) {
    return GpuEmu(handle_t::adopt(impl::gpuemu_instance_create(nullptr, true)));
  }
  static constexpr const char* name() { return "GpuEmu"; }
  /// Threads the emulated device keeps resident: multiprocessors x 2048.
  int concurrency() const { return impl::gpuemu_multiprocessor_count() * 2048; }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    impl::gpuemu_check(impl::emu::stream_sync(impl_stream()), "synchronizing the instance's stream", label);
  }
  static bool in_parallel() { return impl::emu::t_thread != nullptr; }
  impl::emu::stream_t impl_stream() const { return h_.stream(); }
  std::uint32_t impl_instance_id() const { return h_.id(); }
  /// Enqueues a byte copy on this instance's stream (deep_copy(exec, ...)); returns at once.
  void impl_copy_bytes_async(void* dst, const void* src, std::size_t bytes) const {
    impl::gpuemu_copy_bytes(dst, src, bytes, impl_stream(), false);
  }
  friend bool operator==(const GpuEmu& a, const GpuEmu& b) { return a.h_ == b.h_; }

 private:
  explicit GpuEmu(handle_t h) : h_(std::move(h)) {}
  handle_t h_;
};

namespace impl {
template <>
struct accessible<GpuEmu, GpuEmuHostPinnedSpace> : std::true_type {};
template <>
struct accessible<GpuEmu, GpuEmuUVMSpace> : std::true_type {};

void* gpuemu_scratch_allocate(std::size_t bytes, emu::stream_t stream);
void gpuemu_scratch_free(void* p, std::size_t bytes, emu::stream_t stream) noexcept;
void* gpuemu_result_allocate(std::size_t bytes);
void gpuemu_result_free(void* p, std::size_t bytes, emu::stream_t stream) noexcept;
void gpuemu_check_launch(emu::Status e, const char* label);

/// The emulator's vendor shim of backends/gpu/, shaped as CudaVendor: a launch copies the kernel object (as a
/// GPU copies kernel arguments; the copy holds no View references) and enqueues it on the instance's stream.
struct EmuVendor {
  static constexpr int blocks_per_multiprocessor = 2;
  static int multiprocessor_count() { return gpuemu_multiprocessor_count(); }
  static std::size_t shared_per_block() { return gpuemu_shared_per_block(); }
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const GpuEmu& exec, const char* label, const Shape& s, const K& k) {
    if (impl::tools::g_print_launches) [[unlikely]]
      impl::tools::print_launch(label, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, s.shared_bytes);
    check_launch_bounds<LB>(label, s.threads());
    std::vector<emu::Access> accesses = emu::take_next_kernel_accesses();
    std::shared_ptr<const K> args;
    {
      emu::CaptureScope capture(accesses);  // the Views the kernel captured, and what it may write
      args = std::make_shared<const K>(k);
    }
    const emu::Dim3 grid{s.grid.x, s.grid.y, s.grid.z}, block{s.block.x, s.block.y, s.block.z};
    const std::size_t shared = s.shared_bytes;
    gpuemu_check_launch(emu::launch_kernel(
                            exec.impl_stream(), label, grid, block, shared,
                            [args, name = std::string(label), grid, block, shared] {
                              emu::launch(
                                  name.c_str(), grid, block, shared,
                                  [](const void* p) { (*static_cast<const K*>(p))(); }, args.get());
                            },
                            std::move(accesses)),
                        label);
  }
  /// TeamPolicy AUTO keeps the recommended team size here.
  template <class K, class LB = LaunchBounds<>, class SharedFn>
  static int occupancy_block(const SharedFn&, int fallback) {
    return fallback;
  }
  /// Kernel scratch of work on exec: freed stream-ordered (no device-wide wait; see CachingPool::deallocate_on).
  static void* scratch_allocate(const GpuEmu& exec, std::size_t bytes) {
    return gpuemu_scratch_allocate(bytes, exec.impl_stream());
  }
  static void scratch_free(const GpuEmu& exec, void* p, std::size_t bytes) {
    gpuemu_scratch_free(p, bytes, exec.impl_stream());
  }
  /// Enqueued on the instance's stream, ordered before the kernel that reads the bytes.
  static void memset(const GpuEmu& exec, void* p, int v, std::size_t bytes) {
    gpuemu_check(emu::memset_async(p, v, bytes, exec.impl_stream()), "memset async");
  }
  /// Pinned host memory the reduction kernel writes its result to (no copy after the kernel).
  static void* host_result_allocate(std::size_t bytes) { return gpuemu_result_allocate(bytes); }
  static void host_result_free(const GpuEmu& exec, void* p, std::size_t bytes) {
    gpuemu_result_free(p, bytes, exec.impl_stream());
  }
  /// Waits for the instance, then hands the result (in pinned memory) to the adaptor.
  template <class Adaptor, class V>
  static void deliver(const GpuEmu& exec, const Adaptor& a, const V* pinned_result, int) {
    gpuemu_check(emu::stream_sync(exec.impl_stream()), "synchronizing a stream (reduction result)");
    a.store(pinned_result);
  }
};
}  // namespace impl
}  // namespace weft
