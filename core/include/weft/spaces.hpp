// Memory spaces, memory traits, space traits and the host execution-space instance handle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include <weft/config.hpp>
#include <weft/impl/default_host_space.hpp>  // generated from backends/default_host_space.hpp.in
#include <weft/initialize.hpp>
#include <weft/macros.hpp>

namespace weft {

class HostSpace;

// ---- memory traits -------------------------------------------------------------------------
/// Aligned (Kokkos's flag) is accepted and changes nothing: Weft's allocations are aligned already.
enum MemoryTraitsFlags : unsigned { Unmanaged = 1u, RandomAccess = 2u, Atomic = 4u, Restrict = 8u, Aligned = 16u };
template <unsigned Flags>
struct MemoryTraits {
  using memory_traits = MemoryTraits;
  static constexpr unsigned impl_value = Flags;
  static constexpr bool is_unmanaged = (Flags & Unmanaged) != 0;
  static constexpr bool is_random_access = (Flags & RandomAccess) != 0;
  static constexpr bool is_atomic = (Flags & Atomic) != 0;
  static constexpr bool is_restrict = (Flags & Restrict) != 0;
  static constexpr bool is_aligned = (Flags & Aligned) != 0;
};
using MemoryManaged = MemoryTraits<0>;
using MemoryUnmanaged = MemoryTraits<Unmanaged>;
using MemoryRandomAccess = MemoryTraits<RandomAccess>;

// ---- space traits ----------------------------------------------------------------------------
template <class T>
concept ExecutionSpace = requires {
  typename T::execution_space;
}
&&std::is_same_v<typename T::execution_space, T>&& requires(const T& e) { e.fence(); };
template <class T>
concept MemorySpace = requires {
  typename T::memory_space;
}
&&std::is_same_v<typename T::memory_space, T> && !ExecutionSpace<T>;
template <class T>
inline constexpr bool is_execution_space_v = ExecutionSpace<T>;
template <class T>
inline constexpr bool is_memory_space_v = MemorySpace<T>;

/// Serial(NewInstance{}): a new instance of a space rather than the default one (Kokkos's tag).
struct NewInstance {
  explicit NewInstance() = default;
};

/// A (execution space, memory space) pair, as in Kokkos.
template <class Exec, class Mem>
struct Device {
  using execution_space = typename Exec::execution_space;
  using memory_space = typename Mem::memory_space;
  using device_type = Device;
};

namespace impl {
/// Whether code running in `Space` (an execution or memory space) can dereference `Mem`'s memory.
/// Backends specialize this; host memory spaces are all mutually accessible.
template <class Space, class Mem>
struct accessible : std::false_type {};
template <class Space, class Mem>
requires(std::is_same_v<typename Space::memory_space, typename Mem::memory_space>) struct accessible<Space, Mem>
    : std::true_type {
};
}  // namespace impl

/// Kokkos' SpaceAccessibility<Access, Mem>::accessible.
template <class Access, class Mem>
struct SpaceAccessibility {
  static constexpr bool accessible = impl::accessible<Access, typename Mem::memory_space>::value;
  static constexpr bool assignable = std::is_same_v<typename Access::memory_space, typename Mem::memory_space>;
  using space = std::conditional_t<accessible, typename Access::memory_space, HostSpace>;
};
// ---- the host memory space -----------------------------------------------------------------
/// Host memory (64-byte aligned); in host-only builds SharedSpace and SharedHostPinnedSpace alias it.
#if WEFT_IMPL_ACCESS_HOOKS
namespace impl {
/// In a GpuEmu kernel, aborts naming the View; in host code, checks the access against queued emulated work.
void host_space_access_check(const char* label, const void* p, std::size_t bytes);
/// Checks that no queued, unordered work of the emulated streams still touches memory the host frees.
void host_space_free_check(const void* p, std::size_t bytes, std::string_view label);
/// A host-side copy from s to d (deep_copy between host-reachable memory): checked against queued work.
void host_copy_check(const void* d, const void* s, std::size_t bytes);
/// Memory the next device kernel launched from this thread touches through raw pointers (checker).
void note_kernel_access(const void* p, std::size_t bytes, bool write, std::string_view label);
}  // namespace impl
#include <weft/impl/data_hook.hpp>  // View::data() in a GpuEmu kernel: the checker's raw-pointer hook
#else
#define WEFT_IMPL_NOTE_DATA(p)
#define WEFT_IMPL_SUBVIEW_DATA(v) v.data()
#endif
class HostSpace {
 public:
  using memory_space = HostSpace;
  /// DefaultHostExecutionSpace, as in Kokkos (declared ahead in a generated header).
  using execution_space = impl::default_host_execution_space;
  using device_type = Device<execution_space, HostSpace>;
  using size_type = std::size_t;
  static constexpr const char* name() { return "HostSpace"; }
  void* allocate(std::size_t bytes, std::string_view label = {}) const;
  void deallocate(void* ptr, std::size_t bytes, std::string_view label = {}) const;
  static constexpr bool impl_host_accessible = true;
#if WEFT_IMPL_ACCESS_HOOKS
  /// Called by View accesses when bounds checks are on: a GpuEmu kernel, like a GPU's, cannot reach host
  /// memory, so a host View captured in a device kernel stops there instead of working by accident.
  static void impl_check_access(const char* label, const void* p, std::size_t bytes) {
    impl::host_space_access_check(label, p, bytes);
  }
#endif
};

namespace impl {
template <class M>
concept HostAccessibleSpace = requires {
  M::impl_host_accessible;
}
&&M::impl_host_accessible;
template <class A, class B>
requires(HostAccessibleSpace<typename A::memory_space>&& HostAccessibleSpace<B> &&
         !std::is_same_v<typename A::memory_space, B>) struct accessible<A, B> : std::true_type {
};

// ---- host execution-space instances -------------------------------------------------------------
/// The state of one instance of a host execution space. Host backends finish each dispatch before it
/// returns, so work that happens-before a fence has already completed: a fence on a host instance only
/// orders memory. Concurrent dispatches on one instance from different host threads run concurrently.
struct HostInstance {
  int refcount;  // not counted for a space's default instance, which lives as long as the program
  std::uint32_t id;
  int nthreads;
  const char* space_name;
  bool is_default;
  /// While a dispatch runs on the instance (HostInstanceTurn), the running thread's token (host_turn_token()), else
  /// 0: the instance's kernels run one after the other, as Kokkos's.
  std::uintptr_t busy = 0;
};
HostInstance* host_instance_create(const char* space_name, int nthreads);
void host_instance_release(HostInstance* p) noexcept;
/// A fence waits for a kernel another thread is running on the instance (outside a kernel: inside one, the
/// instance is the caller's own), then orders memory (backends/host/src/host.cpp).
void host_instance_fence(HostInstance* p) noexcept;
/// The calling thread's token for HostInstance::busy (the address of a thread_local: never 0, unique while it runs).
inline std::uintptr_t host_turn_token() noexcept {
  static thread_local char token;
  return reinterpret_cast<std::uintptr_t>(&token);
}

/// Reference-counted handle that Serial and OpenMP hold.
class HostInstanceHandle {
 public:
  HostInstanceHandle() = default;
  explicit HostInstanceHandle(HostInstance* p) : p_(p) { retain(); }
  HostInstanceHandle(const HostInstanceHandle& o) : p_(o.p_) { retain(); }
  HostInstanceHandle& operator=(const HostInstanceHandle& o) {
    if (p_ != o.p_) {
      HostInstanceHandle tmp(o);
      std::swap(p_, tmp.p_);
    }
    return *this;
  }
  ~HostInstanceHandle() {
    if (p_ && !p_->is_default) host_instance_release(p_);
  }
  HostInstance* get() const { return p_; }

 private:
  void retain() {
    if (p_ && !p_->is_default) __atomic_fetch_add(&p_->refcount, 1, __ATOMIC_RELAXED);
  }
  HostInstance* p_ = nullptr;
};

/// Set on every thread while it runs a host parallel region: View copies made there are not
/// reference counted, and nested dispatches run inline.
inline thread_local bool t_in_host_parallel = false;

/// Set on a thread while it runs GpuEmu's kernels: there View handles behave as in a GPU's device code, where a
/// handle never holds a reference (copies are not counted, and destroying one, e.g. an element of a View of Views
/// in device memory, releases nothing).
inline thread_local bool t_in_device_kernel = false;

/// The calling thread's index in the host parallel region it runs: OpenMP's thread number, 0 on Serial and outside
/// any region. A nested dispatch that runs inline keeps its thread's index. UniqueToken and ScatterView's per-thread
/// copies use it.
inline thread_local int t_host_thread_index = 0;

/// Marks the calling thread as running a host parallel region; the outermost scope of a thread also sets its index
/// in the region (when given one).
struct HostParallelScope {
  bool saved;
  int saved_index;
  explicit HostParallelScope(int index = -1) : saved(t_in_host_parallel), saved_index(t_host_thread_index) {
    t_in_host_parallel = true;
    if (!saved && index >= 0) t_host_thread_index = index;
  }
  ~HostParallelScope() {
    t_in_host_parallel = saved;
    t_host_thread_index = saved_index;
  }
};

}  // namespace impl
}  // namespace weft
