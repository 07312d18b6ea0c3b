// The team member of the host backends: teams of OpenMP threads (or one Serial thread) with a spin
// barrier, shared reduction slots and level-0/1 scratch.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include <weft/host/barrier.hpp>
#include <weft/impl/team_collectives.hpp>
#include <weft/macros.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>
#include <weft/scratch.hpp>

namespace weft::impl {

inline constexpr std::size_t host_team_slot_bytes = 256;

/// What the threads of one team share for the duration of a dispatch.
struct HostTeamShared {  // placed at 64-byte aligned offsets by HostWork
  HostTeamBarrier barrier;
  char* slots;  // team_size * host_team_slot_bytes, for reductions, scans and broadcasts
  char* scratch[2];
  std::size_t team_scratch[2];
  std::size_t thread_scratch[2];
  std::int64_t next_league;  // Schedule<Dynamic>: the league ranks the team took last (first of the chunk)
};

/// Its members run on host threads only. They are WEFT_INLINE_FUNCTION (host and device in a CUDA or HIP build) so
/// that a WEFT_LAMBDA, which nvcc also compiles for the device, may call them on a host TeamPolicy without nvcc's
/// "calling a __host__ function from a __host__ __device__ function" warnings in the user's code; the device
/// pass of team_barrier, the one host-only call, is a trap that never runs.
template <class ExecSpace>
class HostTeamMember : public TeamCollectives<HostTeamMember<ExecSpace>> {
 public:
  using execution_space = ExecSpace;
  using scratch_memory_space = ScratchMemorySpace<ExecSpace>;

  HostTeamMember(HostTeamShared* shared, std::int64_t league_rank, std::int64_t league_size, int team_rank,
                 int team_size)
      : shared_(shared),
        league_rank_(league_rank),
        league_size_(league_size),
        team_rank_(team_rank),
        team_size_(team_size) {
    for (int l = 0; l < 2; ++l)  // one pool per level for the team and its threads (ScratchMemorySpace)
      scratch_[l] = scratch_memory_space(
          shared->scratch[l], shared->team_scratch[l] + std::size_t(team_size) * shared->thread_scratch[l], l);
  }

  WEFT_INLINE_FUNCTION int league_rank() const { return static_cast<int>(league_rank_); }
  WEFT_INLINE_FUNCTION int league_size() const { return static_cast<int>(league_size_); }
  WEFT_INLINE_FUNCTION int team_rank() const { return team_rank_; }
  WEFT_INLINE_FUNCTION int team_size() const { return team_size_; }
  WEFT_INLINE_FUNCTION const scratch_memory_space& team_scratch(int level) const {
    return scratch_[level].impl_team_mode();
  }
  WEFT_INLINE_FUNCTION const scratch_memory_space& thread_scratch(int level) const {
    return scratch_[level].impl_thread_mode(team_rank_, team_size_);
  }
  WEFT_INLINE_FUNCTION const scratch_memory_space& team_shmem() const { return scratch_[0].impl_team_mode(); }

  WEFT_INLINE_FUNCTION void team_barrier() const {
#if WEFT_IMPL_DEVICE_PASS
    WEFT_IMPL_DEVICE_TRAP();  // never reached: a host team runs on host threads
#else
    if (team_size_ > 1) host_team_barrier_wait(&shared_->barrier, team_size_);
#endif
  }

  /// Every thread gets `value` as held by thread `source`.
  template <class T>
  WEFT_INLINE_FUNCTION void team_broadcast(T& value, int source) const {
    if (team_size_ == 1) return;
    static_assert(sizeof(T) <= host_team_slot_bytes, "weft: team_broadcast of a value over 256 bytes");
    if (team_rank_ == source) new (slot(source)) T(value);
    team_barrier();
    value = *std::launder(reinterpret_cast<T*>(slot(source)));
    team_barrier();
  }
  template <class F, class T>
  WEFT_INLINE_FUNCTION void team_broadcast(const F& f, T& value, int source) const {
    if (team_rank_ == source) f(value);
    team_broadcast(value, source);
  }

  // ---- hooks for the nested patterns in <weft/team.hpp> ----
  template <class I, class Body>
  WEFT_INLINE_FUNCTION void impl_for(NestLevel level, I b, I e, const Body& body) const {
    if (level == NestLevel::ThreadVector || team_size_ == 1) {
      for (I i = b; i < e; ++i) body(i);
      return;
    }
    const std::int64_t n = static_cast<std::int64_t>(e) - static_cast<std::int64_t>(b);
    const std::int64_t q = n / team_size_, r = n % team_size_;
    const std::int64_t lo = team_rank_ * q + (team_rank_ < r ? team_rank_ : r);
    const std::int64_t hi = lo + q + (team_rank_ < r ? 1 : 0);
    for (I i = static_cast<I>(b + lo); i < static_cast<I>(b + hi); ++i) body(i);
  }
  template <class Adaptor>
  WEFT_INLINE_FUNCTION void impl_join(NestLevel level, const Adaptor& a, typename Adaptor::value_type* v) const {
    using V = typename Adaptor::value_type;
    if (level == NestLevel::ThreadVector || team_size_ == 1) return;
    static_assert(sizeof(V) <= host_team_slot_bytes, "weft: nested reduction value over 256 bytes");
    new (slot(team_rank_)) V(*v);
    team_barrier();
    V acc = *std::launder(reinterpret_cast<V*>(slot(0)));
    for (int k = 1; k < team_size_; ++k) a.join(&acc, std::launder(reinterpret_cast<V*>(slot(k))));
    team_barrier();
    *v = acc;
  }
  template <class Adaptor>
  WEFT_INLINE_FUNCTION void impl_exclusive_prefix(NestLevel level, const Adaptor& a, typename Adaptor::value_type* v,
                                                  typename Adaptor::value_type* total) const {
    using V = typename Adaptor::value_type;
    if (level == NestLevel::ThreadVector || team_size_ == 1) {
      *total = *v;
      a.init(v);
      return;
    }
    new (slot(team_rank_)) V(*v);
    team_barrier();
    V off;
    a.init(&off);
    for (int k = 0; k < team_rank_; ++k) a.join(&off, std::launder(reinterpret_cast<V*>(slot(k))));
    V all = off;
    for (int k = team_rank_; k < team_size_; ++k) a.join(&all, std::launder(reinterpret_cast<V*>(slot(k))));
    team_barrier();
    *v = off;
    *total = all;
  }
  template <class F>
  WEFT_INLINE_FUNCTION void impl_single_lane(const F& f) const {
    f();
  }
  template <class T>
  WEFT_INLINE_FUNCTION void impl_vector_broadcast(T&) const {}
  template <class F>
  WEFT_INLINE_FUNCTION void impl_single_team(const F& f) const {
    if (team_rank_ == 0) f();
  }

 private:
  WEFT_INLINE_FUNCTION char* slot(int k) const {
    return shared_->slots + static_cast<std::size_t>(k) * host_team_slot_bytes;
  }
  HostTeamShared* shared_;
  std::int64_t league_rank_;
  std::int64_t league_size_;
  int team_rank_;
  int team_size_;
  scratch_memory_space scratch_[2];
};

/// Team limits of the host backends.
template <class E>
requires E::impl_is_host_space struct TeamTraits<E> {
  using member_type = HostTeamMember<E>;
  static int team_size_max(const E& e, int) { return e.concurrency(); }
  static int team_size_recommended(const E&, int) { return 1; }
  /// Level 0: 256 KiB (what stays in a core's cache). Level 1 is heap memory, as on Kokkos's host backends: up to the
  /// machine's memory (a request the heap cannot give raises weft::Error at the launch).
  static std::size_t scratch_size_max(int level) {
    if (level == 0) return std::size_t(256) << 10;
    static const std::size_t physical = [] {
      const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
      return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : std::size_t(1) << 36;
    }();
    return physical;
  }
};

}  // namespace weft::impl
