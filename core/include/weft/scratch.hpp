// ScratchMemorySpace: the per-team / per-thread scratch a TeamPolicy reserves (levels 0 and 1).
#pragma once

#include <cstdio>

#include <cstddef>
#include <cstdint>

#include <weft/config.hpp>
#include <weft/error.hpp>
#include <weft/layouts.hpp>
#include <weft/macros.hpp>

namespace weft {

/// A bump allocator over a team's scratch at one level for one league iteration. As in Kokkos, the team's and its
/// threads' scratch are one pool: member.team_scratch(l) hands out blocks every thread of the team shares, and
/// member.thread_scratch(l) gives each thread its own block of the same size, side by side (thread r's at r times
/// the size), all threads advancing together. A policy's per-team and per-thread bytes (and a functor's
/// team_shmem_size) add up to the pool; which of them a kernel takes is its own choice.
template <class ExecSpace>
class ScratchMemorySpace {
 public:
  using memory_space = ScratchMemorySpace;
  using execution_space = ExecSpace;
  using array_layout = LayoutRight;
  using size_type = std::size_t;
  static constexpr bool impl_host_accessible = ExecSpace::impl_is_host_space;
  /// What a scratch View aligns its data to at least (Kokkos's ALIGN); get_shmem itself does not align.
  static constexpr std::size_t alignment = 8;

  ScratchMemorySpace() = default;
  WEFT_INLINE_FUNCTION ScratchMemorySpace(void* base, std::size_t bytes, int level)
      : cur_(static_cast<char*>(base)), end_(static_cast<char*>(base) + bytes), level_(level) {}
  static constexpr const char* name() { return "ScratchMemorySpace"; }
#if WEFT_IMPL_ACCESS_HOOKS
  /// A scratch View's element access, for an execution space that observes them (GpuEmu's memory model).
  template <class X = ExecSpace>
  requires requires(const void* p) { X::impl_note_access(p, std::size_t(0)); }
  WEFT_HOST_FORCEINLINE static void impl_note_access(const void* p, std::size_t bytes) {
    X::impl_note_access(p, bytes);
  }
#endif

  /// Returns the next `bytes` of scratch as they come (no padding: consecutive calls are contiguous, as in Kokkos),
  /// or nullptr when the pool has not that much left (the caller may test it; a scratch View's constructor aborts
  /// naming the level instead).
  WEFT_INLINE_FUNCTION void* get_shmem(std::size_t bytes, int = -1) const { return take(bytes, 1); }
  /// As get_shmem, at an address that is a multiple of `align` (any positive number: a scratch View of 24-byte
  /// elements starts at a multiple of 24).
  WEFT_INLINE_FUNCTION void* get_shmem_aligned(std::size_t bytes, std::size_t align) const {
    return take(bytes, align ? align : 1);
  }
  /// The member's team_scratch(l) and thread_scratch(l) set the mode the next allocations take.
  WEFT_INLINE_FUNCTION const ScratchMemorySpace& impl_team_mode() const {
    offset_ = 0;
    multiplier_ = 1;
    return *this;
  }
  WEFT_INLINE_FUNCTION const ScratchMemorySpace& impl_thread_mode(int rank, int team_size) const {
    offset_ = static_cast<unsigned>(rank);
    multiplier_ = static_cast<unsigned>(team_size);
    return *this;
  }
  WEFT_INLINE_FUNCTION std::size_t impl_remaining() const { return static_cast<std::size_t>(end_ - cur_); }
  /// What a scratch View whose get_shmem found too little left does: print what was asked and abort.
  WEFT_INLINE_FUNCTION void impl_abort_exhausted(std::size_t bytes) const {
    abort_overflow(bytes, static_cast<std::size_t>(end_ - cur_));
  }

 private:
  WEFT_INLINE_FUNCTION void abort_overflow(std::size_t bytes, std::size_t left) const {
    (void)bytes;
    (void)left;
#if WEFT_IMPL_DEVICE_PASS
    printf("weft: team scratch exhausted: asked for %llu bytes with %llu left at level %d\n", (unsigned long long)bytes,
           (unsigned long long)left, level_);
    WEFT_IMPL_DEVICE_TRAP();
#else
    char m[320];
    std::snprintf(m, sizeof m,
                  "team scratch exhausted: a scratch View asked for %llu bytes with %llu left at level %d; raise "
                  "the TeamPolicy's set_scratch_size(level, PerTeam(bytes), PerThread(bytes)) (View::shmem_size(n...) "
                  "gives a View's bytes with its alignment)",
                  (unsigned long long)bytes, (unsigned long long)left, level_);
    impl::abort_with(m);
#endif
  }
  /// Aligns the pool's position, then takes `bytes` for the team (or, in thread mode, `bytes` for each thread:
  /// this thread's are the offset_-th).
  WEFT_INLINE_FUNCTION void* take(std::size_t bytes, std::size_t align) const {
    const auto p = reinterpret_cast<std::uintptr_t>(cur_);
    const std::size_t pad = (align - p % align) % align;
    const std::size_t left = static_cast<std::size_t>(end_ - cur_);
    const std::size_t all = bytes * multiplier_;
    if (pad > left || (multiplier_ > 1 && all / multiplier_ != bytes) || all > left - pad) [[unlikely]]
      return nullptr;
    char* r = cur_ + pad + std::size_t(offset_) * bytes;
    cur_ += pad + all;
    return r;
  }
  mutable char* cur_ = nullptr;
  char* end_ = nullptr;
  int level_ = 0;
  mutable unsigned offset_ = 0;      // thread mode: this thread's rank
  mutable unsigned multiplier_ = 1;  // thread mode: the team size
};

namespace impl {
/// A pointer into a team's scratch whose element accesses the execution space may observe (GpuEmu's memory model
/// counts them as shared-memory requests at level 0); a plain pointer everywhere else. For kernels that work on
/// get_shmem memory through pointer arithmetic (the device sort's tiles).
template <class E, class T>
struct ScratchPtr {
  T* p = nullptr;
  WEFT_INLINE_FUNCTION constexpr ScratchPtr() = default;
  WEFT_INLINE_FUNCTION constexpr ScratchPtr(std::nullptr_t) {}
  WEFT_INLINE_FUNCTION explicit constexpr ScratchPtr(T* q) : p(q) {}
  WEFT_FORCEINLINE_FUNCTION T& operator[](std::int64_t i) const {
#if WEFT_IMPL_ACCESS_HOOKS
    if constexpr (requires { ScratchMemorySpace<E>::impl_note_access(static_cast<const void*>(p), std::size_t(0)); })
      ScratchMemorySpace<E>::impl_note_access(p + i, sizeof(T));
#endif
    return p[i];
  }
  /// Null stays null (an absent buffer offset is still absent).
  WEFT_FORCEINLINE_FUNCTION ScratchPtr operator+(std::int64_t i) const { return p ? ScratchPtr(p + i) : ScratchPtr(); }
  WEFT_FORCEINLINE_FUNCTION explicit operator bool() const { return p != nullptr; }
};
}  // namespace impl

/// set_scratch_size(level, PerTeam(bytes), PerThread(bytes)).
struct PerTeamValue {
  std::size_t value;
};
struct PerThreadValue {
  std::size_t value;
};
inline PerTeamValue PerTeam(std::size_t bytes) { return {bytes}; }
inline PerThreadValue PerThread(std::size_t bytes) { return {bytes}; }

}  // namespace weft
