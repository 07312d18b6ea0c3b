// Runtime lifetime: initialize / finalize / ScopeGuard, settings, print_configuration.
#pragma once

#include <type_traits>
#include <utility>

#include <iosfwd>
#include <string_view>

#include <weft/error.hpp>

namespace weft {

/// Settings that initialize() takes; command line (--weft-*) and environment (WEFT_*) override them.
class InitializationSettings {
 public:
  InitializationSettings& set_num_threads(int n) {
    num_threads_ = n;
    return *this;
  }
  bool has_num_threads() const { return num_threads_ > 0; }
  int get_num_threads() const { return num_threads_; }
  InitializationSettings& set_device_id(int id) {
    device_id_ = id;
    return *this;
  }
  bool has_device_id() const { return device_id_ >= 0; }
  int get_device_id() const { return device_id_; }
  InitializationSettings& set_print_configuration(bool b) {
    print_configuration_ = b;
    return *this;
  }
  bool get_print_configuration() const { return print_configuration_; }

 private:
  int num_threads_ = -1;
  int device_id_ = -1;
  bool print_configuration_ = false;
};

/// Starts the runtime. Reads and removes --weft-* (and --kokkos-*) arguments from argv.
void initialize(int& argc, char* argv[]);
void initialize(const InitializationSettings& settings = InitializationSettings());
/// Stops the runtime; Views still alive are reported on stderr by label.
void finalize();
bool is_initialized() noexcept;
bool is_finalized() noexcept;
/// Writes the version, the enabled backends and their settings.
void print_configuration(std::ostream& os, bool verbose = false);
namespace impl {
/// The type-erased form of push_finalize_hook: finalize calls call(state), then destroy(state).
void push_finalize_hook_erased(void (*call)(void*), void (*destroy)(void*), void* state);
}  // namespace impl
/// Registers a callable (a lambda, a function pointer, a std::function) that finalize() calls before it tears
/// the runtime down (last registered, first called; as Kokkos::push_finalize_hook). An exception a hook throws
/// is reported on stderr and finalize goes on. (A template rather than a std::function parameter keeps
/// <functional>, a sixth of a one-kernel program's compile time, out of every Weft translation unit.)
template <class F>
void push_finalize_hook(F&& hook) {
  using H = std::decay_t<F>;
  impl::push_finalize_hook_erased([](void* s) { (*static_cast<H*>(s))(); }, [](void* s) { delete static_cast<H*>(s); },
                                  new H(std::forward<F>(hook)));
}
/// Waits for all outstanding work on every instance of every execution space.
void fence(std::string_view label = {});

/// initialize() in its constructor, finalize() in its destructor.
class ScopeGuard {
 public:
  ScopeGuard(int& argc, char* argv[]) { initialize(argc, argv); }
  explicit ScopeGuard(const InitializationSettings& s = InitializationSettings()) { initialize(s); }
  ~ScopeGuard() { finalize(); }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
};

namespace impl {
enum class RuntimeState : int { never_initialized, initialized, finalized };
extern RuntimeState g_runtime_state;
/// Raises weft::Error unless the runtime is up; `what` says what was attempted.
[[noreturn]] void throw_not_initialized(std::string_view what, std::string_view label);
inline void check_initialized(std::string_view what, std::string_view label) {
  if (g_runtime_state != RuntimeState::initialized) [[unlikely]]
    throw_not_initialized(what, label);
}
/// Counts of global and per-instance fences since start (for the stream-ordering tests).
struct FenceCounters {
  long global = 0;
  long instance = 0;
};
FenceCounters fence_counters() noexcept;
/// A module outside core (comm/, linalg/) adds its section to print_configuration through this.
void add_configuration_printer(void (*printer)(std::ostream&));
void count_instance_fence() noexcept;
}  // namespace impl
}  // namespace weft
