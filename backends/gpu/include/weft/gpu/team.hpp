// Teams on the GPU backends: league -> blocks (grid-stride), team -> threadIdx.y, vector -> threadIdx.x.
// Level-0 scratch lives in dynamic shared memory after the team's collective slots; level-1 scratch is a global
// buffer with one slice per block.
//
// Nested ranges hand out indices strided by the level's parts, as Kokkos does: part p of P takes b + p, b + p + P,
// ..., so that a warp's lanes (a vector level's lanes, or a team level's threads at vector length 1) touch
// consecutive elements and their loads coalesce. Nested scans keep index order in strided passes: each pass scans
// P consecutive indices (a warp scan for the vector level, a block scan for the team levels) and adds the carry
// of the passes before it. Nested joins are trees: shuffles within a vector segment (no shared memory) and
// gpu::block_reduce / block_exclusive_scan across the team (one shared-memory step across warps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>

#include <weft/gpu/block.hpp>
#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/work.hpp>
#include <weft/impl/round_up.hpp>
#include <weft/impl/team_collectives.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>
#include <weft/scratch.hpp>

namespace weft::impl {

/// The largest value a nested reduction, scan or vector broadcast takes on a GPU.
inline constexpr std::size_t gpu_team_slot_bytes = 32;
/// Shared memory of a team's collectives, before its level-0 scratch: gpu::block_reduce's slots for values up to
/// gpu_team_slot_bytes, which team_broadcast (up to 1 KiB) reuses. The same for every team size.
inline constexpr std::size_t gpu_team_collective_bytes =
    round_up<std::size_t>(gpu::BlockTemp<char[gpu_team_slot_bytes]>::slots * gpu_team_slot_bytes > 1024
                              ? gpu::BlockTemp<char[gpu_team_slot_bytes]>::slots * gpu_team_slot_bytes
                              : 1024,
                          16);

template <class E>
class GpuTeamMember : public TeamCollectives<GpuTeamMember<E>> {
 public:
  using execution_space = E;
  using scratch_memory_space = ScratchMemorySpace<E>;

  WEFT_DEVICE GpuTeamMember(std::int64_t league_rank, std::int64_t league_size, char* slots, char* scratch0,
                            char* scratch1, std::size_t team0, std::size_t thread0, std::size_t team1,
                            std::size_t thread1)
      : league_rank_(league_rank), league_size_(league_size), slots_(slots) {
    // one pool per level for the team and its threads (ScratchMemorySpace)
    const std::size_t ts = gpu::block_dim().y;
    scratch_[0] = scratch_memory_space(scratch0, team0 + ts * thread0, 0);
    scratch_[1] = scratch_memory_space(scratch1, team1 + ts * thread1, 1);
  }

  WEFT_DEVICE int league_rank() const { return static_cast<int>(league_rank_); }
  WEFT_DEVICE int league_size() const { return static_cast<int>(league_size_); }
  WEFT_DEVICE int team_rank() const { return static_cast<int>(gpu::thread_idx().y); }
  WEFT_DEVICE int team_size() const { return static_cast<int>(gpu::block_dim().y); }
  WEFT_DEVICE int impl_vector_length() const { return static_cast<int>(gpu::block_dim().x); }
  WEFT_DEVICE const scratch_memory_space& team_scratch(int level) const { return scratch_[level].impl_team_mode(); }
  WEFT_DEVICE const scratch_memory_space& thread_scratch(int level) const {
    return scratch_[level].impl_thread_mode(static_cast<int>(gpu::thread_idx().y),
                                            static_cast<int>(gpu::block_dim().y));
  }
  WEFT_DEVICE const scratch_memory_space& team_shmem() const { return scratch_[0].impl_team_mode(); }
  WEFT_DEVICE void team_barrier() const { gpu::sync_block(); }

  /// Every thread gets `source`'s value: one store, one broadcast load per thread.
  template <class T>
  WEFT_DEVICE void team_broadcast(T& value, int source) const {
    static_assert(sizeof(T) <= 1024, "weft: team_broadcast of a value over 1 KiB on a GPU");
    // Every collective ends with a barrier, so nobody still reads the area.
    if (team_rank() == source && gpu::thread_idx().x == 0) gpu::shared_store(reinterpret_cast<T*>(slots_), value);
    gpu::sync_block();
    value = gpu::shared_load(reinterpret_cast<const T*>(slots_));
    gpu::sync_block();
  }
  template <class F, class T>
  WEFT_DEVICE void team_broadcast(const F& f, T& value, int source) const {
    if (team_rank() == source) f(value);
    team_broadcast(value, source);
  }
  // ---- hooks for <weft/team.hpp> ----
  /// Part p of P runs b + p, b + p + P, ...
  template <class I, class Body>
  WEFT_DEVICE void impl_for(NestLevel level, I b, I e, const Body& body) const {
    int parts, me;
    where(level, parts, me);
    const std::int64_t n = static_cast<std::int64_t>(e) - static_cast<std::int64_t>(b);
    for (std::int64_t i = me; i < n; i += parts) body(static_cast<I>(static_cast<std::int64_t>(b) + i));
    // A thread's vector lanes leave a ThreadVectorRange together, each seeing what the others wrote (as Kokkos's
    // GPU backends: a lane may read another's result next, e.g. in single(PerThread(member), ...)).
    if (level == NestLevel::ThreadVector) gpu::sync_warp(segment_mask());
  }
  /// A nested scan in index order: passes of P consecutive indices, each scanned across the parts and offset by
  /// the passes before it. f(i, update, final) as in <weft/team.hpp>; *total gets the range's sum.
  template <class Adaptor, class I, class F>
  WEFT_DEVICE void impl_scan(NestLevel level, I b, I e, const Adaptor& a, const F& f,
                             typename Adaptor::value_type* total) const {
    using V = typename Adaptor::value_type;
    int parts, me;
    where(level, parts, me);
    const std::int64_t n = static_cast<std::int64_t>(e) - static_cast<std::int64_t>(b);
    V carry;
    a.init(&carry);
    for (std::int64_t base = 0; base < n; base += parts) {  // every part runs every pass: collectives converge
      const std::int64_t k = base + me;
      const I i = static_cast<I>(static_cast<std::int64_t>(b) + k);
      V v;
      a.init(&v);
      if (k < n) f(i, v, false);
      V pass;
      impl_exclusive_prefix(level, a, &v, &pass);
      V offset = carry;
      a.join(&offset, &v);
      if (k < n) f(i, offset, true);
      a.join(&carry, &pass);
    }
    *total = carry;
  }
  template <class Adaptor>
  WEFT_DEVICE void impl_join(NestLevel level, const Adaptor& a, typename Adaptor::value_type* v) const {
    using V = typename Adaptor::value_type;
    static_assert(sizeof(V) <= gpu_team_slot_bytes, "weft: nested reductions on a GPU take values up to 32 bytes");
    if (level == NestLevel::ThreadVector) {
      const unsigned width = gpu::block_dim().x;
      if (width == 1) return;
      const gpu::lane_mask_t mask = segment_mask();
      *v = gpu::shfl(gpu::warp_reduce(a, *v, static_cast<int>(width), mask), 0, mask, static_cast<int>(width));
      return;
    }
    // A team thread's vector lanes hold one value: only lane 0's counts at the team-thread level.
    V mine = *v;
    if (level == NestLevel::TeamThread && gpu::thread_idx().x != 0) a.init(&mine);
    *v = gpu::block_reduce(a, mine, slots_);
  }
  template <class Adaptor>
  WEFT_DEVICE void impl_exclusive_prefix(NestLevel level, const Adaptor& a, typename Adaptor::value_type* v,
                                         typename Adaptor::value_type* total) const {
    using V = typename Adaptor::value_type;
    static_assert(sizeof(V) <= gpu_team_slot_bytes, "weft: nested scans on a GPU take values up to 32 bytes");
    const unsigned width = gpu::block_dim().x;
    if (level == NestLevel::ThreadVector) {
      if (width == 1) {
        *total = *v;
        a.init(v);
        return;
      }
      const gpu::lane_mask_t mask = segment_mask();
      const int w = static_cast<int>(width);
      const V incl = gpu::warp_inclusive_scan(a, *v, w, mask);
      V ex = gpu::shfl_up(incl, 1u, mask, w);
      if (gpu::thread_idx().x == 0) a.init(&ex);
      *total = gpu::shfl(incl, w - 1, mask, w);
      *v = ex;
      return;
    }
    V mine = *v;
    const bool team_thread = level == NestLevel::TeamThread;
    if (team_thread && gpu::thread_idx().x != 0) a.init(&mine);
    V ex = gpu::block_exclusive_scan(a, mine, total, slots_);
    // At the team-thread level every lane of a thread takes its lane 0's prefix (the others joined init).
    if (team_thread && width > 1) ex = gpu::shfl(ex, 0, segment_mask(), static_cast<int>(width));
    *v = ex;
  }
  template <class T>
  WEFT_DEVICE void impl_vector_broadcast(T& value) const {
    static_assert(gpu::movable_as_bytes_v<T>,
                  "weft: single(PerThread(member), f, value) on a GPU broadcasts a value movable as its bytes "
                  "(trivially copyable, or trivially destructible with a copy constructor)");
    const unsigned width = gpu::block_dim().x;
    if (width > 1) value = gpu::shfl(value, 0, segment_mask(), static_cast<int>(width));
  }
  template <class F>
  WEFT_DEVICE void impl_single_lane(const F& f) const {
    if (gpu::thread_idx().x == 0) f();
    gpu::sync_warp(segment_mask());  // the other lanes see what lane 0 wrote (as Kokkos)
  }
  template <class F>
  WEFT_DEVICE void impl_single_team(const F& f) const {
    if (gpu::thread_idx().x == 0 && gpu::thread_idx().y == 0) f();
    gpu::sync_warp(segment_mask());
  }

 private:
  /// How many parts a level splits into and which one the calling thread/lane is.
  WEFT_DEVICE void where(NestLevel level, int& parts, int& me) const {
    const gpu::dim3_t t = gpu::thread_idx(), d = gpu::block_dim();
    if (level == NestLevel::TeamThread) {
      parts = static_cast<int>(d.y);
      me = static_cast<int>(t.y);
    } else if (level == NestLevel::ThreadVector) {
      parts = static_cast<int>(d.x);
      me = static_cast<int>(t.x);
    } else {
      parts = static_cast<int>(d.x * d.y);
      me = static_cast<int>(t.y * d.x + t.x);
    }
  }
  /// The lanes of the calling thread's vector segment, as a warp mask.
  WEFT_DEVICE gpu::lane_mask_t segment_mask() const {
    const unsigned v = gpu::block_dim().x;
    if (v >= unsigned(gpu::warp_size)) return gpu::full_mask;
    const unsigned base = gpu::lane_id() & ~(v - 1);
    return gpu::low_lanes(v) << base;
  }

  std::int64_t league_rank_;
  std::int64_t league_size_;
  char* slots_;
  scratch_memory_space scratch_[2];
};

template <class E>
requires GpuEngineSpace<E>
struct TeamTraits<E> {
  using member_type = GpuTeamMember<E>;
  static int team_size_max(const E&, int vector_length) { return 1024 / (vector_length > 0 ? vector_length : 1); }
  static int team_size_recommended(const E&, int vector_length) {
    return 128 / (vector_length > 0 ? vector_length : 1) > 0 ? 128 / vector_length : 1;
  }
  /// Level 0 is the block's dynamic shared memory (the device's opt-in maximum: 227 KiB on sm_90, 163 KiB on
  /// sm_80, 64 KiB on CDNA) less the team's collective slots (gpu_team_collective_bytes: 2080 bytes with
  /// 32-lane warps, whatever the team size): scratch_size_limit(0, threads) is what a team of `threads` (team size x
  /// vector length) may ask for, scratch_size_max(0) what a team of any size may. Level 1 is global memory: up to
  /// the device's (Kokkos takes any request there; its test asks 4 GB for one team).
  static std::size_t scratch_size_limit(int level, int) {
    if (level != 0) return E::impl_vendor::global_memory_bytes();
    const std::size_t cap = E::impl_vendor::shared_per_block(), slots = gpu_team_collective_bytes;
    return cap > slots ? cap - slots : 0;
  }
  static std::size_t scratch_size_max(int level) { return scratch_size_limit(level, 1024); }
};

template <class... P>
class GpuWork<TeamPolicy<P...>> {
  using Policy = TeamPolicy<P...>;
  using E = typename Policy::execution_space;
  using Vendor = typename E::impl_vendor;

 public:
  GpuWork(std::string_view label, const Policy& p) : league_(p.league_size()) {
    ts_ = p.team_size();
    vl_ = p.vector_length();
    auto_ = p.impl_auto_team_size();
    max_ts_ = p.team_size_max();
    if (vl_ > 32 || (vl_ & (vl_ - 1))) throw_gpu_team_shape(label, E::name(), 0, vl_, 0);
    const int max = p.team_size_max();
    if (ts_ > max) throw_gpu_team_shape(label, E::name(), ts_, vl_, max);
    constexpr unsigned max_threads = launch_bounds_of_t<Policy>::max_threads;
    if (max_threads > 0) {
      if (auto_) {
        while (ts_ > 1 && unsigned(ts_ * vl_) > max_threads) ts_ /= 2;
        if (max_ts_ > int(max_threads) / vl_) max_ts_ = int(max_threads) / vl_ > 0 ? int(max_threads) / vl_ : 1;
      }
      if (unsigned(ts_ * vl_) > max_threads) throw_gpu_team_shape(label, nullptr, ts_, vl_, int(max_threads));
    }
    p.impl_check_scratch(label, ts_);
    for (int l = 0; l < 2; ++l) {
      team_[l] = round_up<std::size_t>(p.team_scratch_size(l), 16);
      thread_[l] = round_up<std::size_t>(p.thread_scratch_size(l), 16);
    }
    const std::int64_t cap = std::int64_t(Vendor::multiprocessor_count()) * Vendor::blocks_per_multiprocessor * 4;
    grid_ = static_cast<unsigned>(league_ < 1 ? 1 : (league_ < cap ? league_ : cap));
  }
  template <class V>
  GpuLaunchShape shape() const {
    GpuLaunchShape s;
    s.block = {static_cast<unsigned>(vl_), static_cast<unsigned>(ts_), 1};
    s.grid = {grid_, 1, 1};
    s.shared_bytes = slots_bytes() + team_[0] + thread_[0] * ts_;
    return s;
  }
  /// TeamPolicy AUTO: the dispatch asks the vendor's occupancy calculator for a block size (CUDA), given the
  /// dynamic shared memory a block of b threads needs, and sets the team size from it.
  bool impl_auto_team() const { return auto_; }
  int team_size() const { return ts_; }
  int vector_length() const { return vl_; }
  std::size_t shared_bytes_for(int threads) const {
    const std::size_t ts = std::size_t(threads / vl_);
    return gpu_team_collective_bytes + team_[0] + thread_[0] * ts;
  }
  /// Takes the calculator's block size (threads): whole teams, within the team-size maximum and the level-0
  /// scratch limit.
  void impl_take_block(int threads) {
    int ts = threads / vl_;
    if (ts > max_ts_) ts = max_ts_;
    while (ts > 1 && team_[0] + thread_[0] * std::size_t(ts) > TeamTraits<E>::scratch_size_limit(0, ts * vl_)) ts /= 2;
    if (ts >= 1) ts_ = ts;
  }
  /// The team's collectives (block reduce and scan slots, the broadcast area), before the level-0 scratch.
  WEFT_INLINE_FUNCTION std::size_t slots_bytes() const { return gpu_team_collective_bytes; }
  WEFT_INLINE_FUNCTION std::size_t level1_bytes_per_block() const { return team_[1] + thread_[1] * ts_; }
  void set_level1(char* p) { level1_ = p; }
  /// Where a kernel that needs its own shared memory may put it (after the team's).
  std::size_t shared_end() const { return slots_bytes() + team_[0] + thread_[0] * ts_; }

  template <class Item>
  WEFT_DEVICE void run(const Item& item) const {
    char* shared = gpu::dynamic_shared();
    char* l1 = level1_ ? level1_ + std::size_t(gpu::block_idx().x) * level1_bytes_per_block() : nullptr;
    for (std::int64_t l = gpu::block_idx().x; l < league_; l += gpu::grid_dim().x) {
      const GpuTeamMember<E> m(l, league_, shared, shared + slots_bytes(), l1, team_[0], thread_[0], team_[1],
                               thread_[1]);
      item(m);
      gpu::sync_block();  // the next league rank reuses shared memory and scratch
    }
  }

 private:
  std::int64_t league_;
  int ts_ = 1, vl_ = 1, max_ts_ = 1024;
  bool auto_ = false;
  unsigned grid_ = 1;
  std::size_t team_[2] = {0, 0}, thread_[2] = {0, 0};
  char* level1_ = nullptr;
};

}  // namespace weft::impl
