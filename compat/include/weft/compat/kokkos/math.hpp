// Kokkos's mathematical functions (<Kokkos_MathematicalFunctions.hpp>, <Kokkos_MinMax.hpp>, <Kokkos_Clamp.hpp>)
// and constants (<Kokkos_MathematicalConstants.hpp>): callable in host and device code on every backend, with
// <cmath>'s overloads and promotions (an integer argument computes in double, as std::sqrt(2) does).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <numbers>
#include <type_traits>

#include <weft/half.hpp>
#include <weft/macros.hpp>

namespace Kokkos {
namespace impl_compat {
/// A half type with another arithmetic type computes in double beside an integer, else in the wider floating type.
template <class T>
using half_promoted_t = std::conditional_t<std::is_integral_v<T>, double, std::common_type_t<T, float>>;
}  // namespace impl_compat

// Each function forwards to <cmath> (CUDA and HIP declare those overloads for device code too). The block-scope
// using-declaration hides Kokkos's own name, so the call resolves to std's overload set.
// On half_t and bhalf_t (Kokkos 4.6): computed in float and rounded back, so a function returns the half type it was
// given (a classification such as isnan its bool, ilogb its int); two half types give the first's type, a half type
// with an integer computes in double as the integer alone would.
#define WEFT_KOKKOS_MATH_1(F)                                         \
  template <class T>                                                  \
  requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION auto F(T x) { \
    using std::F;                                                     \
    return F(x);                                                      \
  }                                                                   \
  template <class Tr>                                                 \
  WEFT_INLINE_FUNCTION auto F(::weft::impl::Float16<Tr> x) {          \
    using std::F;                                                     \
    using R = decltype(F(0.0f));                                      \
    if constexpr (std::is_same_v<R, float>)                           \
      return ::weft::impl::Float16<Tr>(F(static_cast<float>(x)));     \
    else                                                              \
      return F(static_cast<float>(x));                                \
  }
#define WEFT_KOKKOS_MATH_2(F)                                                                          \
  template <class T, class U>                                                                          \
  requires(std::is_arithmetic_v<T> && std::is_arithmetic_v<U>) WEFT_INLINE_FUNCTION auto F(T x, U y) { \
    using std::F;                                                                                      \
    return F(x, y);                                                                                    \
  }                                                                                                    \
  template <class Tr, class Ur>                                                                        \
  WEFT_INLINE_FUNCTION auto F(::weft::impl::Float16<Tr> x, ::weft::impl::Float16<Ur> y) {              \
    using std::F;                                                                                      \
    using R = decltype(F(0.0f, 0.0f));                                                                 \
    if constexpr (std::is_same_v<R, float>)                                                            \
      return ::weft::impl::Float16<Tr>(F(static_cast<float>(x), static_cast<float>(y)));               \
    else                                                                                               \
      return F(static_cast<float>(x), static_cast<float>(y));                                          \
  }                                                                                                    \
  template <class T, class Ur>                                                                         \
  requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION auto F(T x, ::weft::impl::Float16<Ur> y) {     \
    using std::F;                                                                                      \
    using C = ::Kokkos::impl_compat::half_promoted_t<T>;                                               \
    return F(static_cast<C>(x), static_cast<C>(static_cast<float>(y)));                                \
  }                                                                                                    \
  template <class Tr, class U>                                                                         \
  requires std::is_arithmetic_v<U> WEFT_INLINE_FUNCTION auto F(::weft::impl::Float16<Tr> x, U y) {     \
    using std::F;                                                                                      \
    using C = ::Kokkos::impl_compat::half_promoted_t<U>;                                               \
    return F(static_cast<C>(static_cast<float>(x)), static_cast<C>(y));                                \
  }

// basic operations
WEFT_KOKKOS_MATH_1(fabs)
WEFT_KOKKOS_MATH_2(fmod)
WEFT_KOKKOS_MATH_2(remainder)
WEFT_KOKKOS_MATH_2(fmin)
WEFT_KOKKOS_MATH_2(fmax)
WEFT_KOKKOS_MATH_2(fdim)
// exponential and logarithmic
WEFT_KOKKOS_MATH_1(exp)
WEFT_KOKKOS_MATH_1(exp2)
WEFT_KOKKOS_MATH_1(expm1)
WEFT_KOKKOS_MATH_1(log)
WEFT_KOKKOS_MATH_1(log10)
WEFT_KOKKOS_MATH_1(log2)
WEFT_KOKKOS_MATH_1(log1p)
// power
WEFT_KOKKOS_MATH_2(pow)
WEFT_KOKKOS_MATH_1(sqrt)
/// 1 / sqrt(x), in x's floating-point type (an integer argument as double, a half type as itself).
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION auto rsqrt(T x) {
  using std::sqrt;
  using R = decltype(sqrt(x));
  return R(1) / sqrt(x);
}
template <class Tr>
WEFT_INLINE_FUNCTION ::weft::impl::Float16<Tr> rsqrt(::weft::impl::Float16<Tr> x) {
  using std::sqrt;
  return ::weft::impl::Float16<Tr>(1.0f / sqrt(static_cast<float>(x)));
}
WEFT_KOKKOS_MATH_1(cbrt)
WEFT_KOKKOS_MATH_2(hypot)
// trigonometric and hyperbolic
WEFT_KOKKOS_MATH_1(sin)
WEFT_KOKKOS_MATH_1(cos)
WEFT_KOKKOS_MATH_1(tan)
WEFT_KOKKOS_MATH_1(asin)
WEFT_KOKKOS_MATH_1(acos)
WEFT_KOKKOS_MATH_1(atan)
WEFT_KOKKOS_MATH_2(atan2)
WEFT_KOKKOS_MATH_1(sinh)
WEFT_KOKKOS_MATH_1(cosh)
WEFT_KOKKOS_MATH_1(tanh)
WEFT_KOKKOS_MATH_1(asinh)
WEFT_KOKKOS_MATH_1(acosh)
WEFT_KOKKOS_MATH_1(atanh)
// error and gamma
WEFT_KOKKOS_MATH_1(erf)
WEFT_KOKKOS_MATH_1(erfc)
WEFT_KOKKOS_MATH_1(tgamma)
WEFT_KOKKOS_MATH_1(lgamma)
// nearest integer
WEFT_KOKKOS_MATH_1(ceil)
WEFT_KOKKOS_MATH_1(floor)
WEFT_KOKKOS_MATH_1(trunc)
WEFT_KOKKOS_MATH_1(round)
WEFT_KOKKOS_MATH_1(nearbyint)
WEFT_KOKKOS_MATH_1(rint)
WEFT_KOKKOS_MATH_1(lround)
WEFT_KOKKOS_MATH_1(llround)
// floating-point manipulation and classification
WEFT_KOKKOS_MATH_1(logb)
WEFT_KOKKOS_MATH_1(ilogb)
WEFT_KOKKOS_MATH_2(nextafter)
WEFT_KOKKOS_MATH_2(copysign)
WEFT_KOKKOS_MATH_1(isfinite)
WEFT_KOKKOS_MATH_1(isinf)
WEFT_KOKKOS_MATH_1(isnan)
WEFT_KOKKOS_MATH_1(signbit)
#undef WEFT_KOKKOS_MATH_1
#undef WEFT_KOKKOS_MATH_2

template <class T, class U, class V>
requires(std::is_arithmetic_v<T>&& std::is_arithmetic_v<U>&& std::is_arithmetic_v<V>) WEFT_INLINE_FUNCTION
    auto fma(T x, U y, V z) {
  using std::fma;
  return fma(x, y, z);
}
/// hypot(x, y, z) (C++17), in the promoted floating-point type; device code scales by the largest magnitude so that
/// the squares neither overflow nor underflow.
template <class T, class U, class V>
requires(std::is_arithmetic_v<T>&& std::is_arithmetic_v<U>&& std::is_arithmetic_v<V>) WEFT_INLINE_FUNCTION
    auto hypot(T x, U y, V z) {
  using P = decltype(std::hypot(x, y, z));  // float for three floats, long double with one, else double
#if WEFT_IMPL_DEVICE_PASS
  using std::fabs;
  using std::isinf;
  using std::sqrt;
  const P a = fabs(static_cast<P>(x)), b = fabs(static_cast<P>(y)), c = fabs(static_cast<P>(z));
  if (isinf(a) || isinf(b) || isinf(c)) return static_cast<P>(INFINITY);
  const P m = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if (!(m > P(0))) return m + a + b + c;  // 0, or a NaN passed on
  const P p = a / m, q = b / m, r = c / m;
  return m * sqrt(p * p + q * q + r * r);
#else
  return std::hypot(static_cast<P>(x), static_cast<P>(y), static_cast<P>(z));
#endif
}
template <class T, class I>
requires(std::is_arithmetic_v<T>&& std::is_integral_v<I>) WEFT_INLINE_FUNCTION auto ldexp(T x, I e) {
  using std::ldexp;
  return ldexp(x, static_cast<int>(e));
}
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION auto frexp(T x, int* e) {
  using std::frexp;
  return frexp(x, e);
}
template <class T>
requires std::is_floating_point_v<T> WEFT_INLINE_FUNCTION T modf(T x, T* ip) {
  using std::modf;
  return modf(x, ip);
}
WEFT_INLINE_FUNCTION double nan(const char* tag) { return std::nan(tag); }
WEFT_INLINE_FUNCTION float nanf(const char* tag) { return std::nanf(tag); }

template <class Tr>
WEFT_INLINE_FUNCTION ::weft::impl::Float16<Tr> fma(::weft::impl::Float16<Tr> x, ::weft::impl::Float16<Tr> y,
                                                   ::weft::impl::Float16<Tr> z) {
  using std::fma;
  return ::weft::impl::Float16<Tr>(fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)));
}
/// abs of a half type: its sign bit cleared.
template <class Tr>
WEFT_INLINE_FUNCTION ::weft::impl::Float16<Tr> abs(::weft::impl::Float16<Tr> x) {
  return ::weft::impl::Float16<Tr>::from_bits(static_cast<std::uint16_t>(x.bits() & 0x7fffu));
}
/// abs keeps integers integers (Kokkos::abs(-3) == 3, an int) and floating point floating point.
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION T abs(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    using std::fabs;
    return fabs(x);
  } else if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else {
    return x < T(0) ? T(-x) : x;
  }
}

// ---- min, max, clamp (device-callable, unlike std's before C++26) ----
template <class T>
WEFT_INLINE_FUNCTION constexpr const T& min(const T& a, const T& b) {
  return b < a ? b : a;
}
template <class T>
WEFT_INLINE_FUNCTION constexpr const T& max(const T& a, const T& b) {
  return a < b ? b : a;
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr const T& min(const T& a, const T& b, Compare less) {
  return less(b, a) ? b : a;
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr const T& max(const T& a, const T& b, Compare less) {
  return less(a, b) ? b : a;
}
template <class T>
WEFT_INLINE_FUNCTION constexpr T min(std::initializer_list<T> l) {
  const T* m = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p)
    if (*p < *m) m = p;
  return *m;
}
template <class T>
WEFT_INLINE_FUNCTION constexpr T max(std::initializer_list<T> l) {
  const T* m = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p)
    if (*m < *p) m = p;
  return *m;
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr T min(std::initializer_list<T> l, Compare less) {
  const T* m = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p)
    if (less(*p, *m)) m = p;
  return *m;
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr T max(std::initializer_list<T> l, Compare less) {
  const T* m = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p)
    if (less(*m, *p)) m = p;
  return *m;
}
/// minmax as std's: (smaller, larger) as references; over a list, the first smallest and the last largest.
template <class T>
WEFT_INLINE_FUNCTION constexpr ::weft::pair<const T&, const T&> minmax(const T& a, const T& b) {
  return b < a ? ::weft::pair<const T&, const T&>(b, a) : ::weft::pair<const T&, const T&>(a, b);
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr ::weft::pair<const T&, const T&> minmax(const T& a, const T& b, Compare less) {
  return less(b, a) ? ::weft::pair<const T&, const T&>(b, a) : ::weft::pair<const T&, const T&>(a, b);
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr ::weft::pair<T, T> minmax(std::initializer_list<T> l, Compare less) {
  const T* lo = l.begin();
  const T* hi = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p) {
    if (less(*p, *lo)) lo = p;
    if (!less(*p, *hi)) hi = p;
  }
  return ::weft::pair<T, T>(*lo, *hi);
}
template <class T>
WEFT_INLINE_FUNCTION constexpr ::weft::pair<T, T> minmax(std::initializer_list<T> l) {
  return ::Kokkos::minmax(l, [](const T& a, const T& b) { return a < b; });
}
template <class T>
WEFT_INLINE_FUNCTION constexpr const T& clamp(const T& v, const T& lo, const T& hi) {
  return v < lo ? lo : (hi < v ? hi : v);
}
template <class T, class Compare>
WEFT_INLINE_FUNCTION constexpr const T& clamp(const T& v, const T& lo, const T& hi, Compare less) {
  return less(v, lo) ? lo : (less(hi, v) ? hi : v);
}

/// kokkos_swap(a, b): std::swap that device code may call (and over arrays of the same extent, element by element).
template <class T>
requires(std::is_move_constructible_v<T>&& std::is_move_assignable_v<T>) WEFT_INLINE_FUNCTION
    constexpr void kokkos_swap(T& a, T& b) noexcept(
        std::is_nothrow_move_constructible_v<T>&& std::is_nothrow_move_assignable_v<T>) {
  T t = static_cast<T&&>(a);
  a = static_cast<T&&>(b);
  b = static_cast<T&&>(t);
}
template <class T, std::size_t N>
WEFT_INLINE_FUNCTION constexpr void kokkos_swap(T (&a)[N], T (&b)[N]) noexcept(noexcept(kokkos_swap(a[0], b[0]))) {
  for (std::size_t i = 0; i < N; ++i) ::Kokkos::kokkos_swap(a[i], b[i]);
}

// ---- constants: Kokkos::numbers::pi, pi_v<float>, ... (std::numbers' names and values) ----
namespace numbers {
using namespace std::numbers;
}  // namespace numbers

namespace Experimental {  // where Kokkos 3 put the functions
using ::Kokkos::abs;
using ::Kokkos::acos;
using ::Kokkos::acosh;
using ::Kokkos::asin;
using ::Kokkos::asinh;
using ::Kokkos::atan;
using ::Kokkos::atan2;
using ::Kokkos::atanh;
using ::Kokkos::cbrt;
using ::Kokkos::ceil;
using ::Kokkos::clamp;
using ::Kokkos::copysign;
using ::Kokkos::cos;
using ::Kokkos::cosh;
using ::Kokkos::erf;
using ::Kokkos::erfc;
using ::Kokkos::exp;
using ::Kokkos::exp2;
using ::Kokkos::expm1;
using ::Kokkos::fabs;
using ::Kokkos::fdim;
using ::Kokkos::floor;
using ::Kokkos::fma;
using ::Kokkos::fmax;
using ::Kokkos::fmin;
using ::Kokkos::fmod;
using ::Kokkos::hypot;
using ::Kokkos::isfinite;
using ::Kokkos::isinf;
using ::Kokkos::isnan;
using ::Kokkos::lgamma;
using ::Kokkos::log;
using ::Kokkos::log10;
using ::Kokkos::log1p;
using ::Kokkos::log2;
using ::Kokkos::max;
using ::Kokkos::min;
using ::Kokkos::nearbyint;
using ::Kokkos::nextafter;
using ::Kokkos::pow;
using ::Kokkos::remainder;
using ::Kokkos::round;
using ::Kokkos::signbit;
using ::Kokkos::sin;
using ::Kokkos::sinh;
using ::Kokkos::sqrt;
using ::Kokkos::tan;
using ::Kokkos::tanh;
using ::Kokkos::tgamma;
using ::Kokkos::trunc;
}  // namespace Experimental
}  // namespace Kokkos
