// Checked size arithmetic: every byte count Weft computes from what a user gives (extents, strides, element sizes,
// alignment, pool size classes, scratch, staging buffers, container capacities, message sizes) is computed with
// size_mul / size_add / size_round_up and passed through check_bytes before anything is allocated or indexed.
//
// The arithmetic saturates: a result that does not fit in size_t is size_overflow (SIZE_MAX) and stays so through
// later steps, so a chain of steps needs one check at its end. No allocation may exceed max_bytes (PTRDIFF_MAX:
// pointer differences past it are undefined, and operator new refuses it too); below it, rounding up to any
// alignment or pool size class Weft uses (at most 2^62) cannot wrap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <weft/macros.hpp>

namespace weft::impl {

inline constexpr std::size_t size_overflow = SIZE_MAX;
inline constexpr std::size_t max_bytes = static_cast<std::size_t>(PTRDIFF_MAX);

/// a * b, or size_overflow when it does not fit (or when either is size_overflow and the other is not 0).
WEFT_INLINE_FUNCTION constexpr std::size_t size_mul(std::size_t a, std::size_t b) {
  if (a == 0 || b == 0) return 0;
  return a > size_overflow / b ? size_overflow : a * b;
}
/// a + b, or size_overflow when it does not fit.
WEFT_INLINE_FUNCTION constexpr std::size_t size_add(std::size_t a, std::size_t b) {
  return a > size_overflow - b ? size_overflow : a + b;
}
/// x rounded up to a multiple of a (a > 0), or size_overflow when that does not fit.
WEFT_INLINE_FUNCTION constexpr std::size_t size_round_up(std::size_t x, std::size_t a) {
  const std::size_t r = x % a;
  return r == 0 ? x : size_add(x, a - r);
}

/// "800 bytes", or "18446744073709551615 bytes or more" for size_overflow.
std::string format_bytes(std::size_t bytes);

/// Raises weft::Error "<subject> need(s) <bytes>, more than one allocation can hold (9223372036854775807 bytes);
/// <fix>".
[[noreturn]] void throw_bytes_error(std::size_t bytes, const std::string& subject, std::string_view fix);

/// Returns bytes when one allocation can hold them (<= max_bytes); otherwise throw_bytes_error(bytes, subject(), fix).
/// subject() gives "<who> <label>: <what>" (the sizes it came from); it is called only on failure.
template <class Subject>
std::size_t check_bytes(std::size_t bytes, const Subject& subject, std::string_view fix) {
  if (bytes > max_bytes) [[unlikely]]
    throw_bytes_error(bytes, subject(), fix);
  return bytes;
}

}  // namespace weft::impl
