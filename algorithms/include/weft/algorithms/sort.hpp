// weft::sort, weft::sort_by_key: a stable LSD radix sort for arithmetic keys built on the core patterns (so it
// runs on every backend; on weft::Cuda and weft::HIP the vendor's radix sort, cub::DeviceRadixSort or
// rocprim::radix_sort, compiled into Weft, takes up to 2^31 - 1 keys), and a stable comparator sort: on host spaces
// parallel std::stable_sort of chunks, then merges; on device spaces a merge sort on the core patterns: tiles of up
// to 1024 keys sorted by one team each in shared memory (a few keys per thread by insertion, then merges in scratch),
// then one pass per doubling of the sorted runs in which each team produces one output tile of the merged pair: it
// finds where its tile starts and ends in the two runs by merge-path binary searches, stages those keys in shared
// memory with coalesced loads, and each thread merges a few consecutive outputs (merge path again). Values ride as
// 32-bit indices and are gathered once at the end.
//
// Key order: integers as usual; floating point by value with -0.0 before +0.0, NaNs with the sign bit set
// before -inf and NaNs without it after +inf (the IEEE total order of the bit patterns). Both sorts are
// stable: equal keys keep their order, so sort_by_key keeps the order of values with equal keys.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <weft/algorithms/blocked.hpp>
#include <weft/algorithms/vendor_algorithms.hpp>
#include <weft/algorithms/vendor_sort.hpp>
#include <weft/containers/dynamic_view.hpp>

namespace weft {
namespace impl {

/// Order-preserving map of an arithmetic key onto unsigned bits.
template <class T>
struct RadixKey {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "radix keys are integers or floating point");
  using U = vendor::unsigned_of_t<sizeof(T)>;
  static constexpr U sign = U(1) << (8 * sizeof(T) - 1);
  WEFT_INLINE_FUNCTION static U to(T x) {
    U u;
    __builtin_memcpy(&u, &x, sizeof(T));
    if constexpr (std::is_floating_point_v<T>)
      return (u & sign) ? U(~u) : U(u | sign);
    else if constexpr (std::is_signed_v<T>)
      return U(u ^ sign);
    else
      return u;
  }
  WEFT_INLINE_FUNCTION static T from(U u) {
    if constexpr (std::is_floating_point_v<T>)
      u = (u & sign) ? U(u & ~sign) : U(~u);
    else if constexpr (std::is_signed_v<T>)
      u = U(u ^ sign);
    T x;
    __builtin_memcpy(&x, &u, sizeof(T));
    return x;
  }
};

struct NoValues {};

/// Counts the digit (bits [shift, shift + 8)) of each block's keys into hist(digit * B + block).
template <class E, class KU, class H>
void radix_count(const E& exec, const KU& k, const H& hist, BlockRange br, int shift) {
  parallel_for(
      "weft::sort (radix count)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, br.blocks),
      WEFT_LAMBDA(std::int64_t b) {
        std::int64_t cnt[256];
        for (int d = 0; d < 256; ++d) cnt[d] = 0;
        const std::int64_t e = br.end(b);
        for (std::int64_t i = br.begin(b); i < e; ++i) ++cnt[(k(i) >> shift) & 0xff];
        for (int d = 0; d < 256; ++d) hist(d * br.blocks + b) = cnt[d];
      });
}
/// The largest number of keys that share one digit (== n: the pass would not move anything).
template <class E, class H>
std::int64_t radix_largest_bucket(const E& exec, const H& hist, std::int64_t blocks) {
  std::int64_t most = 0;
  parallel_reduce(
      "weft::sort (radix skip test)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, 256),
      WEFT_LAMBDA(std::int64_t d, std::int64_t & m) {
        std::int64_t s = 0;
        for (std::int64_t b = 0; b < blocks; ++b) s += hist(d * blocks + b);
        m = s > m ? s : m;
      },
      Max<std::int64_t>(most));
  return most;
}
/// Moves each block's keys (and values) to their places, in order within a digit: stable. A named functor:
/// nvcc's device lambdas cannot capture inside `if constexpr`.
template <class KU, class H, class VV>
struct RadixScatter {
  KU kin, kout;
  VV vin, vout;
  H hist;
  BlockRange br;
  int shift;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t b) const {
    std::int64_t off[256];
    for (int d = 0; d < 256; ++d) off[d] = hist(d * br.blocks + b);
    const std::int64_t e = br.end(b);
    for (std::int64_t i = br.begin(b); i < e; ++i) {
      const auto u = kin(i);
      const std::int64_t p = off[(u >> shift) & 0xff]++;
      kout(p) = u;
      if constexpr (!std::is_same_v<VV, NoValues>) vout(p) = vin(i);
    }
  }
};
template <class V>
struct values_of {
  using type = typename V::non_const_value_type;
};
template <>
struct values_of<NoValues> {
  using type = int;
};

/// The vendor path of radix_sort on weft::Cuda (CUB) and weft::HIP (rocPRIM), n < 2^31: the keys as bit
/// patterns in k0 (k1 scratch); values follow a 32-bit index payload and are gathered once at the end, so the
/// library is instantiated for four key widths only (in Weft, not in the user's file). Key order, -0.0 and NaN
/// included, is the portable path's: both sort the same bit patterns.
template <class E, class VV, class U>
void vendor_sort_values(const E& exec, const VV& values, U** kp, U** ka) {
  using VT = typename VV::non_const_value_type;
  using M = typename VV::memory_space;
  const std::int64_t n = static_cast<std::int64_t>(values.extent(0));
  View<std::uint32_t*, M> i0(view_alloc(WithoutInitializing, "weft::sort (index)"), n),
      i1(view_alloc(WithoutInitializing, "weft::sort (index 2)"), n);
  parallel_for(
      "weft::sort (index)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i) { i0(i) = static_cast<std::uint32_t>(i); });
  std::uint32_t* ip = i0.data();
  std::uint32_t* ia = i1.data();
  vendor_radix_sort(exec, kp, ka, &ip, &ia, static_cast<int>(n));
  View<VT*, M> v0(view_alloc(WithoutInitializing, values.label() + " (sort values)"), n);
  deep_copy(exec, v0, values);
  const std::uint32_t* perm = ip;
  parallel_for(
      "weft::sort (gather values)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i) { values(i) = v0(perm[i]); });
}
template <bool Descending, class E, class K, class VV, class KU>
void vendor_sort(const E& exec, const K& keys, const VV* values, const KU& k0, const KU& k1) {
  using T = typename K::non_const_value_type;
  using RK = RadixKey<T>;
  using U = typename RK::U;
  const std::int64_t n = static_cast<std::int64_t>(keys.extent(0));
  U* kp = k0.data();
  U* ka = k1.data();
  if constexpr (std::is_same_v<VV, NoValues>)
    vendor_radix_sort(exec, &kp, &ka, nullptr, nullptr, static_cast<int>(n));
  else
    vendor_sort_values(exec, *values, &kp, &ka);
  const U* sorted = kp;
  parallel_for(
      "weft::sort (from bits)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i) { keys(i) = RK::from(Descending ? U(~sorted[i]) : sorted[i]); });
}

/// Radix-sorts keys (any rank-1 View) and, when given, values alongside; Descending sorts the complemented bit
/// patterns (still stable: equal keys keep their order).
template <bool Descending = false, class E, class K, class VV>
void radix_sort(const E& exec, const K& keys, const VV* values) {
  using T = typename K::non_const_value_type;
  using RK = RadixKey<T>;
  using U = typename RK::U;
  using M = typename K::memory_space;
  const std::int64_t n = static_cast<std::int64_t>(keys.extent(0));
  if (n < 2) return;
  View<U*, M> k0(view_alloc(WithoutInitializing, keys.label() + " (sort keys)"), n),
      k1(view_alloc(WithoutInitializing, keys.label() + " (sort keys 2)"), n);
  parallel_for(
      "weft::sort (to bits)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i) { k0(i) = Descending ? U(~RK::to(keys(i))) : RK::to(keys(i)); });
  if constexpr (has_vendor_radix_sort_v<E>) {
    if (n <= std::int64_t(0x7fffffff) && experimental::vendor_algorithms_enabled())
      return vendor_sort<Descending>(exec, keys, values, k0, k1);
  }
  const std::int64_t blocks = algorithm_blocks(exec, n);
  const BlockRange br{n, blocks};
  View<std::int64_t*, M> hist(view_alloc(WithoutInitializing, "weft::sort histogram"), 256 * blocks);
  using VT = typename values_of<VV>::type;
  View<VT*, M> v0, v1;
  if constexpr (!std::is_same_v<VV, NoValues>) {
    v0 = View<VT*, M>(view_alloc(WithoutInitializing, values->label() + " (sort values)"), n);
    v1 = View<VT*, M>(view_alloc(WithoutInitializing, values->label() + " (sort values 2)"), n);
    deep_copy(exec, v0, *values);
  }
  for (int shift = 0; shift < static_cast<int>(8 * sizeof(U)); shift += 8) {
    radix_count(exec, k0, hist, br, shift);
    if (radix_largest_bucket(exec, hist, blocks) == n) continue;  // every key has this digit
    exclusive_sum_in_place(exec, hist, "weft::sort (radix offsets)");
    if constexpr (std::is_same_v<VV, NoValues>)
      parallel_for("weft::sort (radix scatter)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, blocks),
                   RadixScatter<decltype(k0), decltype(hist), NoValues>{k0, k1, {}, {}, hist, br, shift});
    else
      parallel_for("weft::sort (radix scatter)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, blocks),
                   RadixScatter<decltype(k0), decltype(hist), decltype(v0)>{k0, k1, v0, v1, hist, br, shift});
    std::swap(k0, k1);
    if constexpr (!std::is_same_v<VV, NoValues>) std::swap(v0, v1);
  }
  parallel_for(
      "weft::sort (from bits)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i) { keys(i) = RK::from(Descending ? U(~k0(i)) : k0(i)); });
  if constexpr (!std::is_same_v<VV, NoValues>) deep_copy(exec, *values, v0);
}

/// A stable comparator sort of a host buffer: chunks sorted in parallel, then merged pairwise.
template <class T, class Comp>
void host_stable_sort(std::vector<T>& a, Comp comp) {
  using H = DefaultHostExecutionSpace;
  const std::int64_t n = static_cast<std::int64_t>(a.size());
  const std::int64_t parts =
      std::min<std::int64_t>(std::max(1, H().concurrency()), std::max<std::int64_t>(1, n / 4096));
  const BlockRange br{n, parts};
  T* p = a.data();
  parallel_for("weft::sort (chunks)", RangePolicy<H, IndexType<std::int64_t>>(0, parts),
               [=](std::int64_t b) { std::stable_sort(p + br.begin(b), p + br.end(b), comp); });
  std::vector<T> tmp(a.size());
  T* src = a.data();
  T* dst = tmp.data();
  for (std::int64_t w = 1; w < parts; w *= 2) {
    const std::int64_t pairs = (parts + 2 * w - 1) / (2 * w);
    parallel_for("weft::sort (merge)", RangePolicy<H, IndexType<std::int64_t>>(0, pairs), [=](std::int64_t q) {
      const std::int64_t lo = br.begin(std::min(parts, 2 * w * q)), mid = br.begin(std::min(parts, 2 * w * q + w)),
                         hi = br.begin(std::min(parts, 2 * w * q + 2 * w));
      std::merge(src + lo, src + mid, src + mid, src + hi, dst + lo, comp);
    });
    std::swap(src, dst);
  }
  if (src != a.data()) std::copy(src, src + n, a.data());
}

/// A comparator that is operator< (callable on the device).
struct DefaultLess {
  template <class T>
  WEFT_INLINE_FUNCTION bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

/// The simple device merge sort: runs of 32 by insertion, then one pass per doubling in which every element finds
/// its place in the merged pair by binary search in global memory. For keys too large for the tiled sort's shared
/// memory and for 2^32 keys or more.
template <class E, class K, class VV, class Comp>
void device_merge_sort_simple(const E& exec, const K& keys, const VV* values, Comp comp) {
  using T = typename K::non_const_value_type;
  using VT = typename VV::non_const_value_type;
  using M = typename K::memory_space;
  using VM = typename VV::memory_space;
  using I = std::int64_t;
  const I n = static_cast<I>(keys.extent(0));
  if (n < 2) return;
  const bool has_values = values != nullptr;
  View<T*, M> src(view_alloc("weft::sort keys", WithoutInitializing), n),
      dst(view_alloc("weft::sort keys (merged)", WithoutInitializing), n);
  View<VT*, VM> vsrc(view_alloc("weft::sort values", WithoutInitializing), has_values ? n : 0),
      vdst(view_alloc("weft::sort values (merged)", WithoutInitializing), has_values ? n : 0);
  deep_copy(exec, src, keys);
  if (has_values) deep_copy(exec, vsrc, *values);
  constexpr I run = 32;
  parallel_for(
      "weft::sort (runs of 32)", RangePolicy<E, IndexType<I>>(exec, 0, (n + run - 1) / run), WEFT_LAMBDA(I r) {
        const I lo = r * run, hi = lo + run < n ? lo + run : n;
        for (I i = lo + 1; i < hi; ++i) {  // insertion sort: stable
          const T x = src(i);
          VT y{};
          if (has_values) y = vsrc(i);
          I j = i;
          for (; j > lo && comp(x, src(j - 1)); --j) {
            src(j) = src(j - 1);
            if (has_values) vsrc(j) = vsrc(j - 1);
          }
          src(j) = x;
          if (has_values) vsrc(j) = y;
        }
      });
  for (I w = run; w < n; w *= 2) {
    parallel_for(
        "weft::sort (merge pass)", RangePolicy<E, IndexType<I>>(exec, 0, n), WEFT_LAMBDA(I i) {
          const I lo = i / (2 * w) * (2 * w), mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
          const T x = src(i);
          I pos;
          if (i < mid) {  // left run: after the right run's elements that are less than x
            I l = mid, h = hi;
            while (l < h) {
              const I m = l + (h - l) / 2;
              if (comp(src(m), x))
                l = m + 1;
              else
                h = m;
            }
            pos = i + (l - mid);
          } else {  // right run: after the left run's elements that are not greater than x (stability)
            I l = lo, h = mid;
            while (l < h) {
              const I m = l + (h - l) / 2;
              if (comp(x, src(m)))
                h = m;
              else
                l = m + 1;
            }
            pos = (i - mid) + l;
          }
          dst(pos) = x;
          if (has_values) vdst(pos) = vsrc(i);
        });
    std::swap(src, dst);
    std::swap(vsrc, vdst);
  }
  deep_copy(exec, keys, src);
  if (has_values) deep_copy(exec, *values, vsrc);
}
/// Merge path: how many of the first `diag` elements of the stable merge of a[0, na) and b[0, nb) (a's first among
/// equal keys) come from a.
template <class PA, class PB, class Comp>
WEFT_INLINE_FUNCTION std::int64_t merge_path(const PA& a, std::int64_t na, const PB& b, std::int64_t nb,
                                             std::int64_t diag, const Comp& comp) {
  std::int64_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (!comp(b[diag - 1 - mid], a[mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
/// Writes `count` elements of the stable merge of a and b from the split (a + i, b + j) to out; the payloads ai, bi
/// follow into oi when oi is not null. Pointers, or impl::ScratchPtr into team scratch.
template <class PK, class PI, class Comp>
WEFT_INLINE_FUNCTION void merge_into(const PK& a, const PI& ai, std::int64_t na, const PK& b, const PI& bi,
                                     std::int64_t nb, std::int64_t i, std::int64_t j, std::int64_t count, const PK& out,
                                     const PI& oi, const Comp& comp) {
  for (std::int64_t q = 0; q < count; ++q) {
    if (j >= nb || (i < na && !comp(b[j], a[i]))) {
      out[q] = a[i];
      if (oi) oi[q] = ai[i];
      ++i;
    } else {
      out[q] = b[j];
      if (oi) oi[q] = bi[j];
      ++j;
    }
  }
}

/// The tiled sort's shape: `threads` per team, `items` keys per thread, tiles of threads * items keys; two key
/// buffers (and two index buffers when values ride along) of a tile in level-0 scratch.
struct TiledSortShape {
  int threads = 128, items = 8;
  std::int64_t tile = 1024;
  std::size_t scratch = 0;
};
template <class T>
TiledSortShape tiled_sort_shape(bool payload) {
  TiledSortShape s;
  const std::size_t per_key = 2 * (sizeof(T) + (payload ? sizeof(std::uint32_t) : 0));
  while (s.items > 1 && std::size_t(s.threads) * s.items * per_key > (std::size_t(24) << 10)) s.items /= 2;
  s.tile = std::int64_t(s.threads) * s.items;
  s.scratch = std::size_t(s.tile) * per_key + 4 * 16;  // each buffer 16-byte aligned
  return s;
}

/// One team per tile of n keys, with the shape's scratch.
template <class E>
TeamPolicy<E> tiled_sort_policy(const E& exec, std::int64_t n, const TiledSortShape& s) {
  TeamPolicy<E> policy(exec, (n + s.tile - 1) / s.tile, s.threads, 1);
  policy.set_scratch_size(0, PerTeam(s.scratch));
  return policy;
}
/// A team's two key buffers of a tile in scratch, and its two index buffers when values ride along (else null).
template <class Member, class T>
using TileKeys = impl::ScratchPtr<typename Member::execution_space, T>;
template <class Member>
using TileIndices = impl::ScratchPtr<typename Member::execution_space, std::uint32_t>;
template <class Member, class T>
WEFT_INLINE_FUNCTION void tile_buffers(const Member& m, std::int64_t tile, bool payload, TileKeys<Member, T>& k0,
                                       TileKeys<Member, T>& k1, TileIndices<Member>& i0, TileIndices<Member>& i1) {
  // 16-byte aligned blocks (the tile shape's scratch size counts them so).
  const auto& s = m.team_scratch(0);
  k0 = TileKeys<Member, T>(static_cast<T*>(s.get_shmem_aligned(sizeof(T) * tile, 16)));
  k1 = TileKeys<Member, T>(static_cast<T*>(s.get_shmem_aligned(sizeof(T) * tile, 16)));
  using P = std::uint32_t*;
  i0 = TileIndices<Member>(payload ? static_cast<P>(s.get_shmem_aligned(sizeof(std::uint32_t) * tile, 16)) : nullptr);
  i1 = TileIndices<Member>(payload ? static_cast<P>(s.get_shmem_aligned(sizeof(std::uint32_t) * tile, 16)) : nullptr);
}

/// Phase 1: each team sorts one tile of keys[0, n) in place (and writes each key's original index to idx).
template <class E, class T, class Comp>
void sort_tiles(const E& exec, T* keys, std::uint32_t* idx, std::int64_t n, const TiledSortShape& s, const Comp& comp) {
  using Member = typename TeamPolicy<E>::member_type;
  const std::int64_t tile = s.tile;
  const int items = s.items;
  const TeamPolicy<E> policy = tiled_sort_policy(exec, n, s);
  parallel_for(
      "weft::sort (tiles in shared memory)", policy, WEFT_LAMBDA(const Member& m) {
        const bool payload = idx != nullptr;
        TileKeys<Member, T> k0, k1;
        TileIndices<Member> i0, i1;
        tile_buffers(m, tile, payload, k0, k1, i0, i1);
        const std::int64_t base = std::int64_t(m.league_rank()) * tile;
        const std::int64_t cnt = n - base < tile ? n - base : tile;
        const int t = m.team_rank(), nt = m.team_size();
        for (std::int64_t q = t; q < cnt; q += nt) {
          k0[q] = keys[base + q];
          if (payload) i0[q] = static_cast<std::uint32_t>(base + q);
        }
        m.team_barrier();
        const std::int64_t o = std::int64_t(t) * items;
        const std::int64_t mine = o < cnt ? (cnt - o < items ? cnt - o : items) : 0;
        for (std::int64_t i = o + 1; i < o + mine; ++i) {  // this thread's keys, by insertion: stable
          const T x = k0[i];
          const std::uint32_t y = payload ? i0[i] : 0u;
          std::int64_t j = i;
          for (; j > o && comp(x, k0[j - 1]); --j) {
            k0[j] = k0[j - 1];
            if (payload) i0[j] = i0[j - 1];
          }
          k0[j] = x;
          if (payload) i0[j] = y;
        }
        m.team_barrier();
        for (std::int64_t w = items; w < cnt; w *= 2) {  // merge runs of w in scratch; each thread `items` outputs
          if (mine > 0) {
            const std::int64_t lo = o / (2 * w) * (2 * w), mid = lo + w < cnt ? lo + w : cnt,
                               hi = lo + 2 * w < cnt ? lo + 2 * w : cnt;
            const std::int64_t a = merge_path(k0 + lo, mid - lo, k0 + mid, hi - mid, o - lo, comp);
            merge_into(k0 + lo, i0 + lo, mid - lo, k0 + mid, i0 + mid, hi - mid, a, o - lo - a, mine, k1 + o, i1 + o,
                       comp);
          }
          m.team_barrier();
          const TileKeys<Member, T> tk = k0;
          k0 = k1;
          k1 = tk;
          const TileIndices<Member> ti = i0;
          i0 = i1;
          i1 = ti;
        }
        for (std::int64_t q = t; q < cnt; q += nt) {
          keys[base + q] = k0[q];
          if (payload) idx[base + q] = i0[q];
        }
      });
}

/// Phase 2, one doubling: merges the sorted runs of w in src (runs 2r and 2r + 1) into dst, one output tile per team.
template <class E, class T, class Comp>
void merge_tiles(const E& exec, const T* src, const std::uint32_t* isrc, T* dst, std::uint32_t* idst, std::int64_t n,
                 std::int64_t w, const TiledSortShape& s, const Comp& comp) {
  using Member = typename TeamPolicy<E>::member_type;
  const std::int64_t tile = s.tile;
  const int items = s.items;
  const TeamPolicy<E> policy = tiled_sort_policy(exec, n, s);
  parallel_for(
      "weft::sort (merge path)", policy, WEFT_LAMBDA(const Member& m) {
        const bool payload = idst != nullptr;
        TileKeys<Member, T> sk, so;
        TileIndices<Member> si, sio;
        tile_buffers(m, tile, payload, sk, so, si, sio);
        const std::int64_t o0 = std::int64_t(m.league_rank()) * tile, o1 = o0 + tile < n ? o0 + tile : n;
        const std::int64_t lo = o0 / (2 * w) * (2 * w), mid = lo + w < n ? lo + w : n,
                           hi = lo + 2 * w < n ? lo + 2 * w : n;
        // This tile's share of each run (every thread searches; the reads are the same for all).
        const std::int64_t a0 = merge_path(src + lo, mid - lo, src + mid, hi - mid, o0 - lo, comp);
        const std::int64_t a1 = merge_path(src + lo, mid - lo, src + mid, hi - mid, o1 - lo, comp);
        const std::int64_t na = a1 - a0, b0 = o0 - lo - a0, nb = o1 - lo - a1 - b0;
        const int t = m.team_rank(), nt = m.team_size();
        for (std::int64_t q = t; q < na; q += nt) {
          sk[q] = src[lo + a0 + q];
          if (payload) si[q] = isrc[lo + a0 + q];
        }
        for (std::int64_t q = t; q < nb; q += nt) {
          sk[na + q] = src[mid + b0 + q];
          if (payload) si[na + q] = isrc[mid + b0 + q];
        }
        m.team_barrier();
        const std::int64_t cnt = o1 - o0, o = std::int64_t(t) * items;
        if (o < cnt) {
          const std::int64_t a = merge_path(sk, na, sk + na, nb, o, comp);
          merge_into(sk, si, na, sk + na, si + na, nb, a, o - a, cnt - o < items ? cnt - o : items, so + o, sio + o,
                     comp);
        }
        m.team_barrier();
        for (std::int64_t q = t; q < cnt; q += nt) {
          dst[o0 + q] = so[q];
          if (payload) idst[o0 + q] = sio[q];
        }
      });
}

/// values(i) = old values(idx(i)), through a contiguous copy.
template <class E, class VV, class IV>
void gather_values(const E& exec, const VV& values, const IV& idx) {
  using VT = typename VV::non_const_value_type;
  const View<VT*, typename VV::memory_space> moved(view_alloc("weft::sort values", WithoutInitializing),
                                                   values.extent(0));
  parallel_for(
      "weft::sort (gather values)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, std::int64_t(values.extent(0))),
      WEFT_LAMBDA(std::int64_t i) { moved(i) = values(idx(i)); });
  deep_copy(exec, values, moved);
}

/// The stable merge sort of keys (and values, when `values` is not null) on a device execution space, with a
/// comparator callable there: sorted tiles in shared memory, then merge-path passes (see the top of this file).
template <class E, class K, class VV, class Comp>
void device_merge_sort(const E& exec, const K& keys, const VV* values, Comp comp) {
  using T = typename K::non_const_value_type;
  using M = typename K::memory_space;
  const std::int64_t n = static_cast<std::int64_t>(keys.extent(0));
  if (n < 2) return;
  const TiledSortShape s = tiled_sort_shape<T>(values != nullptr);
  // Tiles are sized for 24 KiB (several teams per SM); a tile of one wide key per thread that still needs more
  // than 32 KiB would cost occupancy on any GPU, so such keys take the simple sort.
  if (s.scratch > std::min(TeamPolicy<E>::scratch_size_max(0), std::size_t(32) << 10) || n > std::int64_t(0xffffffffLL))
    return device_merge_sort_simple(exec, keys, values, comp);
  View<T*, M> a(view_alloc("weft::sort keys", WithoutInitializing), n),
      b(view_alloc("weft::sort keys (merged)", WithoutInitializing), n);
  View<std::uint32_t*, M> ia(view_alloc("weft::sort indices", WithoutInitializing), values ? n : 0),
      ib(view_alloc("weft::sort indices (merged)", WithoutInitializing), values ? n : 0);
  deep_copy(exec, a, keys);
  sort_tiles(exec, a.data(), values ? ia.data() : nullptr, n, s, comp);
  for (std::int64_t w = s.tile; w < n; w *= 2) {
    merge_tiles(exec, a.data(), values ? ia.data() : nullptr, b.data(), values ? ib.data() : nullptr, n, w, s, comp);
    std::swap(a, b);
    std::swap(ia, ib);
  }
  deep_copy(exec, keys, a);
  if (values) gather_values(exec, *values, ia);
}

template <class V>
std::vector<typename V::non_const_value_type> to_host_vector(const V& v) {
  auto h = create_mirror_view_and_copy(HostSpace(), v);
  std::vector<typename V::non_const_value_type> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}
template <class V, class T>
void from_host_vector(const V& v, const std::vector<T>& in) {
  auto h = create_mirror_view(HostSpace(), v);
  for (std::size_t i = 0; i < in.size(); ++i) h(i) = in[i];
  deep_copy(v, h);
}
/// Comparators that order integer keys as < or > do, so that the stable comparator sort of integer keys is the
/// (stable) radix sort, ascending or descending: O(n) passes instead of a merge sort's O(n log n). Floating-point
/// keys keep the merge sort: under std::less, -0.0 and +0.0 are equal and keep their input order, where the
/// radix order puts -0.0 first.
template <class Comp, class T>
inline constexpr int standard_order_v = 0;  // 1: ascending, -1: descending, 0: another comparator
template <class T>
inline constexpr int standard_order_v<DefaultLess, T> = 1;
template <class T>
inline constexpr int standard_order_v<std::less<>, T> = 1;
template <class T>
inline constexpr int standard_order_v<std::less<T>, T> = 1;
template <class T>
inline constexpr int standard_order_v<std::greater<>, T> = -1;
template <class T>
inline constexpr int standard_order_v<std::greater<T>, T> = -1;
template <class Comp, class T>
inline constexpr int radix_order_v = std::is_integral_v<T> && !std::is_same_v<T, bool> ? standard_order_v<Comp, T> : 0;
/// Floating keys under std::less / std::greater on a backend with the vendor paths: cub::DeviceMergeSort.
template <class E, class Comp, class T>
inline constexpr int vendor_merge_order_v = has_vendor_algorithms_v<E> &&
                                                    (std::is_same_v<T, float> || std::is_same_v<T, double>)
                                                ? standard_order_v<Comp, T>
                                                : 0;

/// The vendor comparison sort (cub::DeviceMergeSort) of floating keys, in place where the keys are contiguous;
/// values follow a 32-bit index and are gathered once. false (nothing done) where the vendor path may not run.
template <bool Descending, class E, class K, class VV>
bool vendor_merge_sort(const E& exec, const K& keys, const VV* values) {
  using T = typename K::non_const_value_type;
  using M = typename K::memory_space;
  const std::int64_t n = static_cast<std::int64_t>(keys.extent(0));
  if (n < 2 || !experimental::vendor_algorithms_enabled() || n > std::int64_t(0x7fffffff)) return false;
  const bool in_place = vendor::contiguous<E>(keys);
  View<T*, M> a;
  if (!in_place) {
    a = View<T*, M>(view_alloc(WithoutInitializing, keys.label() + " (sort keys)"), n);
    deep_copy(exec, a, keys);
  }
  View<std::uint32_t*, M> idx;
  if (values) {
    idx = View<std::uint32_t*, M>(view_alloc(WithoutInitializing, "weft::sort (index)"), n);
    parallel_for(
        "weft::sort (index)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
        WEFT_LAMBDA(std::int64_t i) { idx(i) = static_cast<std::uint32_t>(i); });
  }
  vendor::merge_sort(exec, in_place ? keys.data() : a.data(), values ? idx.data() : nullptr, static_cast<int>(n),
                     Descending);
  if (!in_place) deep_copy(exec, keys, a);
  if (values) gather_values(exec, *values, idx);
  return true;
}
}  // namespace impl

/// Sorts v ascending (stable). Arithmetic keys: radix sort on exec; other types: operator<, on the host.
template <ExecutionSpace E, class V>
void sort(const E& exec, const V& v) {
  impl::check_rank1(v, "sort");
  using T = typename V::non_const_value_type;
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    impl::radix_sort(exec, v, static_cast<const impl::NoValues*>(nullptr));
  } else {
    sort(exec, v, impl::DefaultLess{});
  }
}
/// Sorts v by comp (a strict weak order; stable). On host spaces comp runs on the host's threads; on device
/// spaces the merge sort runs there, so comp must be callable on the device (a WEFT_LAMBDA, or a functor
/// whose operator() is WEFT_INLINE_FUNCTION), as with Kokkos::sort.
template <ExecutionSpace E, class V, class Comp>
void sort(const E& exec, const V& v, Comp comp) {
  impl::check_rank1(v, "sort");
  using T = typename V::non_const_value_type;
  if constexpr (impl::vendor_merge_order_v<E, Comp, T> != 0) {
    if (impl::vendor_merge_sort<(impl::vendor_merge_order_v<E, Comp, T> < 0)>(
            exec, v, static_cast<const View<char*, typename V::memory_space>*>(nullptr)))
      return;
  }
  if constexpr (impl::radix_order_v<Comp, T> != 0) {
    impl::radix_sort<(impl::radix_order_v<Comp, T> < 0)>(exec, v, static_cast<const impl::NoValues*>(nullptr));
  } else if constexpr (E::impl_is_host_space) {
    exec.fence();
    auto a = impl::to_host_vector(v);
    impl::host_stable_sort(a, comp);
    impl::from_host_vector(v, a);
  } else {
    impl::device_merge_sort(exec, v, static_cast<const View<char*, typename V::memory_space>*>(nullptr), comp);
  }
}
template <class V>
void sort(const V& v) {
  sort(impl::exec_for_memory_t<typename V::memory_space>(), v);
}
/// Sorts v(begin), ..., v(end - 1) ascending and leaves the rest (Kokkos::sort(view, begin, end)).
template <ExecutionSpace E, class V, std::integral B, std::integral End>
void sort(const E& exec, const V& v, B begin, End end) {
  impl::check_rank1(v, "sort");
  if (begin < 0 || end < begin || static_cast<std::size_t>(end) > v.extent(0))
    impl::throw_cat({"weft::sort: the range [", begin, ", ", end, ") is not inside \"", v.label(), "\" (", v.extent(0),
                     " elements)"});
  sort(exec, subview(v, pair<long, long>(static_cast<long>(begin), static_cast<long>(end))));
}
template <class V, std::integral B, std::integral End>
void sort(const V& v, B begin, End end) {
  sort(impl::exec_for_memory_t<typename V::memory_space>(), v, begin, end);
}
/// Sorts a DynamicView's elements [begin, end) ascending (Kokkos::sort(exec, dynamic_view, begin, end)): its chunks
/// are not one array, so the elements are sorted in one View of the same memory space and copied back.
template <ExecutionSpace E, class D, class... P, std::integral B, std::integral End>
void sort(const E& exec, const DynamicView<D, P...>& v, B begin, End end) {
  if (begin < 0 || end < begin || static_cast<std::size_t>(end) > v.size())
    impl::throw_cat(
        {"weft::sort: the range [", begin, ", ", end, ") is not inside \"", v.label(), "\" (", v.size(), " elements)"});
  using V = DynamicView<D, P...>;
  View<typename V::non_const_value_type*, typename V::memory_space> tmp(
      view_alloc(WithoutInitializing, v.label() + " (sort)"), v.size());
  deep_copy(exec, tmp, v);
  sort(exec, tmp, begin, end);
  deep_copy(exec, v, tmp);
  exec.fence();  // tmp is freed on return
}
template <ExecutionSpace E, class D, class... P>
void sort(const E& exec, const DynamicView<D, P...>& v) {
  sort(exec, v, std::size_t(0), v.size());
}
template <class D, class... P>
void sort(const DynamicView<D, P...>& v) {
  sort(typename DynamicView<D, P...>::execution_space(), v);
}
template <class D, class... P, std::integral B, std::integral End>
void sort(const DynamicView<D, P...>& v, B begin, End end) {
  sort(typename DynamicView<D, P...>::execution_space(), v, begin, end);
}
/// Sorts keys ascending and applies the same permutation to values (stable: equal keys keep their values' order).
template <ExecutionSpace E, class K, class V>
void sort_by_key(const E& exec, const K& keys, const V& values) {
  impl::check_rank1(keys, "sort_by_key");
  impl::check_rank1(values, "sort_by_key");
  impl::check_same_size("sort_by_key", keys, values);
  using T = typename K::non_const_value_type;
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    impl::radix_sort(exec, keys, &values);
  } else {
    sort_by_key(exec, keys, values, impl::DefaultLess{});
  }
}
/// Sorts keys by comp and applies the permutation to values (stable); comp as for sort(exec, v, comp).
template <ExecutionSpace E, class K, class V, class Comp>
void sort_by_key(const E& exec, const K& keys, const V& values, Comp comp) {
  impl::check_rank1(keys, "sort_by_key");
  impl::check_rank1(values, "sort_by_key");
  impl::check_same_size("sort_by_key", keys, values);
  using T = typename K::non_const_value_type;
  if constexpr (impl::vendor_merge_order_v<E, Comp, T> != 0) {
    if (impl::vendor_merge_sort<(impl::vendor_merge_order_v<E, Comp, T> < 0)>(exec, keys, &values)) return;
  }
  if constexpr (impl::radix_order_v<Comp, T> != 0) {
    impl::radix_sort<(impl::radix_order_v<Comp, T> < 0)>(exec, keys, &values);
    return;
  } else if constexpr (!E::impl_is_host_space) {
    impl::device_merge_sort(exec, keys, &values, comp);
    return;
  }
  exec.fence();
  auto k = impl::to_host_vector(keys);
  auto v = impl::to_host_vector(values);
  using KT = typename K::non_const_value_type;
  using VT = typename V::non_const_value_type;
  std::vector<std::pair<KT, VT>> kv(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) kv[i] = {k[i], v[i]};
  impl::host_stable_sort(
      kv, [comp](const std::pair<KT, VT>& a, const std::pair<KT, VT>& b) { return comp(a.first, b.first); });
  for (std::size_t i = 0; i < k.size(); ++i) {
    k[i] = kv[i].first;
    v[i] = kv[i].second;
  }
  impl::from_host_vector(keys, k);
  impl::from_host_vector(values, v);
}
/// The stable variants: both sorts above are stable already.
template <ExecutionSpace E, class V, class... Comp>
void stable_sort(const E& exec, const V& v, Comp... comp) {
  sort(exec, v, comp...);
}
template <ExecutionSpace E, class K, class V, class... Comp>
void stable_sort_by_key(const E& exec, const K& keys, const V& values, Comp... comp) {
  sort_by_key(exec, keys, values, comp...);
}
}  // namespace weft
