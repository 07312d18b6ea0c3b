// How the host backends split a policy's work over threads: HostWork<Policy> for RangePolicy (static,
// chunked or dynamic), MDRangePolicy (tiles) and TeamPolicy (teams of threads with scratch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <weft/host/region.hpp>
#include <weft/host/team_member.hpp>
#include <weft/impl/round_up.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>

namespace weft::impl {

template <class E>
concept HostEngineSpace = requires {
  HostThreading<E>::barrier(1);
};

/// An aligned buffer: on the stack when small, else on the heap.
class HostBuffer {
 public:
  explicit HostBuffer(std::size_t bytes) {
    if (bytes > sizeof(local_)) {
      heap_ = static_cast<char*>(::operator new(bytes, std::align_val_t(64)));
    }
  }
  ~HostBuffer() {
    if (heap_) ::operator delete(heap_, std::align_val_t(64));
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  char* get() { return heap_ ? heap_ : local_; }

 private:
  alignas(64) char local_[1024];
  char* heap_ = nullptr;
};

/// Thread tid's contiguous share [b, e) of [begin, end) among n threads (the static schedule without a chunk).
template <class I>
WEFT_HOST_FORCEINLINE void static_share(I begin, I end, int tid, int n, I& b, I& e) {
  const I len = end - begin;
  const I q = len / n, r = len % n;
  const I t = static_cast<I>(tid);
  b = begin + t * q + (t < r ? t : r);
  e = b + q + (t < r ? 1 : 0);
}

/// Thread tid's part of [begin, end) among n threads under the static schedule: chunks of `chunk` indices dealt
/// round-robin, or (chunk <= 0) one contiguous share; item(i) for each, from one copy of the loop (a kernel's code
/// is compiled once, not once per schedule). Chunks that would start past `end` are never formed (unsigned indices
/// do not wrap).
template <class I, class Item>
WEFT_HOST_FORCEINLINE void static_schedule(I begin, I end, I chunk, int tid, int n, const Item& item) {
  I b, e;
  if (chunk <= 0) {
    static_share(begin, end, tid, n, b, e);
  } else {
    if (end <= begin || static_cast<I>(end - begin) / chunk < static_cast<I>(tid)) return;  // no chunk of its own
    b = begin + static_cast<I>(tid) * chunk;
    e = end - b < chunk ? end : b + chunk;
  }
  // the distance between one thread's chunks, n * chunk (saturated: a larger one than the range ends the loop);
  // no division on the unchunked path
  const I stride = chunk <= 0                                                  ? I(0)
                   : chunk > std::numeric_limits<I>::max() / static_cast<I>(n) ? std::numeric_limits<I>::max()
                                                                               : static_cast<I>(n) * chunk;
  while (b < end) {
    for (I i = b; i < e; ++i) item(i);
    if (chunk <= 0 || end - b <= stride) break;
    b += stride;
    e = end - b < chunk ? end : b + chunk;
  }
}

/// A RangePolicy's chunk size (>= 0) in its index type, saturated.
template <class I>
I host_chunk(std::int64_t c) {
  return static_cast<std::uint64_t>(c) > static_cast<std::uint64_t>(std::numeric_limits<I>::max())
             ? std::numeric_limits<I>::max()
             : static_cast<I>(c);
}

/// How a host dispatch holds the functor its threads call: a copy made as a kernel's copies are (inside a
/// host-parallel scope), as Kokkos's dispatches copy the functor with tracking off. Its Views hold no references,
/// so a View the kernel copies from it (a struct of Views copied in each iteration) copies the bits and skips the
/// thread-local test a counted View's copy makes. A functor that cannot be copied is called through the caller's
/// reference. The dispatch runs before the caller's call returns, while the caller's functor keeps the Views alive.
template <class F>
using host_kernel_functor_t = std::conditional_t<std::is_copy_constructible_v<F>, const F, const F&>;
template <class F>
decltype(auto) host_kernel_functor(const F& f) {
  if constexpr (std::is_copy_constructible_v<F>) {
    HostParallelScope as_in_a_kernel;
    return F(f);
  } else {
    return (f);
  }
}

template <class Policy>
class HostWork;

// ---- RangePolicy -----------------------------------------------------------------------------------
template <class... P>
class HostWork<RangePolicy<P...>> {
  using Policy = RangePolicy<P...>;
  using I = typename Policy::index_type;

 public:
  HostWork(std::string_view, const Policy& p) : p_(p) {}
  int threads() const { return p_.space().impl_thread_count(); }
  HostInstance* instance() const { return p_.space().impl_instance(); }
  I size() const { return p_.end() - p_.begin(); }

  const Policy& policy() const { return p_; }
  /// This thread's contiguous share [b, e) under the static schedule without a chunk size.
  void static_range(int tid, int n, I& b, I& e) const { static_share(p_.begin(), p_.end(), tid, n, b, e); }

  template <class Item>
  WEFT_HOST_FORCEINLINE void run(int tid, int n, const Item& item) const {
    const I chunk = host_chunk<I>(p_.chunk_size());
    if constexpr (std::is_same_v<typename Policy::schedule_type, Schedule<Dynamic>>) {
      const I c = chunk > 0 ? chunk : (size() / (16 * n) > 0 ? size() / (16 * n) : I(1));
      while (true) {
        const I b = static_cast<I>(p_.begin() + __atomic_fetch_add(&next_, c, __ATOMIC_RELAXED));
        if (b >= p_.end() || b < p_.begin()) break;
        const I e = p_.end() - b < c ? p_.end() : b + c;
        for (I i = b; i < e; ++i) item(i);
      }
    } else {
      static_schedule(p_.begin(), p_.end(), chunk, tid, n, item);
    }
  }

 private:
  const Policy p_;  // owned: a dispatch holds its work, never a reference into a sibling member
  mutable I next_ = 0;
};

// ---- MDRangePolicy ---------------------------------------------------------------------------------
template <class... P>
class HostWork<MDRangePolicy<P...>> {
  using Policy = MDRangePolicy<P...>;
  using I = typename Policy::index_type;
  static constexpr int N = Policy::rank;

 public:
  HostWork(std::string_view, const Policy& p) : p_(p) {
    for (int k = 0; k < N; ++k) tiles_in_[k] = p.tiles_in(k);
  }
  int threads() const { return p_.space().impl_thread_count(); }
  HostInstance* instance() const { return p_.space().impl_instance(); }

  template <class Item>
  WEFT_HOST_FORCEINLINE void run(int tid, int n, const Item& item) const {
    const std::int64_t tiles = p_.num_tiles();
    const std::int64_t q = tiles / n, r = tiles % n;
    const std::int64_t b = tid * q + (tid < r ? tid : r);
    std::int64_t left = q + (tid < r ? 1 : 0);
    if (left <= 0) return;
    // The tiles of this thread's contiguous share in order: the first placed once (a division per dimension), each
    // next one by counting on, as an odometer. Placing every tile by division kept the tile loop's state live across
    // the kernel's inner loop, and g++ spilled the kernel's row offsets instead (gray-scott cpu_base: 105 instructions
    // and 30 stack accesses per point before, 77 and 7 now; 0.61 -> 0.44 s).
    std::int64_t c[N];
    {
      std::int64_t t = b;
      auto place = [&](int k) {
        const std::int64_t nt = tiles_in_[k];
        c[k] = t % nt;
        t /= nt;
      };
      if constexpr (Policy::tiles_right)
        for (int k = N - 1; k >= 0; --k) place(k);
      else
        for (int k = 0; k < N; ++k) place(k);
    }
    for (;;) {
      I lo[N], hi[N];
      for (int k = 0; k < N; ++k) {
        const std::int64_t l = p_.lower(k) + c[k] * p_.tile(k);
        const std::int64_t h = l + p_.tile(k);
        lo[k] = static_cast<I>(l);
        hi[k] = static_cast<I>(h < p_.upper(k) ? h : p_.upper(k));
      }
      I idx[N];
      nest<0>(lo, hi, idx, item);
      if (--left == 0) return;
      for (int i = 0; i < N; ++i) {
        const int k = Policy::tiles_right ? N - 1 - i : i;
        if (++c[k] < tiles_in_[k] || i == N - 1) break;
        c[k] = 0;
      }
    }
  }

 private:
  template <int L, class Item>
  WEFT_HOST_FORCEINLINE static void nest(const I* lo, const I* hi, I* idx, const Item& item) {
    constexpr int d = Policy::iterate_right ? L : N - 1 - L;
    if constexpr (L == N - 1) {
      for (I i = lo[d]; i < hi[d]; ++i) {
        idx[d] = i;
        call(idx, item, std::make_index_sequence<N>{});
      }
    } else {
      for (I i = lo[d]; i < hi[d]; ++i) {
        idx[d] = i;
        nest<L + 1>(lo, hi, idx, item);
      }
    }
  }
  template <class Item, std::size_t... K>
  WEFT_HOST_FORCEINLINE static void call(const I* idx, const Item& item, std::index_sequence<K...>) {
    item(idx[K]...);
  }
  const Policy p_;  // owned: a dispatch holds its work, never a reference into a sibling member
  std::int64_t tiles_in_[N];
};

// ---- TeamPolicy ------------------------------------------------------------------------------------
template <class... P>
class HostWork<TeamPolicy<P...>> {
  using Policy = TeamPolicy<P...>;
  using E = typename Policy::execution_space;
  using Member = HostTeamMember<E>;

 public:
  HostWork(std::string_view label, const Policy& p) : p_(p), ts_(p.team_size()) {
    const int max = p.team_size_max();
    if (ts_ > max) throw_host_team_size(label, ts_, max, E::name(), p.space().concurrency());
    p.impl_check_scratch(label, ts_);
    for (int l = 0; l < 2; ++l) scratch_[l] = round_up<std::size_t>(p.scratch_size(l, ts_), 64);
    const int nt = p.space().impl_thread_count();
    teams_ = nt / ts_ > 0 ? nt / ts_ : 1;
    if (teams_ > p.league_size()) teams_ = p.league_size() > 0 ? static_cast<int>(p.league_size()) : 1;
    const std::size_t slots = static_cast<std::size_t>(ts_) * host_team_slot_bytes;
    block_ = round_up<std::size_t>(sizeof(HostTeamShared), 64) + slots + scratch_[0] + scratch_[1];
    try {
      mem_ = static_cast<char*>(::operator new(block_* teams_, std::align_val_t(64)));
    } catch (const std::bad_alloc&) {
      throw_host_team_memory(label, teams_, block_);
    }
    for (int g = 0; g < teams_; ++g) {
      char* base = mem_ + g * block_;
      auto* s = new (base) HostTeamShared{};
      s->slots = base + round_up<std::size_t>(sizeof(HostTeamShared), 64);
      s->scratch[0] = s->slots + slots;
      s->scratch[1] = s->scratch[0] + scratch_[0];
      for (int l = 0; l < 2; ++l) {
        s->team_scratch[l] = p.team_scratch_size(l);
        s->thread_scratch[l] = p.thread_scratch_size(l);
      }
    }
  }
  ~HostWork() { ::operator delete(mem_, std::align_val_t(64)); }
  HostWork(const HostWork&) = delete;
  HostWork& operator=(const HostWork&) = delete;

  int threads() const { return teams_ * ts_; }
  HostInstance* instance() const { return p_.space().impl_instance(); }

  template <class Item>
  void run(int tid, int n, const Item& item) const {
    const int groups = n / ts_;
    if (groups == 0) abort_with("TeamPolicy: the OpenMP runtime gave fewer threads than the team size");
    const int g = tid / ts_;
    if (g >= groups) return;
    auto* shared = reinterpret_cast<HostTeamShared*>(mem_ + g * block_);
    const std::int64_t league = p_.league_size();
    const auto one = [&](std::int64_t l) {
      const Member m(shared, l, league, tid % ts_, ts_);
      item(m);
      m.team_barrier();  // the next league rank reuses the scratch
    };
    if constexpr (std::is_same_v<typename Policy::schedule_type, Schedule<Dynamic>>) {
      // chunks of league ranks taken in turn; a team's threads agree on each through its shared state
      const std::int64_t c = p_.chunk_size();
      while (true) {
        if (tid % ts_ == 0) shared->next_league = __atomic_fetch_add(&next_, c, __ATOMIC_RELAXED);
        if (ts_ > 1) host_team_barrier_wait(&shared->barrier, ts_);
        const std::int64_t b = shared->next_league;
        if (ts_ > 1) host_team_barrier_wait(&shared->barrier, ts_);  // all have read it
        if (b >= league) return;
        for (std::int64_t l = b; l < league && l < b + c; ++l) {
          if (host_region_failed()) return;
          one(l);
        }
      }
    } else {
      // static: each team one contiguous share of the league, as Kokkos's host backends deal it (consecutive ranks
      // usually touch consecutive memory: the hardware prefetchers follow one stream per thread)
      std::int64_t b, e;
      static_share<std::int64_t>(0, league, g, groups, b, e);
      for (std::int64_t l = b; l < e; ++l) {
        if (host_region_failed()) return;  // another thread threw: the dispatch is over (teammates leave their barrier)
        one(l);
      }
    }
  }

 private:
  const Policy p_;  // owned: a dispatch holds its work, never a reference into a sibling member
  int ts_;
  int teams_ = 1;
  std::size_t scratch_[2] = {0, 0};
  std::size_t block_ = 0;
  char* mem_ = nullptr;
  mutable std::int64_t next_ = 0;  // Schedule<Dynamic>: the first league rank not yet taken
};

}  // namespace weft::impl
