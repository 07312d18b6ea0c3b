// weft::Error, the exception every user-caused failure raises, and the in-kernel abort.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

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
