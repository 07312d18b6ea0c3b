// weft::experimental: the std algorithms on rank-1 Views with an execution-space instance first (as
// Kokkos::Experimental): fill, copy, transform, for_each, iota, reverse, equal, reduce, count_if, all_of / any_of /
// none_of, find_if, min_element / max_element / minmax_element, reduce / transform_reduce, the four scans, copy_if /
// remove_if / unique / partition, the by-key reductions and scans, run_length_encode, adjacent_difference, and
// histogram. Functors run on the instance, so they must be callable there (WEFT_LAMBDA or WEFT_INLINE_FUNCTION).
// Index-returning calls give v.extent(0) when there is no such element. On weft::Cuda, contiguous Views of
// arithmetic types take CUB's device algorithms where the operators are the standard ones (vendor_algorithms.hpp);
// every other case runs the portable kernels below, which are also those fast paths' reference in the tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/algorithms/blocked.hpp>
#include <weft/algorithms/vendor_algorithms.hpp>

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
struct Multiplies {
  template <class T>
  WEFT_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
/// The smaller of two values (the first when neither is smaller), as a reduction operator.
struct Minimum {
  template <class T>
  WEFT_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
/// The larger of two values (the first when neither is larger), as a reduction operator.
struct Maximum {
  template <class T>
  WEFT_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
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

namespace vendor = weft::impl::vendor;
/// Whether E has the vendor paths at all (a compile-time guard: no vendor entry point is referenced elsewhere).
template <class E>
inline constexpr bool has_vendor = weft::impl::has_vendor_algorithms_v<E>;
/// Which standard reduction an operator is (vendor::ReduceOp), or none: Plus and std::plus are sums, Minimum and
/// Maximum min and max. Only these take the vendor reductions.
template <class Op, class T>
struct standard_op {
  static constexpr bool known = false;
  static constexpr vendor::ReduceOp op = vendor::ReduceOp::sum;
};
template <class Op, class T>
requires(std::is_same_v<Op, Plus> || std::is_same_v<Op, std::plus<>> ||
         std::is_same_v<Op, std::plus<T>>) struct standard_op<Op, T> {
  static constexpr bool known = true;
  static constexpr vendor::ReduceOp op = vendor::ReduceOp::sum;
};
template <class T>
struct standard_op<Minimum, T> {
  static constexpr bool known = true;
  static constexpr vendor::ReduceOp op = vendor::ReduceOp::min;
};
template <class T>
struct standard_op<Maximum, T> {
  static constexpr bool known = true;
  static constexpr vendor::ReduceOp op = vendor::ReduceOp::max;
};
template <class Op, class T>
inline constexpr bool is_sum_v = standard_op<Op, T>::known&& standard_op<Op, T>::op == vendor::ReduceOp::sum;
template <class Op, class T>
inline constexpr bool is_product_v =
    std::is_same_v<Op, Multiplies> || std::is_same_v<Op, std::multiplies<>> || std::is_same_v<Op, std::multiplies<T>>;

/// Whether [a.data(), a.data() + a.extent(0)) and b's range share memory.
template <class A, class B>
bool overlap(const A& a, const B& b) {
  if (a.extent(0) == 0 || b.extent(0) == 0) return false;
  const auto* a0 = reinterpret_cast<const char*>(a.data());
  const auto* b0 = reinterpret_cast<const char*>(b.data());
  return a0 < b0 + b.extent(0) * sizeof(*b.data()) && b0 < a0 + a.extent(0) * sizeof(*a.data());
}

/// A reducer for any associative, commutative op: a value and whether it holds one (no identity element needed).
template <class T>
struct Joined {
  T v;
  int has;
};
template <class T, class Op>
class JoinReducer : public weft::impl::ReducerResult<Joined<T>, HostSpace> {
 public:
  using reducer = JoinReducer;
  using value_type = Joined<T>;
  JoinReducer(value_type& r, Op op) : weft::impl::ReducerResult<Joined<T>, HostSpace>(r), op_(op) {}
  WEFT_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (!s.has) return;
    if (d.has)
      d.v = op_(d.v, s.v);
    else
      d = s;
  }
  WEFT_INLINE_FUNCTION void init(value_type& x) const {
    x.v = T{};
    x.has = 0;
  }

 private:
  Op op_;
};
/// init op'd with op over element(i) for i in [0, n).
template <class E, class T, class Op, class F>
T joined_reduce(const E& exec, std::int64_t n, T init, Op op, F element, const char* name) {
  Joined<T> r{T{}, 0};
  parallel_reduce(
      std::string("weft::experimental::") + name, Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, Joined<T> & acc) {
        const T x = static_cast<T>(element(i));
        if (acc.has) {
          acc.v = op(acc.v, x);
        } else {
          acc.v = x;
          acc.has = 1;
        }
      },
      JoinReducer<T, Op>(r, op));
  return r.has ? op(init, r.v) : init;
}
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
/// init + the sum of v's elements (accumulated in T). On weft::Cuda: cub::DeviceReduce::Sum where T is v's
/// arithmetic element type and v is contiguous.
template <ExecutionSpace E, class V, class T>
T reduce(const E& exec, const V& v, T init) {
  weft::impl::check_rank1(v, "reduce");
  using VT = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if constexpr (impl::has_vendor<E> && std::is_same_v<VT, T> && !std::is_void_v<impl::vendor::ordered_t<T>>) {
    if (n > 0 && impl::vendor::path_ok<E>(n, v)) {
      using U = impl::vendor::ordered_t<T>;
      return init +
             static_cast<T>(impl::vendor::reduce(exec, impl::vendor::as<U>(v.data()), n, impl::vendor::ReduceOp::sum));
    }
  }
  T s{};
  parallel_reduce(
      "weft::experimental::reduce", impl::Range<E>(exec, 0, n), WEFT_LAMBDA(std::int64_t i, T & acc) { acc += v(i); },
      s);
  return init + s;
}
/// The sum of v's elements (as Kokkos::Experimental::reduce(exec, v)).
template <ExecutionSpace E, class V>
typename V::non_const_value_type reduce(const E& exec, const V& v) {
  return reduce(exec, v, typename V::non_const_value_type{});
}
/// init joined by op with every element of v; op must be associative and commutative (the order is unspecified).
/// Plus / std::plus, Minimum and Maximum on contiguous arithmetic Views take cub::DeviceReduce on weft::Cuda.
template <ExecutionSpace E, class V, class T, class Op>
T reduce(const E& exec, const V& v, T init, Op op) {
  weft::impl::check_rank1(v, "reduce");
  using VT = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if constexpr (impl::has_vendor<E> && std::is_same_v<VT, T> && impl::standard_op<Op, T>::known &&
                !std::is_void_v<impl::vendor::ordered_t<T>>) {
    if (n > 0 && impl::vendor::path_ok<E>(n, v)) {
      using U = impl::vendor::ordered_t<T>;
      return op(init, static_cast<T>(
                          impl::vendor::reduce(exec, impl::vendor::as<U>(v.data()), n, impl::standard_op<Op, T>::op)));
    }
  }
  return impl::joined_reduce(
      exec, n, init, op, WEFT_LAMBDA(std::int64_t i) { return v(i); }, "reduce");
}
/// init + the sum of a(i) * b(i) (as Kokkos::Experimental::transform_reduce(exec, a, b, init)). On weft::Cuda:
/// cub::DeviceReduce::TransformReduce where a, b and T are one arithmetic type and a, b contiguous.
template <ExecutionSpace E, class A, class B, class T>
T transform_reduce(const E& exec, const A& a, const B& b, T init) {
  weft::impl::check_rank1(a, "transform_reduce");
  weft::impl::check_rank1(b, "transform_reduce");
  weft::impl::check_same_size("transform_reduce", a, b);
  using AT = typename A::non_const_value_type;
  const std::int64_t n = impl::size_of(a);
  if constexpr (impl::has_vendor<E> && std::is_same_v<AT, T> && std::is_same_v<typename B::non_const_value_type, T> &&
                !std::is_void_v<impl::vendor::ordered_t<T>>) {
    if (n > 0 && impl::vendor::path_ok<E>(n, a, b)) {
      using U = impl::vendor::ordered_t<T>;
      return init +
             static_cast<T>(impl::vendor::dot(exec, impl::vendor::as<U>(a.data()), impl::vendor::as<U>(b.data()), n));
    }
  }
  T s{};
  parallel_reduce(
      "weft::experimental::transform_reduce", impl::Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, T & acc) { acc += a(i) * b(i); }, s);
  return init + s;
}
/// init joined by `join` with transform(a(i), b(i)) for every i (join associative and commutative). A join of
/// Plus / std::plus with Multiplies / std::multiplies is the two-View form above.
template <ExecutionSpace E, class A, class B, class T, class Join, class Tr>
T transform_reduce(const E& exec, const A& a, const B& b, T init, Join join, Tr transform) {
  if constexpr (impl::is_sum_v<Join, T> && impl::is_product_v<Tr, T>) {
    return transform_reduce(exec, a, b, init);
  } else {
    weft::impl::check_rank1(a, "transform_reduce");
    weft::impl::check_same_size("transform_reduce", a, b);
    return impl::joined_reduce(
        exec, impl::size_of(a), init, join, WEFT_LAMBDA(std::int64_t i) { return transform(a(i), b(i)); },
        "transform_reduce");
  }
}
/// init joined by `join` with transform(v(i)) for every i.
template <ExecutionSpace E, class V, class T, class Join, class Tr>
T transform_reduce(const E& exec, const V& v, T init, Join join, Tr transform) {
  weft::impl::check_rank1(v, "transform_reduce");
  return impl::joined_reduce(
      exec, impl::size_of(v), init, join, WEFT_LAMBDA(std::int64_t i) { return transform(v(i)); }, "transform_reduce");
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
namespace impl {
/// The vendor copy_if: a Weft kernel evaluates the predicate into one byte per element and counts, then
/// cub::DeviceSelect::Flagged moves the elements as bit patterns (out == in: in place).
template <class E, class S, class D, class Pred>
std::size_t vendor_copy_if(const E& exec, const S& src, const D& dst, Pred pred, bool negate, const char* name) {
  using T = typename S::non_const_value_type;
  using U = vendor::bits_t<T>;
  const std::int64_t n = size_of(src);
  View<std::uint8_t*, typename S::memory_space> flags(view_alloc(WithoutInitializing, "weft::copy_if (flags)"), n);
  std::int64_t total = 0;
  parallel_reduce(
      std::string("weft::experimental::") + name + " (flags)", Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & c) {
        const bool f = static_cast<bool>(pred(src(i))) != negate;
        flags(i) = f ? 1 : 0;
        c += f ? 1 : 0;
      },
      total);
  if (total > size_of(dst))
    weft::impl::throw_cat({"weft::experimental::", name, ": ", total, " elements of \"", src.label(),
                           "\" pass but dst \"", dst.label(), "\" holds ", dst.extent(0),
                           "; give a destination at least as large (count_if tells how many)"});
  vendor::select_flagged(exec, vendor::as<U>(src.data()), flags.data(), vendor::as<U>(dst.data()), n);
  return static_cast<std::size_t>(total);
}
}  // namespace impl

namespace impl {
/// copy_if on device spaces: one parallel_scan (single pass with decoupled look-back on the GPU backends) whose
/// final call writes each selected element at its prefix: the input read once, the selection written once.
/// A destination smaller than the input is checked first with a count.
template <class E, class S, class D, class Pred>
std::size_t scan_copy_if(const E& exec, const S& src, const D& dst, Pred pred) {
  const std::int64_t n = size_of(src);
  if (size_of(dst) < n) {
    std::int64_t pass = 0;
    parallel_reduce(
        "weft::experimental::copy_if (count)", Range<E>(exec, 0, n),
        WEFT_LAMBDA(std::int64_t i, std::int64_t & c) { c += pred(src(i)) ? 1 : 0; }, pass);
    if (pass > size_of(dst))
      weft::impl::throw_cat({"weft::experimental::copy_if: ", pass, " elements of \"", src.label(),
                             "\" pass but dst \"", dst.label(), "\" holds ", dst.extent(0),
                             "; give a destination at least as large (count_if tells how many)"});
  }
  std::int64_t total = 0;
  parallel_scan(
      "weft::experimental::copy_if (scan)", Range<E>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & upd, bool final) {
        const auto x = src(i);
        const bool f = static_cast<bool>(pred(x));
        if (final && f) dst(upd) = x;
        upd += f ? 1 : 0;
      },
      total);
  return static_cast<std::size_t>(total);
}
}  // namespace impl

/// Copies the elements satisfying pred to the front of dst, in order; returns how many. dst must hold them
/// (raises weft::Error naming both sizes otherwise, before anything is written). On weft::Cuda with contiguous,
/// non-overlapping Views of 1-, 2-, 4- or 8-byte elements: the predicate in a Weft kernel, then
/// cub::DeviceSelect::Flagged. Other device spaces (and CUDA otherwise): one single-pass parallel_scan. Host
/// spaces: per-thread blocks (count, offsets, write), the shape of a hand-written two-pass OpenMP compaction.
template <ExecutionSpace E, class S, class D, class Pred>
std::size_t copy_if(const E& exec, const S& src, const D& dst, Pred pred) {
  weft::impl::check_rank1(src, "copy_if");
  weft::impl::check_rank1(dst, "copy_if");
  const std::int64_t n = impl::size_of(src);
  if (n == 0) return 0;
  using T = typename S::non_const_value_type;
  if constexpr (impl::has_vendor<E> && std::is_same_v<T, typename D::non_const_value_type> &&
                !std::is_void_v<impl::vendor::bits_t<T>>) {
    if (impl::vendor::path_ok<E>(n, src, dst) && !impl::overlap(src, dst))
      return impl::vendor_copy_if(exec, src, dst, pred, false, "copy_if");
  }
  if constexpr (!E::impl_is_host_space) {
    if (!impl::overlap(src, dst)) return impl::scan_copy_if(exec, src, dst, pred);
  }
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  View<std::int64_t*, typename S::memory_space> counts(view_alloc(WithoutInitializing, "weft::copy_if counts"), blocks);
  using K = impl::SelectKernels<S, D, Pred, decltype(counts)>;
  const K k{src, dst, pred, counts, impl::BlockRange{n, blocks}};
  parallel_for("weft::experimental::copy_if (count)", impl::Range<E>(exec, 0, blocks), impl::CallCount<K>{k});
  const std::int64_t total = weft::impl::exclusive_sum_in_place(exec, counts, "weft::experimental::copy_if (offsets)");
  if (total > impl::size_of(dst))
    weft::impl::throw_cat({"weft::experimental::copy_if: ", total, " elements of \"", src.label(), "\" pass but dst \"",
                           dst.label(), "\" holds ", dst.extent(0),
                           "; give a destination at least as large (count_if tells how many)"});
  parallel_for("weft::experimental::copy_if (write)", impl::Range<E>(exec, 0, blocks), impl::CallWrite<K>{k});
  return static_cast<std::size_t>(total);
}
/// Removes the elements satisfying pred, keeping the others' order at the front of v; returns their number
/// (v's elements past it are unspecified). On weft::Cuda (contiguous, 1- to 8-byte elements): in place with
/// cub::DeviceSelect::Flagged.
template <ExecutionSpace E, class V, class Pred>
std::size_t remove_if(const E& exec, const V& v, Pred pred) {
  weft::impl::check_rank1(v, "remove_if");
  using T = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if constexpr (impl::has_vendor<E> && !std::is_void_v<impl::vendor::bits_t<T>>) {
    if (n > 0 && impl::vendor::path_ok<E>(n, v)) return impl::vendor_copy_if(exec, v, v, pred, true, "remove_if");
  }
  View<T*, typename V::memory_space> tmp(view_alloc(WithoutInitializing, v.label() + " (remove_if)"), v.extent(0));
  const std::size_t kept = copy_if(exec, v, tmp, impl::Not<Pred>{pred});
  auto head = subview(v, std::pair<std::size_t, std::size_t>(0, kept));
  auto src = subview(tmp, std::pair<std::size_t, std::size_t>(0, kept));
  copy(exec, src, head);
  return kept;
}
/// Removes consecutive duplicates (==) in place; returns the number of elements kept. On weft::Cuda with a
/// contiguous View of arithmetic elements: cub::DeviceSelect::Unique.
template <ExecutionSpace E, class V>
std::size_t unique(const E& exec, const V& v) {
  weft::impl::check_rank1(v, "unique");
  using T = typename V::non_const_value_type;
  const std::int64_t n = impl::size_of(v);
  if constexpr (impl::has_vendor<E> && !std::is_void_v<impl::vendor::key_t<T>>) {
    if (n > 1 && impl::vendor::path_ok<E>(n, v)) {
      using U = impl::vendor::key_t<T>;
      View<T*, typename V::memory_space> tmp(view_alloc(WithoutInitializing, v.label() + " (unique values)"), n);
      const auto kept = static_cast<std::size_t>(
          impl::vendor::unique(exec, impl::vendor::as<U>(v.data()), impl::vendor::as<U>(tmp.data()), n));
      copy(exec, subview(tmp, std::pair<std::size_t, std::size_t>(0, kept)),
           subview(v, std::pair<std::size_t, std::size_t>(0, kept)));
      return kept;
    }
  }
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
/// The by-key scans: out(i) = the sum of values over the run of equal consecutive keys that holds i, up to i
/// (inclusive), or init plus the sum before i (exclusive: each run starts from init). Load-balanced: the input is
/// cut into equal blocks whatever the run lengths; each block sums its last run's tail (pass 1), the carries chain
/// across the blocks in one thread (pass 2), and each block scans its part from its carry (pass 3).
template <bool Exclusive, class E, class K, class V, class O>
void segmented_sum(const E& exec, const K& keys, const V& values, const O& out, typename O::non_const_value_type init) {
  using T = typename O::non_const_value_type;
  using M = typename O::memory_space;
  const std::int64_t n = size_of(keys);
  if (n == 0) return;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  const BlockRange br{n, blocks};
  const T z = Exclusive ? init : T{};  // where a run's sum starts
  View<T*, M> tail(view_alloc(WithoutInitializing, "weft::scan_by_key (block tails)"), blocks),
      carry(view_alloc(WithoutInitializing, "weft::scan_by_key (carries)"), blocks);
  View<int*, M> has_head(view_alloc(WithoutInitializing, "weft::scan_by_key (block has a run start)"), blocks);
  parallel_for(
      "weft::scan_by_key (block tails)", Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
        T acc{};
        int hh = 0;
        for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
          if (is_run_start(keys, i)) {
            acc = z;
            hh = 1;
          }
          acc += values(i);
        }
        tail(b) = acc;
        has_head(b) = hh;
      });
  parallel_for(
      "weft::scan_by_key (carries)", Range<E>(exec, 0, 1), WEFT_LAMBDA(std::int64_t) {
        T c = z;
        for (std::int64_t b = 0; b < blocks; ++b) {
          const std::int64_t s = br.begin(b);
          if (s < br.end(b) && is_run_start(keys, s)) c = z;  // the block starts a run
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
          if (is_run_start(keys, i)) acc = z;
          if (Exclusive) {          // not if constexpr: nvcc's extended lambdas may not first-capture there
            const T x = values(i);  // read before the write: out may be values
            out(i) = acc;
            acc += x;
          } else {
            acc += values(i);
            out(i) = acc;
          }
        }
      });
}
/// The number of runs of equal consecutive keys.
template <class E, class K>
std::int64_t count_runs(const E& exec, const K& keys) {
  std::int64_t runs = 0;
  parallel_reduce(
      "weft::experimental (count runs)", Range<E>(exec, 0, size_of(keys)),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & c) { c += is_run_start(keys, i) ? 1 : 0; }, runs);
  return runs;
}
template <class K, class A, class B>
void check_runs_fit(const char* name, std::int64_t runs, const K& keys, const A& out_a, const B& out_b) {
  if (runs > size_of(out_a) || runs > size_of(out_b))
    weft::impl::throw_cat({"weft::experimental::", name, ": ", runs, " runs of keys in \"", keys.label(),
                           "\" but the outputs \"", out_a.label(), "\" and \"", out_b.label(), "\" hold ",
                           out_a.extent(0), " and ", out_b.extent(0), "; give outputs as large as the number of runs"});
}
/// The by-key paths' shared conditions: keys and values of types CUB is instantiated for, outputs of the same
/// types, every View contiguous and none overlapping another.
template <class E, class K, class V, class OK, class OV>
constexpr bool by_key_types_v =
    has_vendor<E>&& std::is_same_v<typename K::non_const_value_type, typename OK::non_const_value_type>&&
        std::is_same_v<typename V::non_const_value_type, typename OV::non_const_value_type> &&
    !std::is_void_v<vendor::key_t<typename K::non_const_value_type>> &&
    !std::is_void_v<vendor::sum_t<typename V::non_const_value_type>>;
template <class E, class K, class V, class O>
bool vendor_scan_by_key(const E& exec, const K& keys, const V& values, const O& out,
                        typename O::non_const_value_type init, bool exclusive) {
  if constexpr (by_key_types_v<E, K, V, K, O>) {
    const std::int64_t n = size_of(keys);
    if (n == 0 || !vendor::path_ok<E>(n, keys, values, out) || overlap(keys, out) || overlap(values, out)) return false;
    using KU = vendor::key_t<typename K::non_const_value_type>;
    using VU = vendor::sum_t<typename V::non_const_value_type>;
    VU z;
    std::memcpy(&z, &init, sizeof z);
    vendor::scan_by_key(exec, vendor::as<KU>(keys.data()), vendor::as<VU>(values.data()), vendor::as<VU>(out.data()), z,
                        exclusive, static_cast<int>(n));
    return true;
  } else {
    return false;
  }
}
}  // namespace impl

/// For each run of equal consecutive keys: its key and the sum of its values, in order; returns the number of
/// runs. Load-balanced (a segmented scan over equal blocks), so one very long run costs what many short ones do.
/// On weft::Cuda with contiguous Views of arithmetic keys and 32/64-bit or floating values:
/// cub::DeviceReduce::ReduceByKey (outputs smaller than the input: the runs are counted first, so that a too small
/// output raises before anything is written, as on the portable path).
template <ExecutionSpace E, class K, class V, class OK, class OV>
std::size_t reduce_by_key(const E& exec, const K& keys, const V& values, const OK& out_keys, const OV& out_values) {
  weft::impl::check_same_size("reduce_by_key", keys, values);
  const std::int64_t n = impl::size_of(keys);
  if constexpr (impl::by_key_types_v<E, K, V, OK, OV>) {
    if (n > 0 && impl::vendor::path_ok<E>(n, keys, values, out_keys, out_values) && !impl::overlap(keys, out_keys) &&
        !impl::overlap(values, out_values) && !impl::overlap(keys, out_values) && !impl::overlap(values, out_keys)) {
      if (impl::size_of(out_keys) < n || impl::size_of(out_values) < n)
        impl::check_runs_fit("reduce_by_key", impl::count_runs(exec, keys), keys, out_keys, out_values);
      using KU = impl::vendor::key_t<typename K::non_const_value_type>;
      using VU = impl::vendor::sum_t<typename V::non_const_value_type>;
      return static_cast<std::size_t>(impl::vendor::reduce_by_key(
          exec, impl::vendor::as<KU>(keys.data()), impl::vendor::as<KU>(out_keys.data()),
          impl::vendor::as<VU>(values.data()), impl::vendor::as<VU>(out_values.data()), static_cast<int>(n)));
    }
  }
  auto [starts, runs] = impl::run_starts(exec, keys);
  if (runs > out_keys.extent(0) || runs > out_values.extent(0))
    weft::impl::throw_cat({"weft::experimental::reduce_by_key: ", runs, " runs of keys in \"", keys.label(),
                           "\" but the outputs hold ", out_keys.extent(0), " and ", out_values.extent(0),
                           "; give outputs as large as the number of runs"});
  using T = typename OV::non_const_value_type;
  View<T*, typename OV::memory_space> sums(view_alloc(WithoutInitializing, "weft::reduce_by_key (running sums)"), n);
  impl::segmented_sum<false>(exec, keys, values, sums, T{});
  auto st = starts;
  parallel_for(
      "weft::experimental::reduce_by_key", impl::Range<E>(exec, 0, static_cast<std::int64_t>(runs)),
      WEFT_LAMBDA(std::int64_t j) {
        out_keys(j) = keys(st(j));
        out_values(j) = sums(st(j + 1) - 1);  // the run's running sum at its last element
      });
  return runs;
}
/// out(i) = the sum of values(j) over the run of equal consecutive keys that holds i, for j <= i (load-balanced;
/// out may be values). On weft::Cuda (contiguous arithmetic Views, out apart from the inputs):
/// cub::DeviceScan::InclusiveSumByKey.
template <ExecutionSpace E, class K, class V, class O>
void inclusive_scan_by_key(const E& exec, const K& keys, const V& values, const O& out) {
  weft::impl::check_same_size("inclusive_scan_by_key", keys, values);
  weft::impl::check_same_size("inclusive_scan_by_key", keys, out);
  using T = typename O::non_const_value_type;
  if (impl::vendor_scan_by_key(exec, keys, values, out, T{}, false)) return;
  impl::segmented_sum<false>(exec, keys, values, out, T{});
}
/// out(i) = init + the sum of values(j) over the run of equal consecutive keys that holds i, for j < i: each run
/// starts from init (as thrust::exclusive_scan_by_key). On weft::Cuda: cub::DeviceScan::ExclusiveScanByKey.
template <ExecutionSpace E, class K, class V, class O, class T>
void exclusive_scan_by_key(const E& exec, const K& keys, const V& values, const O& out, T init) {
  weft::impl::check_same_size("exclusive_scan_by_key", keys, values);
  weft::impl::check_same_size("exclusive_scan_by_key", keys, out);
  using OT = typename O::non_const_value_type;
  if (impl::vendor_scan_by_key(exec, keys, values, out, static_cast<OT>(init), true)) return;
  impl::segmented_sum<true>(exec, keys, values, out, static_cast<OT>(init));
}
/// out(i) = the sum of values(j) over the run of equal consecutive keys that holds i, for j < i (init 0).
template <ExecutionSpace E, class K, class V, class O>
void exclusive_scan_by_key(const E& exec, const K& keys, const V& values, const O& out) {
  exclusive_scan_by_key(exec, keys, values, out, typename O::non_const_value_type{});
}

/// For each run of equal consecutive elements of in: the element (out_unique(j)) and the run's length
/// (out_counts(j)), in order; returns the number of runs. Outputs too small for the runs raise weft::Error before
/// anything is written. On weft::Cuda (contiguous arithmetic Views, 32- or 64-bit integer counts):
/// cub::DeviceRunLengthEncode::Encode.
template <ExecutionSpace E, class V, class OU, class OC>
std::size_t run_length_encode(const E& exec, const V& in, const OU& out_unique, const OC& out_counts) {
  weft::impl::check_rank1(in, "run_length_encode");
  weft::impl::check_rank1(out_unique, "run_length_encode");
  weft::impl::check_rank1(out_counts, "run_length_encode");
  using T = typename V::non_const_value_type;
  using C = typename OC::non_const_value_type;
  static_assert(std::is_integral_v<C>, "weft::experimental::run_length_encode: out_counts holds integers");
  const std::int64_t n = impl::size_of(in);
  if (n == 0) return 0;
  if constexpr (impl::has_vendor<E> && std::is_same_v<T, typename OU::non_const_value_type> &&
                !std::is_void_v<impl::vendor::key_t<T>> && impl::vendor::is_plain_integer_v<C> &&
                (sizeof(C) == 4 || sizeof(C) == 8)) {
    if (impl::vendor::path_ok<E>(n, in, out_unique, out_counts) && !impl::overlap(in, out_unique) &&
        !impl::overlap(in, out_counts) && !impl::overlap(out_unique, out_counts)) {
      if (impl::size_of(out_unique) < n || impl::size_of(out_counts) < n) {
        const std::int64_t runs = impl::count_runs(exec, in);
        if (runs > impl::size_of(out_unique) || runs > impl::size_of(out_counts))
          weft::impl::throw_cat({"weft::experimental::run_length_encode: ", runs, " runs in \"", in.label(),
                                 "\" but \"", out_unique.label(), "\" and \"", out_counts.label(), "\" hold ",
                                 out_unique.extent(0), " and ", out_counts.extent(0),
                                 "; give outputs as large as the number of runs"});
      }
      using U = impl::vendor::key_t<T>;
      using CU = std::conditional_t<sizeof(C) == 4, std::int32_t, std::int64_t>;
      return static_cast<std::size_t>(
          impl::vendor::run_length_encode(exec, impl::vendor::as<U>(in.data()), impl::vendor::as<U>(out_unique.data()),
                                          impl::vendor::as<CU>(out_counts.data()), static_cast<int>(n)));
    }
  }
  auto [starts, runs] = impl::run_starts(exec, in);
  if (static_cast<std::int64_t>(runs) > impl::size_of(out_unique) ||
      static_cast<std::int64_t>(runs) > impl::size_of(out_counts))
    weft::impl::throw_cat({"weft::experimental::run_length_encode: ", runs, " runs in \"", in.label(), "\" but \"",
                           out_unique.label(), "\" and \"", out_counts.label(), "\" hold ", out_unique.extent(0),
                           " and ", out_counts.extent(0), "; give outputs as large as the number of runs"});
  auto st = starts;
  parallel_for(
      "weft::experimental::run_length_encode", impl::Range<E>(exec, 0, static_cast<std::int64_t>(runs)),
      WEFT_LAMBDA(std::int64_t j) {
        out_unique(j) = in(st(j));
        out_counts(j) = static_cast<C>(st(j + 1) - st(j));
      });
  return runs;
}

// ---- histogram ------------------------------------------------------------------------------------------
namespace impl {
/// bins(k) += the sum over the blocks of priv(b * nb + k).
template <class E, class P, class B>
void add_block_counts(const E& exec, const P& priv, const B& bins, std::int64_t blocks) {
  using C = typename B::non_const_value_type;
  const std::int64_t nb = size_of(bins);
  parallel_for(
      "weft::experimental::histogram (sum)", Range<E>(exec, 0, nb), WEFT_LAMBDA(std::int64_t k) {
        C s = 0;
        for (std::int64_t b = 0; b < blocks; ++b) s += priv(b * nb + k);
        bins(k) += s;
      });
}
/// Bin (s - lo) * nb / (hi - lo) of an integer sample in exact 64-bit arithmetic ((hi - lo) * nb < 2^64, checked
/// by the caller), -1 outside [lo, hi): what cub::DeviceHistogram::HistogramEven computes for integers.
template <class S, class T>
WEFT_INLINE_FUNCTION std::int64_t integer_bin(S s, T lo, T hi, std::uint64_t nb) {
  if (std::cmp_less(s, lo) || !std::cmp_less(s, hi)) return -1;
  const std::uint64_t d = static_cast<std::uint64_t>(s) - static_cast<std::uint64_t>(lo);
  const std::uint64_t r = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return static_cast<std::int64_t>(d * nb / r);
}
}  // namespace impl

/// bins(k) += the number of values in bin k of nb = bins.extent(0) equal bins over [lo, hi); values outside
/// [lo, hi) (and NaN) are not counted. Integer values with integer limits: bin (v - lo) * nb / (hi - lo) in exact
/// integer arithmetic where (hi - lo) * nb < 2^64 (on weft::Cuda, with contiguous Views and fewer than 2^31
/// values: cub::DeviceHistogram::HistogramEven, the same bins). Otherwise bin floor((v - lo) * (nb / (hi - lo))) in
/// double (a value just below hi that rounds to nb counts in the last bin). Counts are privatised per block, then
/// summed: no atomics.
template <ExecutionSpace E, class V, class B, class T>
void histogram(const E& exec, const V& values, const B& bins, T lo, T hi) {
  weft::impl::check_rank1(values, "histogram");
  weft::impl::check_rank1(bins, "histogram");
  const std::int64_t n = impl::size_of(values), nb = impl::size_of(bins);
  if (!(hi > lo) || nb == 0)
    throw Error("weft::experimental::histogram: the range [" + std::to_string(double(lo)) + ", " +
                std::to_string(double(hi)) + ") or the " + std::to_string(nb) + " bins of \"" + bins.label() +
                "\" is empty; give lo < hi and at least one bin");
  using VT = typename V::non_const_value_type;
  using C = typename B::non_const_value_type;
  const std::int64_t blocks = weft::impl::algorithm_blocks(exec, n);
  const impl::BlockRange br{n, blocks};
  if constexpr (impl::vendor::is_plain_integer_v<VT> && impl::vendor::is_plain_integer_v<T> && sizeof(VT) <= 8 &&
                sizeof(T) <= 8) {
    using FV = impl::vendor::fixed_t<VT>;  // fixed-width types: std::cmp_less takes no char types
    using FT = impl::vendor::fixed_t<T>;
    const FT flo = static_cast<FT>(lo), fhi = static_cast<FT>(hi);
    const std::uint64_t range = static_cast<std::uint64_t>(fhi) - static_cast<std::uint64_t>(flo);
    if (range <= ~std::uint64_t(0) / static_cast<std::uint64_t>(nb)) {
      if constexpr (impl::has_vendor<E>) {
        if (n > 0 && nb < std::int64_t(0x7fffffff) && std::in_range<FV>(flo) && std::in_range<FV>(fhi) &&
            impl::vendor::path_ok<E>(n, values, bins)) {
          View<std::uint32_t*, typename B::memory_space> counts(
              view_alloc(WithoutInitializing, "weft::histogram (counts)"), nb);
          if (impl::vendor::histogram_even(exec, impl::vendor::as<FV>(values.data()), counts.data(),
                                           static_cast<int>(nb), static_cast<FV>(flo), static_cast<FV>(fhi),
                                           static_cast<int>(n))) {
            parallel_for(
                "weft::experimental::histogram (add)", impl::Range<E>(exec, 0, nb),
                WEFT_LAMBDA(std::int64_t k) { bins(k) += static_cast<C>(counts(k)); });
            return;
          }
        }
      }
      View<C*, typename B::memory_space> priv("weft::histogram (per block)", blocks * nb);
      const std::uint64_t unb = static_cast<std::uint64_t>(nb);
      parallel_for(
          "weft::experimental::histogram (blocks)", impl::Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
            for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
              const std::int64_t k = impl::integer_bin(static_cast<FV>(values(i)), flo, fhi, unb);
              if (k >= 0) ++priv(b * nb + k);
            }
          });
      impl::add_block_counts(exec, priv, bins, blocks);
      return;
    }
  }
  View<C*, typename B::memory_space> priv("weft::histogram (per block)", blocks * nb);
  const double dlo = static_cast<double>(lo), dhi = static_cast<double>(hi),
               scale = static_cast<double>(nb) / (dhi - dlo);
  parallel_for(
      "weft::experimental::histogram (blocks)", impl::Range<E>(exec, 0, blocks), WEFT_LAMBDA(std::int64_t b) {
        for (std::int64_t i = br.begin(b), e = br.end(b); i < e; ++i) {
          const double v = static_cast<double>(values(i));
          if (v >= dlo && v < dhi) {
            const std::int64_t k = static_cast<std::int64_t>((v - dlo) * scale);
            ++priv(b * nb + (k < nb ? k : nb - 1));
          }
        }
      });
  impl::add_block_counts(exec, priv, bins, blocks);
}
}  // namespace weft::experimental
