// weft::experimental: the std algorithms on rank-1 Views with an execution-space instance first (as
// Kokkos::Experimental): fill, copy, transform, for_each, iota, reverse, equal, reduce, count_if, all_of / any_of /
// none_of, find_if, min_element / max_element / minmax_element, the four scans, copy_if / remove_if / unique,
// adjacent_difference, and histogram. Functors run on the instance, so they must be callable there
// (WEFT_LAMBDA or WEFT_INLINE_FUNCTION). Index-returning calls give v.extent(0) when there is no such element.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <weft/algorithms/blocked.hpp>

namespace weft::experimental {

struct Plus {
  template <class T>
  WEFT_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct Identity {
  template <class T>
  WEFT_INLINE_FUNCTION T operator()(const T& a) const {
    return a;
  }
};

namespace impl {
using weft::impl::BlockRange;
template <class E>
using Range = RangePolicy<E, IndexType<std::int64_t>>;
template <class V>
std::int64_t size_of(const V& v) {
  return static_cast<std::int64_t>(v.extent(0));
}

/// The blocked scan: block folds, a serial pass over the B block totals (one thread), then each block scans
/// from its carry. Works for any associative op; `init` is used when has_init (always for exclusive scans).
template <bool Exclusive, class In, class Out, class T, class Op, class Tr, class P>
struct ScanKernels {
  In in;
  Out out;
  Op op;
  Tr tr;
  P partial;  // View<T*>: block folds, then carries
  BlockRange br;
  T init;
  bool has_init;
  WEFT_INLINE_FUNCTION void fold(std::int64_t b) const {
    const std::int64_t e = br.end(b);
    std::int64_t i = br.begin(b);
    T acc = static_cast<T>(tr(in(i)));
    for (++i; i < e; ++i) acc = op(acc, tr(in(i)));
    partial(b) = acc;
  }
  WEFT_INLINE_FUNCTION void carries() const {  // partial(b) := fold of everything before block b (with init)
    T run = init;
    bool have = has_init;
    for (std::int64_t b = 0; b < br.blocks; ++b) {
      const T mine = partial(b);
      partial(b) = run;
      run = have ? op(run, mine) : mine;
      have = true;
    }
  }
  WEFT_INLINE_FUNCTION void apply(std::int64_t b) const {
    const std::int64_t e = br.end(b);
    bool have = has_init || b > 0;
    T run = partial(b);
    for (std::int64_t i = br.begin(b); i < e; ++i) {
      const T x = tr(in(i));
      if constexpr (Exclusive) {
        out(i) = run;
        run = op(run, x);
      } else {
        run = have ? op(run, x) : x;
        have = true;
        out(i) = run;
      }
    }
  }
};
template <class K>
struct CallFold {
  K k;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t b) const { k.fold(b); }
};
template <class K>
struct CallCarries {
  K k;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t) const { k.carries(); }
};
template <class K>
struct CallApply {
  K k;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t b) const { k.apply(b); }
};

template <bool Exclusive, class E, class In, class Out, class T, class Op, class Tr>
void blocked_scan(const E& exec, const In& in, const Out& out, Op op, Tr tr, T init, bool has_init, const char* name) {
  weft::impl::check_rank1(in, name);
  weft::impl::check_rank1(out, name);
  weft::impl::check_same_size(name, in, out);
  const std::int64_t n = size_of(in);
  if (n == 0) return;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  View<T*, typename Out::memory_space> partial(view_alloc(WithoutInitializing, std::string(name) + " partials"),
                                               blocks);
  using K = ScanKernels<Exclusive, In, Out, T, Op, Tr, decltype(partial)>;
  const K k{in, out, op, tr, partial, BlockRange{n, blocks}, init, has_init};
  const std::string label = std::string("weft::experimental::") + name;
  parallel_for(label + " (block folds)", Range<E>(exec, 0, blocks), CallFold<K>{k});
  parallel_for(label + " (carries)", Range<E>(exec, 0, 1), CallCarries<K>{k});
  parallel_for(label + " (blocks)", Range<E>(exec, 0, blocks), CallApply<K>{k});
}

/// copy_if's kernels: per-block counts, then each block writes its selected elements from its offset.
template <class In, class Out, class Pred, class C>
struct SelectKernels {
  In in;
  Out out;
  Pred pred;
  C counts;
  BlockRange br;
  WEFT_INLINE_FUNCTION void count(std::int64_t b) const {
    std::int64_t c = 0;
    for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) c += pred(in(i)) ? 1 : 0;
    counts(b) = c;
  }
  WEFT_INLINE_FUNCTION void write(std::int64_t b) const {
    std::int64_t o = counts(b);
    for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i)
      if (pred(in(i))) out(o++) = in(i);
  }
};
template <class K>
struct CallCount {
  K k;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t b) const { k.count(b); }
};
template <class K>
struct CallWrite {
  K k;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t b) const { k.write(b); }
};
template <class Pred>
struct Not {
  Pred p;
  template <class T>
  WEFT_INLINE_FUNCTION bool operator()(const T& x) const {
    return !p(x);
  }
};
}  // namespace impl

// ---- elementwise -----------------------------------------------------------------------------------------
template <ExecutionSpace E, class V, class T>
void fill(const E& exec, const V& v, const T& value) {
  weft::impl::check_rank1(v, "fill");
  const typename V::non_const_value_type x = value;
  parallel_for(
      "weft::experimental::fill", impl::Range<E>(exec, 0, impl::size_of(v)), WEFT_LAMBDA(std::int64_t i) { v(i) = x; });
}
template <ExecutionSpace E, class S, class D>
void copy(const E& exec, const S& src, const D& dst) {
  weft::impl::check_rank1(src, "copy");
  weft::impl::check_same_size("copy", src, dst);
  parallel_for(
      "weft::experimental::copy", impl::Range<E>(exec, 0, impl::size_of(src)),
      WEFT_LAMBDA(std::int64_t i) { dst(i) = src(i); });
}
template <ExecutionSpace E, class S, class D, class F>
void transform(const E& exec, const S& src, const D& dst, F f) {
  weft::impl::check_rank1(src, "transform");
  weft::impl::check_same_size("transform", src, dst);
  parallel_for(
      "weft::experimental::transform", impl::Range<E>(exec, 0, impl::size_of(src)),
      WEFT_LAMBDA(std::int64_t i) { dst(i) = f(src(i)); });
}
template <ExecutionSpace E, class A, class B, class D, class F>
void transform(const E& exec, const A& a, const B& b, const D& dst, F f) {
  weft::impl::check_same_size("transform", a, b);
  weft::impl::check_same_size("transform", a, dst);
  parallel_for(
      "weft::experimental::transform", impl::Range<E>(exec, 0, impl::size_of(a)),
      WEFT_LAMBDA(std::int64_t i) { dst(i) = f(a(i), b(i)); });
}
template <ExecutionSpace E, class V, class F>
void for_each(const E& exec, const V& v, F f) {
  weft::impl::check_rank1(v, "for_each");
  parallel_for(
      "weft::experimental::for_each", impl::Range<E>(exec, 0, impl::size_of(v)),
      WEFT_LAMBDA(std::int64_t i) { f(v(i)); });
}
template <ExecutionSpace E, class V, class T>
void iota(const E& exec, const V& v, T start) {
  weft::impl::check_rank1(v, "iota");
  using U = typename V::non_const_value_type;
  parallel_for(
      "weft::experimental::iota", impl::Range<E>(exec, 0, impl::size_of(v)),
      WEFT_LAMBDA(std::int64_t i) { v(i) = static_cast<U>(start + static_cast<T>(i)); });
}
template <ExecutionSpace E, class V>
void reverse(const E& exec, const V& v) {
  weft::impl::check_rank1(v, "reverse");
  const std::int64_t n = impl::size_of(v);
  parallel_for(
      "weft::experimental::reverse", impl::Range<E>(exec, 0, n / 2), WEFT_LAMBDA(std::int64_t i) {
        const auto t = v(i);
        v(i) = v(n - 1 - i);
        v(n - 1 - i) = t;
      });
}
template <ExecutionSpace E, class S, class D>
void adjacent_difference(const E& exec, const S& src, const D& dst) {
  weft::impl::check_same_size("adjacent_difference", src, dst);
  if (src.extent(0) > 0 && static_cast<const void*>(src.data()) == static_cast<const void*>(dst.data()))
    throw Error("weft::experimental::adjacent_difference: src \"" + src.label() +
                "\" and dst are the same View; "
                "give a separate destination");
  parallel_for(
      "weft::experimental::adjacent_difference", impl::Range<E>(exec, 0, impl::size_of(src)),
      WEFT_LAMBDA(std::int64_t i) { dst(i) = i == 0 ? src(0) : src(i) - src(i - 1); });
}

// ---- reductions and searches -------------------------------------------------------------------------------
template <ExecutionSpace E, class V, class T>
T reduce(const E& exec, const V& v, T init) {
  weft::impl::check_rank1(v, "reduce");
  T s{};
  parallel_reduce(
      "weft::experimental::reduce", impl::Range<E>(exec, 0, impl::size_of(v)),
      WEFT_LAMBDA(std::int64_t i, T & acc) { acc += v(i); }, s);
  return init + s;
}
template <ExecutionSpace E, class V, class Pred>
std::size_t count_if(const E& exec, const V& v, Pred pred) {
  weft::impl::check_rank1(v, "count_if");
  std::int64_t c = 0;
  parallel_reduce(
      "weft::experimental::count_if", impl::Range<E>(exec, 0, impl::size_of(v)),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & acc) { acc += pred(v(i)) ? 1 : 0; }, c);
  return static_cast<std::size_t>(c);
}
template <ExecutionSpace E, class V, class Pred>
bool all_of(const E& exec, const V& v, Pred pred) {
  return count_if(exec, v, impl::Not<Pred>{pred}) == 0;
}
template <ExecutionSpace E, class V, class Pred>
bool any_of(const E& exec, const V& v, Pred pred) {
  return count_if(exec, v, pred) > 0;
}
template <ExecutionSpace E, class V, class Pred>
bool none_of(const E& exec, const V& v, Pred pred) {
  return count_if(exec, v, pred) == 0;
}
template <ExecutionSpace E, class A, class B>
bool equal(const E& exec, const A& a, const B& b) {
  if (a.extent(0) != b.extent(0)) return false;
  std::int64_t diff = 0;
  parallel_reduce(
      "weft::experimental::equal", impl::Range<E>(exec, 0, impl::size_of(a)),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & acc) { acc += (a(i) == b(i)) ? 0 : 1; }, diff);
  return diff == 0;
}
/// Index of the first element satisfying pred, or v.extent(0).
template <ExecutionSpace E, class V, class Pred>
std::size_t find_if(const E& exec, const V& v, Pred pred) {
  const std::int64_t n = impl::size_of(v);
  std::int64_t first = n;
  parallel_reduce(
      "weft::experimental::find_if", impl::Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & m) {
        if (i < m && pred(v(i))) m = i;
      },
      Min<std::int64_t>(first));
  return static_cast<std::size_t>(first < n ? first : n);
}
/// Index of the first smallest element (v.extent(0) for an empty v).
template <ExecutionSpace E, class V>
std::size_t min_element(const E& exec, const V& v) {
  using T = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if (n == 0) return 0;
  typename MinLoc<T, std::int64_t>::value_type r;
  parallel_reduce(
      "weft::experimental::min_element", impl::Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, typename MinLoc<T, std::int64_t>::value_type & m) {
        if (v(i) < m.val || (v(i) == m.val && i < m.loc)) {
          m.val = v(i);
          m.loc = i;
        }
      },
      MinLoc<T, std::int64_t>(r));
  return static_cast<std::size_t>(r.loc);
}
/// Index of the first largest element (v.extent(0) for an empty v).
template <ExecutionSpace E, class V>
std::size_t max_element(const E& exec, const V& v) {
  using T = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if (n == 0) return 0;
  typename MaxLoc<T, std::int64_t>::value_type r;
  parallel_reduce(
      "weft::experimental::max_element", impl::Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, typename MaxLoc<T, std::int64_t>::value_type & m) {
        if (v(i) > m.val || (v(i) == m.val && i < m.loc)) {
          m.val = v(i);
          m.loc = i;
        }
      },
      MaxLoc<T, std::int64_t>(r));
  return static_cast<std::size_t>(r.loc);
}
template <ExecutionSpace E, class V>
std::pair<std::size_t, std::size_t> minmax_element(const E& exec, const V& v) {
  return {min_element(exec, v), max_element(exec, v)};
}

// ---- scans ----------------------------------------------------------------------------------------------
template <ExecutionSpace E, class S, class D>
void inclusive_scan(const E& exec, const S& src, const D& dst) {
  using T = typename D::non_const_value_type;
  impl::blocked_scan<false>(exec, src, dst, Plus{}, Identity{}, T{}, false, "inclusive_scan");
}
template <ExecutionSpace E, class S, class D, class Op>
void inclusive_scan(const E& exec, const S& src, const D& dst, Op op) {
  using T = typename D::non_const_value_type;
  impl::blocked_scan<false>(exec, src, dst, op, Identity{}, T{}, false, "inclusive_scan");
}
template <ExecutionSpace E, class S, class D, class Op, class T>
void inclusive_scan(const E& exec, const S& src, const D& dst, Op op, T init) {
  impl::blocked_scan<false>(exec, src, dst, op, Identity{}, static_cast<typename D::non_const_value_type>(init), true,
                            "inclusive_scan");
}
template <ExecutionSpace E, class S, class D, class T>
void exclusive_scan(const E& exec, const S& src, const D& dst, T init) {
  impl::blocked_scan<true>(exec, src, dst, Plus{}, Identity{}, static_cast<typename D::non_const_value_type>(init),
                           true, "exclusive_scan");
}
template <ExecutionSpace E, class S, class D, class T, class Op>
void exclusive_scan(const E& exec, const S& src, const D& dst, T init, Op op) {
  impl::blocked_scan<true>(exec, src, dst, op, Identity{}, static_cast<typename D::non_const_value_type>(init), true,
                           "exclusive_scan");
}
template <ExecutionSpace E, class S, class D, class Op, class Un>
void transform_inclusive_scan(const E& exec, const S& src, const D& dst, Op op, Un un) {
  using T = typename D::non_const_value_type;
  impl::blocked_scan<false>(exec, src, dst, op, un, T{}, false, "transform_inclusive_scan");
}
template <ExecutionSpace E, class S, class D, class Op, class Un, class T>
void transform_inclusive_scan(const E& exec, const S& src, const D& dst, Op op, Un un, T init) {
  impl::blocked_scan<false>(exec, src, dst, op, un, static_cast<typename D::non_const_value_type>(init), true,
                            "transform_inclusive_scan");
}
template <ExecutionSpace E, class S, class D, class T, class Op, class Un>
void transform_exclusive_scan(const E& exec, const S& src, const D& dst, T init, Op op, Un un) {
  impl::blocked_scan<true>(exec, src, dst, op, un, static_cast<typename D::non_const_value_type>(init), true,
                           "transform_exclusive_scan");
}

// ---- compaction -----------------------------------------------------------------------------------------
/// Copies the elements satisfying pred to the front of dst, in order; returns how many. dst must hold them
/// (raises weft::Error naming both sizes otherwise, before anything is written).
template <ExecutionSpace E, class S, class D, class Pred>
std::size_t copy_if(const E& exec, const S& src, const D& dst, Pred pred) {
  weft::impl::check_rank1(src, "copy_if");
  weft::impl::check_rank1(dst, "copy_if");
  const std::int64_t n = impl::size_of(src);
  if (n == 0) return 0;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  View<std::int64_t*, typename S::memory_space> counts(view_alloc(WithoutInitializing, "weft::copy_if counts"), blocks);
  using K = impl::SelectKernels<S, D, Pred, decltype(counts)>;
  const K k{src, dst, pred, counts, impl::BlockRange{n, blocks}};
  parallel_for("weft::experimental::copy_if (count)", impl::Range<E>(exec, 0, blocks), impl::CallCount<K>{k});
  const std::int64_t total = weft::impl::exclusive_sum_in_place(exec, counts, "weft::experimental::copy_if (offsets)");
  if (total > impl::size_of(dst))
    throw Error("weft::experimental::copy_if: " + std::to_string(total) + " elements of \"" + src.label() +
                "\" pass but dst \"" + dst.label() + "\" holds " + std::to_string(dst.extent(0)) +
                "; give a destination at least as large (count_if tells how many)");
  parallel_for("weft::experimental::copy_if (write)", impl::Range<E>(exec, 0, blocks), impl::CallWrite<K>{k});
  return static_cast<std::size_t>(total);
}
/// Removes the elements satisfying pred, keeping the others' order at the front of v; returns their number
/// (v's elements past it are unspecified).
template <ExecutionSpace E, class V, class Pred>
std::size_t remove_if(const E& exec, const V& v, Pred pred) {
  View<typename V::non_const_value_type*, typename V::memory_space> tmp(
      view_alloc(WithoutInitializing, v.label() + " (remove_if)"), v.extent(0));
  const std::size_t kept = copy_if(exec, v, tmp, impl::Not<Pred>{pred});
  auto head = subview(v, std::pair<std::size_t, std::size_t>(0, kept));
  auto src = subview(tmp, std::pair<std::size_t, std::size_t>(0, kept));
  copy(exec, src, head);
  return kept;
}
/// Removes consecutive duplicates in place; returns the number of elements kept.
template <ExecutionSpace E, class V>
std::size_t unique(const E& exec, const V& v) {
  using T = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  View<std::int64_t*, typename V::memory_space> idx(view_alloc(WithoutInitializing, v.label() + " (unique)"), n);
  View<std::int64_t*, typename V::memory_space> pos("weft::unique positions", n);
  iota(exec, idx, std::int64_t(0));
  const std::size_t kept = copy_if(
      exec, idx, pos, WEFT_LAMBDA(std::int64_t i) { return i == 0 || !(v(i) == v(i - 1)); });
  View<T*, typename V::memory_space> tmp(view_alloc(WithoutInitializing, v.label() + " (unique values)"), kept);
  parallel_for(
      "weft::experimental::unique", impl::Range<E>(exec, 0, static_cast<std::int64_t>(kept)),
      WEFT_LAMBDA(std::int64_t j) { tmp(j) = v(pos(j)); });
  copy(exec, tmp, subview(v, std::pair<std::size_t, std::size_t>(0, kept)));
  return kept;
}

/// Stable partition: the elements satisfying pred first, then the others, each in their order; returns the
/// number satisfying pred.
template <ExecutionSpace E, class V, class Pred>
std::size_t partition(const E& exec, const V& v, Pred pred) {
  weft::impl::check_rank1(v, "partition");
  using T = typename V::non_const_value_type;
  const std::size_t n = v.extent(0);
  View<T*, typename V::memory_space> tmp(view_alloc(WithoutInitializing, v.label() + " (partition)"), n);
  copy(exec, v, tmp);
  View<T*, typename V::memory_space> packed(view_alloc(WithoutInitializing, v.label() + " (partition out)"), n);
  const std::size_t yes = copy_if(exec, tmp, packed, pred);
  copy_if(exec, tmp, subview(packed, std::pair<std::size_t, std::size_t>(yes, n)), impl::Not<Pred>{pred});
  copy(exec, packed, v);
  return yes;
}

namespace impl {
/// Whether keys(i) starts a run of equal consecutive keys.
template <class K>
WEFT_INLINE_FUNCTION bool is_run_start(const K& keys, std::int64_t i) {
  return i == 0 || !(keys(i) == keys(i - 1));
}
/// The first index of every run of equal consecutive keys, and their number.
template <class E, class K>
std::pair<View<std::int64_t*, typename K::memory_space>, std::size_t> run_starts(const E& exec, const K& keys) {
  const std::int64_t n = size_of(keys);
  View<std::int64_t*, typename K::memory_space> idx(view_alloc(WithoutInitializing, "weft::runs (indices)"), n);
  View<std::int64_t*, typename K::memory_space> starts(view_alloc(WithoutInitializing, "weft::runs (starts)"), n + 1);
  iota(exec, idx, std::int64_t(0));
  const std::size_t runs = copy_if(
      exec, idx, starts, WEFT_LAMBDA(std::int64_t i) { return is_run_start(keys, i); });
  const std::int64_t end = n;
  parallel_for(
      "weft::runs (end)", Range<E>(exec, 0, 1), WEFT_LAMBDA(std::int64_t) { starts(runs) = end; });
  return {starts, runs};
}
}  // namespace impl

namespace impl {
/// out(i) = the sum of values over the run of equal consecutive keys that holds i, up to i. Load-balanced: the
/// input is cut into equal blocks whatever the run lengths; each block sums its last run's tail (pass 1), the
/// carries chain across the blocks in one thread (pass 2), and each block scans its part from its carry (pass 3).
template <class E, class K, class V, class O>
void segmented_inclusive_sum(const E& exec, const K& keys, const V& values, const O& out) {
  using T = typename O::non_const_value_type;
  using M = typename O::memory_space;
  const std::int64_t n = size_of(keys);
  if (n == 0) return;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  const BlockRange br{n, blocks};
  View<T*, M> tail(view_alloc(WithoutInitializing, "weft::scan_by_key (block tails)"), blocks),
      carry(view_alloc(WithoutInitializing, "weft::scan_by_key (carries)"), blocks);
  View<int*, M> has_head(view_alloc(WithoutInitializing, "weft::scan_by_key (block has a run start)"), blocks);
  parallel_for(
      "weft::scan_by_key (block tails)", Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
        T acc{};
        int hh = 0;
        for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
          if (is_run_start(keys, i)) {
            acc = T{};
            hh = 1;
          }
          acc += values(i);
        }
        tail(b) = acc;
        has_head(b) = hh;
      });
  parallel_for(
      "weft::scan_by_key (carries)", Range<E>(exec, 0, 1), WEFT_LAMBDA(std::int64_t) {
        T c{};
        for (std::int64_t b = 0; b < blocks; ++b) {
          const std::int64_t s = br.begin(b);
          if (s < br.end(b) && is_run_start(keys, s)) c = T{};  // the block starts a run
          carry(b) = c;
          // what flows into the next block: this block's last run, plus the carry if the run began before it
          if (has_head(b))
            c = tail(b);
          else
            c += tail(b);
        }
      });
  parallel_for(
      "weft::scan_by_key (blocks)", Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
        T acc = carry(b);
        for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
          if (is_run_start(keys, i)) acc = T{};
          acc += values(i);
          out(i) = acc;
        }
      });
}
}  // namespace impl

/// For each run of equal consecutive keys: its key and the sum of its values, in order; returns the number of
/// runs. Load-balanced (a segmented scan over equal blocks), so one very long run costs what many short ones do.
template <ExecutionSpace E, class K, class V, class OK, class OV>
std::size_t reduce_by_key(const E& exec, const K& keys, const V& values, const OK& out_keys, const OV& out_values) {
  weft::impl::check_same_size("reduce_by_key", keys, values);
  auto [starts, runs] = impl::run_starts(exec, keys);
  if (runs > out_keys.extent(0) || runs > out_values.extent(0))
    throw Error("weft::experimental::reduce_by_key: " + std::to_string(runs) + " runs of keys in \"" + keys.label() +
                "\" but the outputs hold " + std::to_string(out_keys.extent(0)) + " and " +
                std::to_string(out_values.extent(0)) + "; give outputs as large as the number of runs");
  using T = typename OV::non_const_value_type;
  View<T*, typename OV::memory_space> sums(view_alloc(WithoutInitializing, "weft::reduce_by_key (running sums)"),
                                           impl::size_of(keys));
  impl::segmented_inclusive_sum(exec, keys, values, sums);
  auto st = starts;
  parallel_for(
      "weft::experimental::reduce_by_key", impl::Range<E>(exec, 0, static_cast<std::int64_t>(runs)),
      WEFT_LAMBDA(std::int64_t j) {
        out_keys(j) = keys(st(j));
        out_values(j) = sums(st(j + 1) - 1);  // the run's running sum at its last element
      });
  return runs;
}
/// out(i) = the sum of values(j) over the run of equal consecutive keys that holds i, for j <= i (load-balanced).
template <ExecutionSpace E, class K, class V, class O>
void inclusive_scan_by_key(const E& exec, const K& keys, const V& values, const O& out) {
  weft::impl::check_same_size("inclusive_scan_by_key", keys, values);
  weft::impl::check_same_size("inclusive_scan_by_key", keys, out);
  impl::segmented_inclusive_sum(exec, keys, values, out);
}

// ---- histogram ------------------------------------------------------------------------------------------
/// bins(k) += the number of values in [lo + k w, lo + (k+1) w), w = (hi - lo) / bins.extent(0); values outside
/// [lo, hi) (and NaN) are not counted. Counts are privatised per block, then summed: no atomics.
template <ExecutionSpace E, class V, class B, class T>
void histogram(const E& exec, const V& values, const B& bins, T lo, T hi) {
  weft::impl::check_rank1(values, "histogram");
  weft::impl::check_rank1(bins, "histogram");
  const std::int64_t n = impl::size_of(values), nb = impl::size_of(bins);
  if (!(hi > lo) || nb == 0)
    throw Error("weft::experimental::histogram: the range [" + std::to_string(double(lo)) + ", " +
                std::to_string(double(hi)) + ") or the " + std::to_string(nb) + " bins of \"" + bins.label() +
                "\" is empty; give lo < hi and at least one bin");
  using C = typename B::non_const_value_type;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  View<C*, typename B::memory_space> priv("weft::histogram (per block)", blocks * nb);
  const impl::BlockRange br{n, blocks};
  const double dlo = static_cast<double>(lo), scale = static_cast<double>(nb) / (static_cast<double>(hi) - dlo);
  parallel_for(
      "weft::experimental::histogram (blocks)", impl::Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
        for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
          const double x = (static_cast<double>(values(i)) - dlo) * scale;
          if (x >= 0 && x < static_cast<double>(nb)) ++priv(b * nb + static_cast<std::int64_t>(x));
        }
      });
  parallel_for(
      "weft::experimental::histogram (sum)", impl::Range<E>(exec, 0, nb), WEFT_LAMBDA(std::int64_t k) {
        C s = 0;
        for (std::int64_t b = 0; b < blocks; ++b) s += priv(b * nb + k);
        bins(k) += s;
      });
}
}  // namespace weft::experimental
