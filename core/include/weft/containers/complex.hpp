// complex<T>: a complex number usable in kernels on every backend (std::complex is host-only under nvcc), with the
// arithmetic, the usual functions, stream I/O, reductions and atomic add, and conversions to and from
// std::complex, as Kokkos::complex.
#pragma once

#include <cmath>
#include <complex>
#include <istream>
#include <ostream>
#include <type_traits>

#include <weft/atomics.hpp>
#include <weft/half.hpp>
#include <weft/macros.hpp>

namespace weft {

template <class T>
class alignas(2 * sizeof(T)) complex {
  static_assert(std::is_floating_point_v<T>, "weft::complex<T> needs a floating-point T (float or double)");

 public:
  using value_type = T;

  WEFT_INLINE_FUNCTION constexpr complex() noexcept : re_(0), im_(0) {}
  WEFT_INLINE_FUNCTION constexpr complex(T re, T im = T(0)) noexcept : re_(re), im_(im) {}
  template <class U>
  WEFT_INLINE_FUNCTION constexpr complex(const complex<U>& o) noexcept : re_(T(o.real())), im_(T(o.imag())) {}
  complex(const std::complex<T>& z) noexcept : re_(z.real()), im_(z.imag()) {}
  operator std::complex<T>() const noexcept { return {re_, im_}; }

  WEFT_INLINE_FUNCTION constexpr T real() const noexcept { return re_; }
  WEFT_INLINE_FUNCTION constexpr T imag() const noexcept { return im_; }
  /// The parts as lvalues (`z.real() = 1;`), as Kokkos::complex.
  WEFT_INLINE_FUNCTION constexpr T& real() noexcept { return re_; }
  WEFT_INLINE_FUNCTION constexpr T& imag() noexcept { return im_; }
  WEFT_INLINE_FUNCTION constexpr void real(T v) noexcept { re_ = v; }
  WEFT_INLINE_FUNCTION constexpr void imag(T v) noexcept { im_ = v; }

  WEFT_INLINE_FUNCTION constexpr complex& operator=(T v) noexcept {
    re_ = v;
    im_ = 0;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator+=(const complex& o) noexcept {
    re_ += o.re_;
    im_ += o.im_;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator-=(const complex& o) noexcept {
    re_ -= o.re_;
    im_ -= o.im_;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator*=(const complex& o) noexcept {
    const T r = re_ * o.re_ - im_ * o.im_;
    im_ = re_ * o.im_ + im_ * o.re_;
    re_ = r;
    return *this;
  }
  /// Smith's division: no overflow from squaring the divisor's parts.
  WEFT_INLINE_FUNCTION constexpr complex& operator/=(const complex& o) noexcept {
    const T ar = o.re_ < 0 ? -o.re_ : o.re_, ai = o.im_ < 0 ? -o.im_ : o.im_;
    if (ar >= ai) {
      const T r = o.im_ / o.re_, d = o.re_ + o.im_ * r;
      const T nr = (re_ + im_ * r) / d;
      im_ = (im_ - re_ * r) / d;
      re_ = nr;
    } else {
      const T r = o.re_ / o.im_, d = o.re_ * r + o.im_;
      const T nr = (re_ * r + im_) / d;
      im_ = (im_ * r - re_) / d;
      re_ = nr;
    }
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator+=(T v) noexcept {
    re_ += v;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator-=(T v) noexcept {
    re_ -= v;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator*=(T v) noexcept {
    re_ *= v;
    im_ *= v;
    return *this;
  }
  WEFT_INLINE_FUNCTION constexpr complex& operator/=(T v) noexcept {
    re_ /= v;
    im_ /= v;
    return *this;
  }

 private:
  T re_, im_;
};

// ---- arithmetic (complex with complex, and with a real of the same type on either side) ----
#define WEFT_IMPL_COMPLEX_BINARY(OP)                                                                               \
  template <class T>                                                                                               \
  WEFT_INLINE_FUNCTION constexpr complex<T> operator OP(complex<T> a, const complex<T>& b) noexcept {              \
    return a OP## = b;                                                                                             \
  }                                                                                                                \
  template <class T>                                                                                               \
  WEFT_INLINE_FUNCTION constexpr complex<T> operator OP(complex<T> a, std::type_identity_t<T> b) noexcept {        \
    return a OP## = b;                                                                                             \
  }                                                                                                                \
  template <class T>                                                                                               \
  WEFT_INLINE_FUNCTION constexpr complex<T> operator OP(std::type_identity_t<T> a, const complex<T>& b) noexcept { \
    return complex<T>(a) OP## = b;                                                                                 \
  }
WEFT_IMPL_COMPLEX_BINARY(+)
WEFT_IMPL_COMPLEX_BINARY(-)
WEFT_IMPL_COMPLEX_BINARY(*)
WEFT_IMPL_COMPLEX_BINARY(/)
#undef WEFT_IMPL_COMPLEX_BINARY

template <class T>
WEFT_INLINE_FUNCTION constexpr complex<T> operator+(const complex<T>& a) noexcept {
  return a;
}
template <class T>
WEFT_INLINE_FUNCTION constexpr complex<T> operator-(const complex<T>& a) noexcept {
  return complex<T>(-a.real(), -a.imag());
}
template <class T>
WEFT_INLINE_FUNCTION constexpr bool operator==(const complex<T>& a, const complex<T>& b) noexcept {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <class T>
WEFT_INLINE_FUNCTION constexpr bool operator==(const complex<T>& a, std::type_identity_t<T> b) noexcept {
  return a.real() == b && a.imag() == T(0);
}

// ---- functions ----
template <class T>
WEFT_INLINE_FUNCTION constexpr T real(const complex<T>& z) noexcept {
  return z.real();
}
template <class T>
WEFT_INLINE_FUNCTION constexpr T imag(const complex<T>& z) noexcept {
  return z.imag();
}
template <class T>
WEFT_INLINE_FUNCTION constexpr complex<T> conj(const complex<T>& z) noexcept {
  return complex<T>(z.real(), -z.imag());
}
/// real, imag and conj of an arithmetic value, as std::complex's additional overloads ([cmplx.over]): an integer
/// counts as a double.
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION constexpr auto real(T x) noexcept {
  using R = std::conditional_t<std::is_integral_v<T>, double, T>;
  return R(x);
}
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION constexpr auto imag(T) noexcept {
  using R = std::conditional_t<std::is_integral_v<T>, double, T>;
  return R(0);
}
/// real and imag of a 16-bit float (half_t, bhalf_t): itself, and its zero.
template <class Tr>
WEFT_INLINE_FUNCTION impl::Float16<Tr> real(impl::Float16<Tr> x) noexcept {
  return x;
}
template <class Tr>
WEFT_INLINE_FUNCTION impl::Float16<Tr> imag(impl::Float16<Tr>) noexcept {
  return impl::Float16<Tr>(0.0f);
}
template <class T>
requires std::is_arithmetic_v<T> WEFT_INLINE_FUNCTION constexpr auto conj(T x) noexcept {
  using R = std::conditional_t<std::is_integral_v<T>, double, T>;
  return complex<R>(R(x));
}
template <class T>
WEFT_INLINE_FUNCTION constexpr T norm(const complex<T>& z) noexcept {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <class T>
WEFT_INLINE_FUNCTION T abs(const complex<T>& z) {
  return ::hypot(z.real(), z.imag());
}
template <class T>
WEFT_INLINE_FUNCTION T arg(const complex<T>& z) {
  return ::atan2(z.imag(), z.real());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> polar(T r, T theta = T(0)) {
  return complex<T>(r * ::cos(theta), r * ::sin(theta));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> exp(const complex<T>& z) {
  return polar(T(::exp(z.real())), z.imag());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> log(const complex<T>& z) {
  return complex<T>(::log(abs(z)), arg(z));
}
/// The principal square root (branch cut along the negative real axis), without cancellation.
template <class T>
WEFT_INLINE_FUNCTION complex<T> sqrt(const complex<T>& z) {
  const T x = z.real(), y = z.imag();
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  const T t = ::sqrt((::fabs(x) + abs(z)) / T(2));
  if (x >= T(0)) return complex<T>(t, y / (T(2) * t));
  return complex<T>(::fabs(y) / (T(2) * t), y < T(0) ? -t : t);
}
// The hyperbolic and inverse functions, from exp/log/sqrt identities (principal branches, as std::complex's).
template <class T>
WEFT_INLINE_FUNCTION complex<T> sinh(const complex<T>& z) {
  return complex<T>(::sinh(z.real()) * ::cos(z.imag()), ::cosh(z.real()) * ::sin(z.imag()));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> cosh(const complex<T>& z) {
  return complex<T>(::cosh(z.real()) * ::cos(z.imag()), ::sinh(z.real()) * ::sin(z.imag()));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> tanh(const complex<T>& z) {
  // tanh(x + iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y): no overflow of sinh/cosh ratios for moderate x.
  const T d = ::cosh(T(2) * z.real()) + ::cos(T(2) * z.imag());
  return complex<T>(::sinh(T(2) * z.real()) / d, ::sin(T(2) * z.imag()) / d);
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> tan(const complex<T>& z) {  // tan z = -i tanh(iz)
  const complex<T> t = tanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(t.imag(), -t.real());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> asinh(const complex<T>& z) {
  return log(z + sqrt(z * z + T(1)));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> acosh(const complex<T>& z) {
  return log(z + sqrt(z + T(1)) * sqrt(z - T(1)));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> atanh(const complex<T>& z) {
  return (log(T(1) + z) - log(T(1) - z)) * T(0.5);
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> asin(const complex<T>& z) {  // asin z = -i asinh(iz)
  const complex<T> a = asinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(a.imag(), -a.real());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> acos(const complex<T>& z) {
  const complex<T> a = asin(z);
  return complex<T>(T(1.57079632679489661923132169163975144) - a.real(), -a.imag());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> atan(const complex<T>& z) {  // atan z = -i atanh(iz)
  const complex<T> a = atanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(a.imag(), -a.real());
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> log10(const complex<T>& z) {
  return log(z) / T(2.30258509299404568401799145468436421);
}
/// exp of a std::complex (host code), as a weft::complex (Kokkos::exp's overload).
template <class T>
complex<T> exp(const std::complex<T>& z) {
  return exp(complex<T>(z));
}
// Mixed with std::complex (host code): the result is a weft::complex.
#define WEFT_IMPL_COMPLEX_STD(OP)                                                  \
  template <class T>                                                               \
  complex<T> operator OP(const std::complex<T>& a, const complex<T>& b) noexcept { \
    return complex<T>(a) OP b;                                                     \
  }                                                                                \
  template <class T>                                                               \
  complex<T> operator OP(const complex<T>& a, const std::complex<T>& b) noexcept { \
    return a OP complex<T>(b);                                                     \
  }
WEFT_IMPL_COMPLEX_STD(+)
WEFT_IMPL_COMPLEX_STD(-)
WEFT_IMPL_COMPLEX_STD(*)
WEFT_IMPL_COMPLEX_STD(/)
#undef WEFT_IMPL_COMPLEX_STD

template <class T>
WEFT_INLINE_FUNCTION complex<T> pow(const complex<T>& z, const complex<T>& w) {
  if (z.real() == T(0) && z.imag() == T(0)) return complex<T>();
  return exp(w * log(z));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> pow(const complex<T>& z, std::type_identity_t<T> w) {
  if (z.real() == T(0) && z.imag() == T(0)) return complex<T>();
  return polar(T(::pow(abs(z), w)), w * arg(z));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> pow(std::type_identity_t<T> x, const complex<T>& w) {
  return pow(complex<T>(x), w);
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> sin(const complex<T>& z) {
  return complex<T>(::sin(z.real()) * ::cosh(z.imag()), ::cos(z.real()) * ::sinh(z.imag()));
}
template <class T>
WEFT_INLINE_FUNCTION complex<T> cos(const complex<T>& z) {
  return complex<T>(::cos(z.real()) * ::cosh(z.imag()), -::sin(z.real()) * ::sinh(z.imag()));
}

template <class T>
std::ostream& operator<<(std::ostream& os, const complex<T>& z) {
  return os << '(' << z.real() << ',' << z.imag() << ')';
}
template <class T>
std::istream& operator>>(std::istream& is, complex<T>& z) {
  std::complex<T> s;
  is >> s;
  z = complex<T>(s);
  return is;
}

/// Atomic add and subtract on a complex: each part atomically (a sum of contributions is exact in the end; a
/// concurrent reader may see one part updated before the other). Works in device code, where 16-byte atomics
/// do not.
template <class T>
WEFT_INLINE_FUNCTION void atomic_add(complex<T>* p, const complex<T>& v) {
  T* parts = reinterpret_cast<T*>(p);
  atomic_add(parts, v.real());
  atomic_add(parts + 1, v.imag());
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_sub(complex<T>* p, const complex<T>& v) {
  atomic_add(p, -v);
}

/// get<0>(z) is the real part and get<1>(z) the imaginary part, as references of z's value category: structured
/// bindings (`auto& [re, im] = z;`), as Kokkos::complex.
template <std::size_t I, class T>
WEFT_INLINE_FUNCTION constexpr T& get(complex<T>& z) noexcept {
  static_assert(I < 2, "weft::get<I>(complex<T>): I must be 0 (real part) or 1 (imaginary part)");
  if constexpr (I == 0)
    return z.real();
  else
    return z.imag();
}
template <std::size_t I, class T>
WEFT_INLINE_FUNCTION constexpr const T& get(const complex<T>& z) noexcept {
  return get<I>(const_cast<complex<T>&>(z));
}
template <std::size_t I, class T>
WEFT_INLINE_FUNCTION constexpr T&& get(complex<T>&& z) noexcept {
  return static_cast<T&&>(get<I>(z));
}
template <std::size_t I, class T>
WEFT_INLINE_FUNCTION constexpr const T&& get(const complex<T>&& z) noexcept {
  return static_cast<const T&&>(get<I>(z));
}

}  // namespace weft

namespace std {
template <class T>
struct tuple_size<weft::complex<T>> : std::integral_constant<std::size_t, 2> {};
template <std::size_t I, class T>
struct tuple_element<I, weft::complex<T>> {
  static_assert(I < 2, "std::tuple_element<I, weft::complex<T>>: I must be 0 or 1");
  using type = T;
};
}  // namespace std
