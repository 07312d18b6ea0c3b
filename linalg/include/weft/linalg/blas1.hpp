// weft::linalg BLAS 1 on rank-1 Views, named as C++26 std::linalg (P1673) with an execution-space instance
// first: dot, vector_two_norm, vector_abs_sum, vector_idx_abs_max, scale, add (with scaled operands), copy,
// swap_elements. Any layout (strided subviews too) and any memory space the instance can access.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>

#include <weft/weft.hpp>

namespace weft::linalg {

/// alpha * x, evaluated element by element where it is read (std::linalg::scaled).
template <class S, class V>
struct Scaled {
  using view_type = V;
  using value_type = typename V::non_const_value_type;
  using memory_space = typename V::memory_space;
  S alpha;
  V view;
  WEFT_INLINE_FUNCTION value_type operator()(std::size_t i) const { return alpha * view(i); }
  std::size_t extent(int k) const { return view.extent(k); }
  std::string label() const { return view.label(); }
};
template <class S, class V>
Scaled<S, V> scaled(S alpha, const V& v) {
  static_assert(is_view_v<V>, "weft::linalg::scaled: scale a weft::View");
  return {alpha, v};
}

namespace impl {
template <class V>
struct is_scaled : std::false_type {};
template <class S, class V>
struct is_scaled<Scaled<S, V>> : std::true_type {};

template <class V>
constexpr void check_vector(const char* fn) {
  if constexpr (is_scaled<V>::value) {
    static_assert(V::view_type::R == 1, "weft::linalg: BLAS 1 functions take rank-1 Views (vectors)");
  } else {
    static_assert(is_view_v<V>, "weft::linalg: pass a weft::View (or scaled(alpha, view))");
    static_assert(V::R == 1, "weft::linalg: BLAS 1 functions take rank-1 Views (vectors)");
  }
  (void)fn;
}
template <class X, class Y>
void check_same_extent(const char* fn, const X& x, const Y& y) {
  if (x.extent(0) != y.extent(0))
    throw Error(std::string("weft::linalg::") + fn + ": View \"" + x.label() + "\" has " + std::to_string(x.extent(0)) +
                " elements but \"" + y.label() + "\" has " + std::to_string(y.extent(0)) +
                "; the vectors must have the same extent");
}
// std::abs(std::complex) is host-only: std::complex Views live in host spaces
WEFT_IMPL_EXEC_CHECK_DISABLE
template <class T>
WEFT_INLINE_FUNCTION auto abs_value(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return v < T(0) ? -v : v;
  } else {
    return std::abs(v);
  }
}
/// BLAS's |re| + |im| for complex (asum, iamax), the absolute value for reals.
template <class T>
WEFT_INLINE_FUNCTION auto abs1(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return v < T(0) ? -v : v;
  } else {
    const auto r = v.real(), i = v.imag();
    return (r < 0 ? -r : r) + (i < 0 ? -i : i);
  }
}
template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};
// Result types spelled out: nvcc rejects device lambdas inside functions with a deduced return type.
template <class X>
using value_t = std::remove_cv_t<typename X::value_type>;
template <class X, class Y>
using dot_t = decltype(value_t<X>() * value_t<Y>());
template <class X>
using real_t = typename real_of<value_t<X>>::type;
}  // namespace impl

/// Sum of x(i) * y(i) (no conjugation, as std::linalg::dot), accumulated in the element type.
template <ExecutionSpace E, class X, class Y>
impl::dot_t<X, Y> dot(const E& exec, const X& x, const Y& y) {
  impl::check_vector<X>("dot");
  impl::check_vector<Y>("dot");
  impl::check_same_extent("dot", x, y);
  using T = impl::dot_t<X, Y>;
  T sum{};
  parallel_reduce(
      "weft::linalg::dot", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(x.extent(0))),
      WEFT_LAMBDA(std::int64_t i, T & acc) { acc += x(i) * y(i); }, sum);
  return sum;
}

/// Sum of |x(i)| (for complex, |re| + |im| as BLAS asum).
template <ExecutionSpace E, class X>
impl::real_t<X> vector_abs_sum(const E& exec, const X& x) {
  impl::check_vector<X>("vector_abs_sum");
  using R = impl::real_t<X>;
  R sum{};
  parallel_reduce(
      "weft::linalg::vector_abs_sum",
      RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(x.extent(0))),
      WEFT_LAMBDA(std::int64_t i, R & acc) { acc += impl::abs1(x(i)); }, sum);
  return sum;
}

/// Euclidean norm. One pass of squares; when that overflows or underflows with nonzero data, a second pass
/// scales by the largest magnitude first (as LAPACK's nrm2 guarantees).
template <ExecutionSpace E, class X>
impl::real_t<X> vector_two_norm(const E& exec, const X& x) {
  impl::check_vector<X>("vector_two_norm");
  using R = impl::real_t<X>;
  const auto n = static_cast<std::int64_t>(x.extent(0));
  using P = RangePolicy<E, IndexType<std::int64_t>>;
  R ss{};
  parallel_reduce(
      "weft::linalg::vector_two_norm", P(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, R & acc) {
        const R a = impl::abs_value(x(i));
        acc += a * a;
      },
      ss);
  if (std::isfinite(ss) && ss >= std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon())
    return std::sqrt(ss);
  R big{};
  parallel_reduce(
      "weft::linalg::vector_two_norm (scale)", P(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, R & m) {
        const R a = impl::abs_value(x(i));
        m = a > m ? a : m;
      },
      Max<R>(big));
  if (big == R(0) || !std::isfinite(big)) return big;
  R scaled_ss{};
  parallel_reduce(
      "weft::linalg::vector_two_norm (scaled)", P(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, R & acc) {
        const R a = impl::abs_value(x(i)) / big;
        acc += a * a;
      },
      scaled_ss);
  return big * std::sqrt(scaled_ss);
}

/// Index of the first element of largest |x(i)| (|re| + |im| for complex, as BLAS iamax); x.extent(0) when x
/// is empty (there is no such element).
template <ExecutionSpace E, class X>
std::size_t vector_idx_abs_max(const E& exec, const X& x) {
  impl::check_vector<X>("vector_idx_abs_max");
  using R = impl::real_t<X>;
  const auto n = static_cast<std::int64_t>(x.extent(0));
  if (n == 0) return 0;
  typename MaxLoc<R, std::int64_t>::value_type best;
  parallel_reduce(
      "weft::linalg::vector_idx_abs_max", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
      WEFT_LAMBDA(std::int64_t i, typename MaxLoc<R, std::int64_t>::value_type & b) {
        const R a = impl::abs1(x(i));
        if (a > b.val || (a == b.val && i < b.loc)) {
          b.val = a;
          b.loc = i;
        }
      },
      MaxLoc<R, std::int64_t>(best));
  return static_cast<std::size_t>(best.loc);
}

/// x = alpha * x.
template <ExecutionSpace E, class S, class X>
void scale(const E& exec, S alpha, const X& x) {
  impl::check_vector<X>("scale");
  parallel_for(
      "weft::linalg::scale", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(x.extent(0))),
      WEFT_LAMBDA(std::int64_t i) { x(i) = alpha * x(i); });
}

/// z = x + y; x and y may be scaled(alpha, v) (axpy: add(exec, scaled(a, x), y, y)). z may alias x or y.
template <ExecutionSpace E, class X, class Y, class Z>
void add(const E& exec, const X& x, const Y& y, const Z& z) {
  impl::check_vector<X>("add");
  impl::check_vector<Y>("add");
  impl::check_vector<Z>("add");
  impl::check_same_extent("add", x, y);
  impl::check_same_extent("add", x, z);
  parallel_for(
      "weft::linalg::add", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(z.extent(0))),
      WEFT_LAMBDA(std::int64_t i) { z(i) = x(i) + y(i); });
}

/// y = x (x may be scaled).
template <ExecutionSpace E, class X, class Y>
void copy(const E& exec, const X& x, const Y& y) {
  impl::check_vector<X>("copy");
  impl::check_vector<Y>("copy");
  impl::check_same_extent("copy", x, y);
  parallel_for(
      "weft::linalg::copy", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(y.extent(0))),
      WEFT_LAMBDA(std::int64_t i) { y(i) = x(i); });
}

/// Exchanges the elements of x and y.
template <ExecutionSpace E, class X, class Y>
void swap_elements(const E& exec, const X& x, const Y& y) {
  impl::check_vector<X>("swap_elements");
  impl::check_vector<Y>("swap_elements");
  impl::check_same_extent("swap_elements", x, y);
  parallel_for(
      "weft::linalg::swap_elements",
      RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(x.extent(0))),
      WEFT_LAMBDA(std::int64_t i) {
        const auto t = x(i);
        x(i) = y(i);
        y(i) = t;
      });
}
}  // namespace weft::linalg
