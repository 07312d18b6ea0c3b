// Kokkos's numeric traits (<Kokkos_NumericTraits.hpp>): Kokkos::Experimental::epsilon<T>::value, finite_max_v<T>, ...
// for the arithmetic types (from std::numeric_limits, as Kokkos defines them) and for half_t and bhalf_t (their IEEE
// binary16 and bfloat16 values), usable in device code; and Kokkos::Experimental::Impl::is_float16/is_bfloat16.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include <weft/half.hpp>
#include <weft/macros.hpp>

namespace Kokkos::Experimental {
namespace Impl {
template <class T>
struct is_float16 : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, ::weft::half_t>> {};
template <class T>
struct is_bfloat16 : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, ::weft::bhalf_t>> {};
}  // namespace Impl

namespace impl_traits {
/// The values of the 16-bit types, as bit patterns (binary16, bfloat16) or numbers.
template <class T>
struct Half16;
template <>
struct Half16<::weft::half_t> {
  static constexpr std::uint16_t inf = 0x7c00, qnan = 0x7e00, snan = 0x7d00, max = 0x7bff, norm_min = 0x0400,
                                 denorm_min = 0x0001, eps = 0x1400, half = 0x3800, rof = 0x0400;
  static constexpr int digits = 11, digits10 = 3, max_digits10 = 5, min_exponent = -13, min_exponent10 = -4,
                       max_exponent = 16, max_exponent10 = 4;
};
template <>
struct Half16<::weft::bhalf_t> {
  static constexpr std::uint16_t inf = 0x7f80, qnan = 0x7fc0, snan = 0x7fa0, max = 0x7f7f, norm_min = 0x0080,
                                 denorm_min = 0x0001, eps = 0x3c00, half = 0x3f00, rof = 0x0080;
  static constexpr int digits = 8, digits10 = 2, max_digits10 = 4, min_exponent = -125, min_exponent10 = -37,
                       max_exponent = 128, max_exponent10 = 38;
};
template <class T>
concept Floating = std::is_floating_point_v<T>;
template <class T>
concept Half = Impl::is_float16<T>::value || Impl::is_bfloat16<T>::value;
template <class T>
concept Arithmetic = std::is_arithmetic_v<T>;  // bool too: finite_min/max, digits, digits10, radix (as Kokkos)
}  // namespace impl_traits

// A value trait is defined only where Kokkos defines it (a floating-point trait of an integer is a compile error), for
// cv-qualified types too (their value has the unqualified type).
#define WEFT_KOKKOS_NUMERIC_TRAIT(NAME, CONSTRAINT, EXPR, HALF_BITS)                         \
  template <class T>                                                                         \
  struct NAME {};                                                                            \
  template <class T>                                                                         \
  requires impl_traits::CONSTRAINT<std::remove_cv_t<T>>                                      \
  struct NAME<T> {                                                                           \
    static constexpr std::remove_cv_t<T> value = EXPR;                                       \
  };                                                                                         \
  template <class T>                                                                         \
  requires impl_traits::Half<std::remove_cv_t<T>>                                            \
  struct NAME<T> {                                                                           \
    static constexpr std::remove_cv_t<T> value =                                             \
        std::remove_cv_t<T>::from_bits(impl_traits::Half16<std::remove_cv_t<T>>::HALF_BITS); \
  };                                                                                         \
  template <class T>                                                                         \
  inline constexpr auto NAME##_v = NAME<T>::value;
#define WEFT_KOKKOS_NUMERIC_INT_TRAIT(NAME, CONSTRAINT, EXPR)                    \
  template <class T>                                                             \
  struct NAME {};                                                                \
  template <class T>                                                             \
  requires impl_traits::CONSTRAINT<std::remove_cv_t<T>>                          \
  struct NAME<T> {                                                               \
    static constexpr int value = EXPR;                                           \
  };                                                                             \
  template <class T>                                                             \
  requires impl_traits::Half<std::remove_cv_t<T>>                                \
  struct NAME<T> {                                                               \
    static constexpr int value = impl_traits::Half16<std::remove_cv_t<T>>::NAME; \
  };                                                                             \
  template <class T>                                                             \
  inline constexpr int NAME##_v = NAME<T>::value;

WEFT_KOKKOS_NUMERIC_TRAIT(infinity, Floating, std::numeric_limits<T>::infinity(), inf)
WEFT_KOKKOS_NUMERIC_TRAIT(finite_min, Arithmetic, std::numeric_limits<T>::lowest(), max | 0x8000)
WEFT_KOKKOS_NUMERIC_TRAIT(finite_max, Arithmetic, std::numeric_limits<T>::max(), max)
WEFT_KOKKOS_NUMERIC_TRAIT(epsilon, Floating, std::numeric_limits<T>::epsilon(), eps)
WEFT_KOKKOS_NUMERIC_TRAIT(round_error, Floating, std::numeric_limits<T>::round_error(), half)
WEFT_KOKKOS_NUMERIC_TRAIT(norm_min, Floating, std::numeric_limits<T>::min(), norm_min)
WEFT_KOKKOS_NUMERIC_TRAIT(denorm_min, Floating, std::numeric_limits<T>::denorm_min(), denorm_min)
WEFT_KOKKOS_NUMERIC_TRAIT(reciprocal_overflow_threshold, Floating, std::numeric_limits<T>::min(), rof)
WEFT_KOKKOS_NUMERIC_TRAIT(quiet_NaN, Floating, std::numeric_limits<T>::quiet_NaN(), qnan)
WEFT_KOKKOS_NUMERIC_TRAIT(signaling_NaN, Floating, std::numeric_limits<T>::signaling_NaN(), snan)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(digits, Arithmetic, std::numeric_limits<T>::digits)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(digits10, Arithmetic, std::numeric_limits<T>::digits10)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(max_digits10, Floating, std::numeric_limits<T>::max_digits10)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(min_exponent, Floating, std::numeric_limits<T>::min_exponent)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(min_exponent10, Floating, std::numeric_limits<T>::min_exponent10)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(max_exponent, Floating, std::numeric_limits<T>::max_exponent)
WEFT_KOKKOS_NUMERIC_INT_TRAIT(max_exponent10, Floating, std::numeric_limits<T>::max_exponent10)
#undef WEFT_KOKKOS_NUMERIC_TRAIT
#undef WEFT_KOKKOS_NUMERIC_INT_TRAIT
/// radix: 2 for every type Kokkos defines it for.
template <class T>
struct radix {};
template <class T>
requires(impl_traits::Arithmetic<std::remove_cv_t<T>> || impl_traits::Half<std::remove_cv_t<T>>) struct radix<T> {
  static constexpr int value = 2;
};
template <class T>
inline constexpr int radix_v = radix<T>::value;
}  // namespace Kokkos::Experimental
