// Runtime lifetime: initialize / finalize / ScopeGuard, settings, print_configuration.
#pragma once

#include <type_traits>
#include <utility>

#include <iosfwd>
#include <string>
#include <string_view>

#include <weft/error.hpp>

namespace weft {

/// Settings that initialize() takes (Kokkos::InitializationSettings's members); what is set here overrides the
/// environment (WEFT_* and Kokkos's KOKKOS_*), and initialize(argc, argv)'s --weft-*/--kokkos-* arguments override
/// both.
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
#define WEFT_IMPL_SETTING(TYPE, NAME)               \
  InitializationSettings& set_##NAME(TYPE v) {      \
    NAME##_ = std::move(v);                         \
    has_##NAME##_ = true;                           \
    return *this;                                   \
  }                                                 \
  bool has_##NAME() const { return has_##NAME##_; } \
  const TYPE& get_##NAME() const { return NAME##_; }
  /// the configuration printed at initialize
  WEFT_IMPL_SETTING(bool, print_configuration)
  /// Kokkos's switch for its warnings; Weft prints none (errors are weft::Error), so either value is accepted
  WEFT_IMPL_SETTING(bool, disable_warnings)
  /// Kokkos lets tools tune its internals; Weft has none a tool can tune, so true is refused at initialize
  WEFT_IMPL_SETTING(bool, tune_internals)
  /// the Kokkos Tools libraries' help (kokkosp_print_help) at initialize
  WEFT_IMPL_SETTING(bool, tools_help)
  /// Kokkos Tools libraries, separated by ';'
  WEFT_IMPL_SETTING(std::string, tools_libs)
  /// the arguments the tools' kokkosp_parse_args receives (after the program's name)
  WEFT_IMPL_SETTING(std::string, tools_args)
  /// "mpi_rank": one GPU per rank of a node
  WEFT_IMPL_SETTING(std::string, map_device_id_by)
#undef WEFT_IMPL_SETTING

 private:
  int num_threads_ = -1;
  int device_id_ = -1;
  bool print_configuration_ = false, has_print_configuration_ = false;
  bool disable_warnings_ = false, has_disable_warnings_ = false;
  bool tune_internals_ = false, has_tune_internals_ = false;
  bool tools_help_ = false, has_tools_help_ = false;
  std::string tools_libs_, tools_args_, map_device_id_by_;
  bool has_tools_libs_ = false, has_tools_args_ = false, has_map_device_id_by_ = false;
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
