// weft::half_t (IEEE binary16) and weft::bhalf_t (bfloat16): 16-bit storage types for Views, with conversions
// to and from float written in plain C++ (round to nearest, ties to even; NaN stays NaN, overflow goes to
// infinity), so the same bits come out on every backend, host, GPU or emulator. Arithmetic happens in float:
// the operators convert, compute and round back, as Kokkos::Experimental::half_t does.
#pragma once

#include <cstdint>
#include <type_traits>

#include <weft/macros.hpp>

namespace weft {
namespace impl {
WEFT_INLINE_FUNCTION std::uint32_t float_bits(float f) {
  std::uint32_t u;
  __builtin_memcpy(&u, &f, 4);
  return u;
}
WEFT_INLINE_FUNCTION float bits_float(std::uint32_t u) {
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
}
/// float -> binary16, round to nearest even.
WEFT_INLINE_FUNCTION std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return static_cast<std::uint16_t>(sign | (ax > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: infinity
  if (ax < 0x38800000u) {                                                    // below 2^-14: subnormal or zero
    if (ax < 0x33000000u) return static_cast<std::uint16_t>(sign);           // below half the smallest subnormal
    const std::uint32_t e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - e;  // 14 + (113 - e) - 1: the implicit bit lands at 2^-24 units
    const std::uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    const std::uint32_t r = q + ((rem > halfway || (rem == halfway && (q & 1u))) ? 1u : 0u);
    return static_cast<std::uint16_t>(sign | r);
  }
  const std::uint32_t r = ax - 0x38000000u;  // rebias the exponent (127 - 15 = 112 -> 112 << 23)
  const std::uint32_t q = r >> 13, rem = r & 0x1fffu;
  return static_cast<std::uint16_t>(sign | (q + ((rem > 0x1000u || (rem == 0x1000u && (q & 1u))) ? 1u : 0u)));
}
WEFT_INLINE_FUNCTION float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return bits_float(sign | 0x7f800000u | (m << 13));
  if (e != 0) return bits_float(sign | ((e + 112u) << 23) | (m << 13));
  if (m == 0) return bits_float(sign);
  return bits_float(sign) + (sign ? -1.0f : 1.0f) * static_cast<float>(m) * 5.9604644775390625e-8f;  // m 2^-24
}
/// float -> bfloat16, round to nearest even (the upper half of the float, rounded).
WEFT_INLINE_FUNCTION std::uint16_t float_to_bhalf_bits(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
WEFT_INLINE_FUNCTION float bhalf_bits_to_float(std::uint16_t b) { return bits_float(std::uint32_t(b) << 16); }

/// The 16-bit floating-point types share one shape; Traits give the two conversions.
template <class Traits>
class Float16 {
 public:
  using bits_type = std::uint16_t;
  Float16() = default;
  WEFT_INLINE_FUNCTION Float16(float f) : bits_(Traits::from(f)) {}  // NOLINT: implicit, like Kokkos's half_t
  WEFT_INLINE_FUNCTION explicit Float16(double d) : bits_(Traits::from(static_cast<float>(d))) {}
  WEFT_INLINE_FUNCTION explicit Float16(int i) : bits_(Traits::from(static_cast<float>(i))) {}
  WEFT_INLINE_FUNCTION operator float() const { return Traits::to(bits_); }
  WEFT_INLINE_FUNCTION explicit operator double() const { return Traits::to(bits_); }
  WEFT_INLINE_FUNCTION static constexpr Float16 from_bits(bits_type b) {
    Float16 h;
    h.bits_ = b;
    return h;
  }
  WEFT_INLINE_FUNCTION constexpr bits_type bits() const { return bits_; }
  WEFT_INLINE_FUNCTION Float16& operator+=(float o) { return *this = Float16(float(*this) + o); }
  WEFT_INLINE_FUNCTION Float16& operator-=(float o) { return *this = Float16(float(*this) - o); }
  WEFT_INLINE_FUNCTION Float16& operator*=(float o) { return *this = Float16(float(*this) * o); }
  WEFT_INLINE_FUNCTION Float16& operator/=(float o) { return *this = Float16(float(*this) / o); }

 private:
  bits_type bits_ = 0;
};
struct HalfTraits {
  WEFT_INLINE_FUNCTION static std::uint16_t from(float f) { return float_to_half_bits(f); }
  WEFT_INLINE_FUNCTION static float to(std::uint16_t b) { return half_bits_to_float(b); }
};
struct BhalfTraits {
  WEFT_INLINE_FUNCTION static std::uint16_t from(float f) { return float_to_bhalf_bits(f); }
  WEFT_INLINE_FUNCTION static float to(std::uint16_t b) { return bhalf_bits_to_float(b); }
};
}  // namespace impl

/// IEEE 754 binary16: 11-bit significand, exponents -14..15 (max 65504), subnormals down to 2^-24.
using half_t = impl::Float16<impl::HalfTraits>;
/// bfloat16: float's exponent range with an 8-bit significand.
using bhalf_t = impl::Float16<impl::BhalfTraits>;

template <class T>
inline constexpr bool is_float16_v = std::is_same_v<T, half_t> || std::is_same_v<T, bhalf_t>;

}  // namespace weft
