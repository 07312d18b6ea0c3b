// Sorts inside a kernel: a team sorts one rank-1 View together (sort_team, sort_by_key_team), or one thread with its
// vector lanes (sort_thread, sort_by_key_thread), as Kokkos::Experimental's nested sorts. A bitonic network over the
// length rounded up to a power of two, with the positions past the end treated as larger than every key, so any
// length sorts in log^2 steps of independent compare-exchanges; not stable.
#pragma once

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include <weft/macros.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>
#include <weft/team.hpp>
#include <weft/view.hpp>

namespace weft {
namespace impl {
struct NestedSortLess {
  template <class T>
  WEFT_INLINE_FUNCTION constexpr bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

/// Keys and values of different lengths: the kernel stops with the message (a kernel cannot throw).
[[noreturn]] WEFT_INLINE_FUNCTION void nested_sort_size_abort(const char* what, std::size_t keys, std::size_t values) {
#if WEFT_IMPL_DEVICE_PASS
  ::printf("weft::%s: the keys (%llu) and values (%llu) extents must be the same\n", what,
           static_cast<unsigned long long>(keys), static_cast<unsigned long long>(values));
  WEFT_IMPL_DEVICE_TRAP();
  __builtin_unreachable();
#else
  char m[160];
  std::snprintf(m, sizeof m, "weft::%s: the keys (%llu) and values (%llu) extents must be the same", what,
                static_cast<unsigned long long>(keys), static_cast<unsigned long long>(values));
  abort_with(m);
#endif
}

/// The network: for each merge width k (2, 4, ... up to the padded length) the first step compares each element of
/// a block of k with its mirror image in the block, the following steps (j = k/4 ... 1) each element with the one j
/// above it in blocks of 2j; every step is npow2/2 independent pairs, spread by `range(count)`, then `sync()`.
template <bool ByKey, class MakeRange, class Sync, class K, class V, class Comp>
WEFT_INLINE_FUNCTION void nested_bitonic_sort(const MakeRange& range, const Sync& sync, const K& keys, const V& values,
                                              const Comp& comp) {
  static_assert(K::rank == 1 && (!ByKey || V::rank == 1), "weft: the nested sorts take rank-1 Views");
  const std::size_t n = keys.extent(0);
  if (n < 2) return;
  std::size_t npow2 = 2;
  while (npow2 < n) npow2 <<= 1;
  for (std::size_t k = 2; k <= npow2; k <<= 1) {
    for (std::size_t j = k >> 1; j > 0; j >>= 1) {
      const bool mirror = j == (k >> 1);
      parallel_for(range(npow2 >> 1), [&](std::size_t p) {
        const std::size_t base = (p / j) * (2 * j), off = p % j;
        const std::size_t lo = base + off, hi = mirror ? base + 2 * j - 1 - off : lo + j;
        if (hi < n && comp(keys(hi), keys(lo))) {
          const auto t = keys(lo);
          keys(lo) = keys(hi);
          keys(hi) = t;
          if constexpr (ByKey) {
            const auto u = values(lo);
            values(lo) = values(hi);
            values(hi) = u;
          }
        }
      });
      sync();
    }
  }
}
}  // namespace impl

/// sort_team(member, v[, comp]): the team sorts the rank-1 View v (comp(a, b): a goes first; default a < b). Every
/// thread of the team calls it; the team's threads and vector lanes share the work; on return every thread sees v
/// sorted.
template <class Member, class K, class Comp = impl::NestedSortLess>
WEFT_INLINE_FUNCTION void sort_team(const Member& t, const K& keys, const Comp& comp = Comp()) {
  impl::nested_bitonic_sort<false>([&](std::size_t c) { return TeamVectorRange(t, c); }, [&] { t.team_barrier(); },
                                   keys, keys, comp);
}
/// sort_by_key_team(member, keys, values[, comp]): sorts keys and moves values with them.
template <class Member, class K, class V, class Comp = impl::NestedSortLess>
WEFT_INLINE_FUNCTION void sort_by_key_team(const Member& t, const K& keys, const V& values, const Comp& comp = Comp()) {
  if (keys.extent(0) != values.extent(0))
    impl::nested_sort_size_abort("sort_by_key_team", keys.extent(0), values.extent(0));
  impl::nested_bitonic_sort<true>([&](std::size_t c) { return TeamVectorRange(t, c); }, [&] { t.team_barrier(); }, keys,
                                  values, comp);
}
/// sort_thread(member, v[, comp]): the calling thread sorts v with its vector lanes (the other threads of the team
/// may sort other Views at the same time).
template <class Member, class K, class Comp = impl::NestedSortLess>
WEFT_INLINE_FUNCTION void sort_thread(const Member& t, const K& keys, const Comp& comp = Comp()) {
  impl::nested_bitonic_sort<false>([&](std::size_t c) { return ThreadVectorRange(t, c); }, [] {}, keys, keys, comp);
}
/// sort_by_key_thread(member, keys, values[, comp]): the calling thread's vector lanes sort keys and move values.
template <class Member, class K, class V, class Comp = impl::NestedSortLess>
WEFT_INLINE_FUNCTION void sort_by_key_thread(const Member& t, const K& keys, const V& values,
                                             const Comp& comp = Comp()) {
  if (keys.extent(0) != values.extent(0))
    impl::nested_sort_size_abort("sort_by_key_thread", keys.extent(0), values.extent(0));
  impl::nested_bitonic_sort<true>([&](std::size_t c) { return ThreadVectorRange(t, c); }, [] {}, keys, values, comp);
}

}  // namespace weft
