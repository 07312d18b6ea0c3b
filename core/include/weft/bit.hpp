// Bit manipulation in host and device code (C++20's <bit>, callable in kernels on every backend): countl_zero,
// countl_one, countr_zero, countr_one, popcount, has_single_bit, bit_ceil, bit_floor, bit_width, rotl, rotr, plus
// byteswap (C++23) and bit_cast. As in <bit> and Kokkos 4.x, the counting functions take the standard unsigned integer
// types only (unsigned char to unsigned long long); byteswap takes any integer type.
#pragma once

#include <bit>
#include <climits>
#include <concepts>
#include <limits>
#include <type_traits>

#include <weft/macros.hpp>

namespace weft {
namespace impl {
template <class T>
concept StandardUnsigned = std::is_same_v<T, unsigned char> || std::is_same_v<T, unsigned short> ||
    std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long> || std::is_same_v<T, unsigned long long>;
}  // namespace impl

/// bit_cast<To>(from): the bytes of `from` read as a To (both trivially copyable, of one size).
template <class To, class From>
requires(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
         std::is_trivially_copyable_v<From>) WEFT_INLINE_FUNCTION constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

/// byteswap(x): x with its bytes in reverse order (any integer type).
template <std::integral T>
WEFT_INLINE_FUNCTION constexpr T byteswap(T x) noexcept {
  if constexpr (sizeof(T) == 1) {
    return x;
  } else {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(x), r = 0;
    for (unsigned k = 0; k < sizeof(T); ++k) {
      r = static_cast<U>((r << CHAR_BIT) | (u & U(0xff)));
      u = static_cast<U>(u >> CHAR_BIT);
    }
    return static_cast<T>(r);
  }
}

// The <bit> functions that forward as they are, on the standard unsigned types.
#define WEFT_IMPL_BIT_FUNCTION(NAME, RESULT)                 \
  template <impl::StandardUnsigned T>                        \
  WEFT_INLINE_FUNCTION constexpr RESULT NAME(T x) noexcept { \
    return static_cast<RESULT>(std::NAME(x));                \
  }
WEFT_IMPL_BIT_FUNCTION(countl_zero, int)
WEFT_IMPL_BIT_FUNCTION(countl_one, int)
WEFT_IMPL_BIT_FUNCTION(countr_zero, int)
WEFT_IMPL_BIT_FUNCTION(countr_one, int)
WEFT_IMPL_BIT_FUNCTION(popcount, int)
WEFT_IMPL_BIT_FUNCTION(has_single_bit, bool)
WEFT_IMPL_BIT_FUNCTION(bit_floor, T)
/// bit_width: the number of bits needed for x, as a T (C++20 as published, and Kokkos; C++23 returns int).
WEFT_IMPL_BIT_FUNCTION(bit_width, T)
#undef WEFT_IMPL_BIT_FUNCTION
/// The smallest power of two >= x; as <bit>, a result that T cannot hold is undefined (here: 0 on the host).
template <impl::StandardUnsigned T>
WEFT_INLINE_FUNCTION constexpr T bit_ceil(T x) noexcept {
  if (x <= 1) return T(1);
  const int w = std::numeric_limits<T>::digits - std::countl_zero(static_cast<T>(x - 1));
  return w >= std::numeric_limits<T>::digits ? T(0) : static_cast<T>(T(1) << w);
}
template <impl::StandardUnsigned T>
[[nodiscard]] WEFT_INLINE_FUNCTION constexpr T rotl(T x, int s) noexcept {
  return std::rotl(x, s);
}
template <impl::StandardUnsigned T>
[[nodiscard]] WEFT_INLINE_FUNCTION constexpr T rotr(T x, int s) noexcept {
  return std::rotr(x, s);
}

}  // namespace weft
