// weft::GpuEmu: the device backend that runs Weft's GPU kernels (backends/gpu/) on CPU threads through
// the SIMT emulator, and its memory space GpuEmuSpace, which host code may not read through Views.
#pragma once

#include <weft/impl/tools.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <weft/emu/context.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

class GpuEmu;

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
  /// Called by View accesses when bounds checks are on.
  static void impl_check_access(const char* label) {
    if (!impl::emu::t_thread) impl_host_access_abort(label);
  }
  [[noreturn]] static void impl_host_access_abort(const char* label);
  /// Copies between this space and any other (the emulated device shares the host's address space).
  static void impl_copy_bytes(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
};

namespace impl {
class CachingPool;
/// The caching allocator behind GpuEmuSpace (see <weft/gpu/pool.hpp>).
CachingPool& gpuemu_pool();
struct EmuVendor;
extern HostInstance* g_gpuemu_default_instance;
}  // namespace impl

class GpuEmu {
 public:
  using execution_space = GpuEmu;
  using memory_space = GpuEmuSpace;
  using device_type = Device<GpuEmu, GpuEmuSpace>;
  using size_type = std::size_t;
  using array_layout = LayoutLeft;  // as Kokkos' GPU backends: coalesced for i-fastest loops
  using scratch_memory_space = ScratchMemorySpace<GpuEmu>;
  using impl_vendor = impl::EmuVendor;
  static constexpr bool impl_is_host_space = false;

  GpuEmu() : h_(impl::g_gpuemu_default_instance) {}
  static GpuEmu impl_create_instance(int = 1) { return GpuEmu(impl::host_instance_create("GpuEmu", 1)); }
  static constexpr const char* name() { return "GpuEmu"; }
  /// Threads the emulated device keeps resident: multiprocessors x 2048.
  int concurrency() const { return impl::emu::multiprocessor_count() * 2048; }
  void fence(std::string_view label = {}) const {
    impl::tools::FenceScope profile(label, impl_instance_id());
    impl::count_instance_fence();
    if (h_.get()) impl::host_instance_fence(h_.get());
  }
  static bool in_parallel() { return impl::emu::t_thread != nullptr; }
  std::uint32_t impl_instance_id() const { return h_.get() ? h_.get()->id : 0; }
  impl::HostInstance* impl_instance() const { return h_.get(); }
  friend bool operator==(const GpuEmu& a, const GpuEmu& b) { return a.h_.get() == b.h_.get(); }

 private:
  explicit GpuEmu(impl::HostInstance* fresh) : h_(fresh) { impl::host_instance_release(fresh); }
  impl::HostInstanceHandle h_;
};

namespace impl {
/// The emulator's vendor shim for backends/gpu/: launches run to completion before returning, device
/// scratch is host memory (the emulated device shares the address space).
struct EmuVendor {
  static constexpr int blocks_per_multiprocessor = 2;
  static int multiprocessor_count() { return emu::multiprocessor_count(); }
  static std::size_t shared_per_block() { return emu::max_shared_per_block; }
  /// TeamPolicy AUTO keeps the recommended team size here.
  template <class K, class LB = LaunchBounds<>, class SharedFn>
  static int occupancy_block(const SharedFn&, int fallback) {
    return fallback;
  }
  template <class LB = LaunchBounds<>, class Shape, class K>
  static void launch(const GpuEmu&, const char* label, const Shape& s, const K& k) {
    if (impl::tools::g_print_launches) [[unlikely]]
      impl::tools::print_launch(label, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, s.shared_bytes);
    check_launch_bounds<LB>(label, s.threads());
    emu::launch(
        label, {s.grid.x, s.grid.y, s.grid.z}, {s.block.x, s.block.y, s.block.z}, s.shared_bytes,
        [](const void* p) { (*static_cast<const K*>(p))(); }, &k);
  }
  static void* scratch_allocate(std::size_t bytes) {
    return GpuEmuSpace().allocate(bytes > 0 ? bytes : 1, "weft scratch");
  }
  static void scratch_free(void* p, std::size_t bytes) { GpuEmuSpace().deallocate(p, bytes, "weft scratch"); }
  static void memset(const GpuEmu&, void* p, int v, std::size_t bytes) { std::memset(p, v, bytes); }
  /// Host memory the reduction kernel copies its result to (plain host memory: the emulator runs on the host).
  static void* host_result_allocate(std::size_t bytes) { return ::operator new(bytes > 0 ? bytes : 1); }
  static void host_result_free(void* p, std::size_t) { ::operator delete(p); }
  /// Hands a reduction's result (host memory; the kernel has finished) to the adaptor.
  template <class Adaptor, class V>
  static void deliver(const GpuEmu&, const Adaptor& a, const V* host_result, int) {
    a.store(host_result);
  }
};
}  // namespace impl
}  // namespace weft
