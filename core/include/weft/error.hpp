// weft::Error, the exception every user-caused failure raises, and the in-kernel abort.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace weft {

/// Raised for every failure a user can cause; the message names the label, the sizes and a fix.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace impl {
[[noreturn]] void throw_error(const std::string& message);
/// Prints "weft: <message>" to stderr and aborts; used where throwing is impossible (inside kernels).
[[noreturn]] void abort_with(const char* message) noexcept;
/// Kokkos's way with errors, which the Kokkos drop-in's headers turn on so that a Kokkos program fails as under
/// Kokkos (and Kokkos's death tests pass): a misused policy (an invalid RangePolicy or MDRangePolicy) prints its
/// message, naming Kokkos::RangePolicy, and aborts; an exception a functor throws on a host backend reaches the
/// caller as itself. Programs written against <weft/...> get weft::Error for both (the kernel's exception nested).
void set_kokkos_error_style(bool on) noexcept;
bool kokkos_error_style() noexcept;

/// parts[0] numbers[0] parts[1] numbers[1] ... (the numbers in decimal): a message built out of line, so that a
/// template that may raise it does not compile the string building into each of its instantiations.
std::string compose(std::initializer_list<std::string_view> parts, std::initializer_list<std::int64_t> numbers);

/// One piece of a message built out of line by cat(): a text, or an integer written in decimal (not a character or a
/// bool, which would silently print as numbers).
struct MessagePiece {
  enum Kind : unsigned char { text_kind, signed_kind, unsigned_kind };
  std::string_view text;
  std::uint64_t bits = 0;
  Kind kind = text_kind;
  MessagePiece(std::string_view s) : text(s) {}
  MessagePiece(const char* s) : text(s) {}
  MessagePiece(const std::string& s) : text(s) {}
  template <std::integral I>
  requires(!std::same_as<I, bool> && !std::same_as<I, char> && !std::same_as<I, wchar_t> && !std::same_as<I, char8_t> &&
           !std::same_as<I, char16_t> && !std::same_as<I, char32_t>) MessagePiece(I v)
      : bits(static_cast<std::uint64_t>(v)), kind(std::is_signed_v<I> ? signed_kind : unsigned_kind) {}
};
/// The pieces one after the other, out of line (core/src/error.cpp): a container's or a View's message compiles to
/// a call with a list of pieces, not to string building in each instantiation of its template.
std::string cat(std::initializer_list<MessagePiece> pieces);
/// throw Error(cat(pieces)).
[[noreturn]] void throw_cat(std::initializer_list<MessagePiece> pieces);
/// An OffsetView's ranges or begins and ends that give no shape (containers/offset_view.hpp); through the Kokkos
/// drop-in the program ends, as under Kokkos.
[[noreturn]] void throw_offset_view_error(std::string_view label, const std::string& what);
/// deep_copy between Bitsets of different sizes (containers/bitset.hpp).
[[noreturn]] void throw_bitset_sizes(const char* what, unsigned dst, unsigned src);

inline std::string quote(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  r += '"';
  r += s;
  r += '"';
  return r;
}
}  // namespace impl
}  // namespace weft
