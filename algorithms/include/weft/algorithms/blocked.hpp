// The portable building block of weft's algorithms: split [0, n) into B contiguous blocks, let one thread
// handle each block with a serial loop, and combine the blocks' partial results with an exclusive scan. Built
// only on parallel_for / parallel_scan, so it runs on every backend; on the host B is the thread count (the
// shape of a hand-written two-pass OpenMP algorithm), on GPUs a few thousand blocks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <weft/weft.hpp>

namespace weft::impl {

template <class E>
std::int64_t algorithm_blocks(const E& exec, std::int64_t n) {
  if (n <= 0) return 1;
  std::int64_t b;
  if constexpr (E::impl_is_host_space)
    b = std::max(1, exec.concurrency());
  else
    b = std::min<std::int64_t>(8192, std::max<std::int64_t>(1, n / 2048));
  return std::max<std::int64_t>(1, std::min(b, n));
}

/// The half-open range of block b of B over [0, n).
struct BlockRange {
  std::int64_t n, blocks;
  WEFT_INLINE_FUNCTION std::int64_t begin(std::int64_t b) const {
    const std::int64_t q = n / blocks, r = n % blocks;
    return b * q + (b < r ? b : r);
  }
  WEFT_INLINE_FUNCTION std::int64_t end(std::int64_t b) const { return begin(b + 1); }
};

/// In place: v(i) = sum of v(j) for j < i, returning the total (one value per block, so B is small).
template <class E, class V>
typename V::non_const_value_type exclusive_sum_in_place(const E& exec, const V& v, const std::string& label) {
  using T = typename V::non_const_value_type;
  T total{};
  parallel_scan(
      label, RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(v.extent(0))),
      WEFT_LAMBDA(std::int64_t i, T & upd, bool final) {
        const T x = v(i);
        if (final) v(i) = upd;
        upd += x;
      },
      total);
  return total;
}

template <class V>
void check_rank1(const V&, const char* fn) {
  static_assert(is_view_v<V>, "weft algorithms take weft::View arguments");
  static_assert(V::R == 1, "weft algorithms take rank-1 Views");
  (void)fn;
}
template <class A, class B>
void check_same_size(const char* fn, const A& a, const B& b) {
  if (a.extent(0) != b.extent(0))
    throw_cat({"weft::", fn, ": View \"", a.label(), "\" has ", a.extent(0), " elements but \"", b.label(), "\" has ",
               b.extent(0), "; give them the same size"});
}
}  // namespace weft::impl
