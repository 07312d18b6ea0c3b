// initialize / finalize, settings from the command line and the environment, print_configuration.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <weft/config.hpp>
#include <weft/impl/backend_registry.hpp>
#include <weft/impl/settings.hpp>
#include <weft/impl/tools.hpp>
#include <weft/initialize.hpp>
#include <weft/spaces.hpp>

#include "internal.hpp"

namespace weft {
namespace impl {
RuntimeState g_runtime_state = RuntimeState::never_initialized;

namespace {
bool g_backends_registered = false;
/// The registered backends; the enabled ones register on first use (before initialize, print_configuration
/// lists them too).
std::vector<BackendEntry>& backends() {
  static std::vector<BackendEntry> entries;
  if (!g_backends_registered) {
    g_backends_registered = true;  // before the calls: register_backend comes back here
    register_enabled_backends();
  }
  return entries;
}
bool any_device_backend() {
  for (const auto& b : backends())
    if (b.uses_device) return true;
  return false;
}
/// Every backend with queued work waits for it (GPU backends: their devices).
void fence_backends() {
  for (const auto& b : backends())
    if (b.fence_all) b.fence_all();
}
}  // namespace

void register_backend(const BackendEntry& entry) {
  for (auto& b : backends())
    if (std::strcmp(b.name, entry.name) == 0) {
      b = entry;
      return;
    }
  backends().push_back(entry);
}

std::vector<void (*)(std::ostream&)>& configuration_printers() {
  static std::vector<void (*)(std::ostream&)> printers;
  return printers;
}
struct FinalizeHook {
  void (*call)(void*);
  void (*destroy)(void*);
  void* state;
};
std::vector<FinalizeHook>& finalize_hooks() {
  static std::vector<FinalizeHook> hooks;
  return hooks;
}
void push_finalize_hook_erased(void (*call)(void*), void (*destroy)(void*), void* state) {
  finalize_hooks().push_back({call, destroy, state});
}
void add_configuration_printer(void (*printer)(std::ostream&)) {
  auto& v = configuration_printers();
  for (auto* p : v)
    if (p == printer) return;
  v.push_back(printer);
}

bool g_map_device_by_rank = false;
std::string g_profile;  // from --weft-profile (else the environment)
bool g_device_round_robin = false;
namespace {
int g_num_threads = -1;

/// Runs a registry check (impl/settings.hpp); its error is initialize's, prefixed so.
template <class F>
void as_initialize_error(const F& check) {
  try {
    check();
  } catch (const Error& e) {
    throw Error(std::string("weft::initialize: ") + e.what());
  }
}
/// An option's value checked against the registry's entry `name` (`where`: the option it came from).
void check_registered(const char* name, const std::string& text, const char* where) {
  as_initialize_error([&] { check_setting_value(*find_setting(name), where, text); });
}
/// An integer option or variable from the registry, checked against its range.
int parse_registered(const char* name, const std::string& text, const char* where) {
  check_registered(name, text, where);
  return static_cast<int>(std::strtol(text.c_str(), nullptr, 10));
}
int parse_threads(const std::string& text, const char* where) {
  return parse_registered("WEFT_NUM_THREADS", text, where);
}
int parse_device(const std::string& text, const char* where) { return parse_registered("WEFT_DEVICE_ID", text, where); }

void print_help(std::ostream& os) { print_settings_help(os); }

/// A setting's value from the environment: the first of `names` that is set (Weft's name, then Kokkos's), with
/// the variable it came from; names set to different values are an error, since neither can be taken silently.
struct EnvValue {
  const char* value = nullptr;
  const char* name = nullptr;
  explicit operator bool() const { return value != nullptr; }
};
EnvValue env_either(std::initializer_list<const char*> names) {
  EnvValue found;
  for (const char* n : names) {
    const char* v = std::getenv(n);
    if (!v || !*v) continue;
    if (!found) {
      found = {v, n};
    } else if (std::string_view(v) != found.value) {
      throw Error(std::string("weft::initialize: ") + found.name + "=" + found.value + " and " + n + "=" + v +
                  " are both set and differ; set one of them (they are the same setting)");
    }
  }
  return found;
}
/// A flag from the environment (registry-checked), or `fallback` when none of `names` is set.
bool env_flag_either(std::initializer_list<const char*> names, bool fallback) {
  const EnvValue e = env_either(names);
  if (!e) return fallback;
  bool on = fallback;
  as_initialize_error([&] { on = env_flag(e.name, fallback); });
  return on;
}
}  // namespace

void throw_not_initialized(std::string_view what, std::string_view label) {
  const bool after = g_runtime_state == RuntimeState::finalized;
  std::string msg = "weft: cannot " + std::string(what);
  if (!label.empty()) msg += " " + quote(label);
  msg += after ? " after weft::finalize(); do this work before finalize (keep it inside the ScopeGuard's scope)"
               : " before weft::initialize(); call weft::initialize(argc, argv) or create a weft::ScopeGuard first";
  throw Error(msg);
}
}  // namespace impl

bool is_initialized() noexcept { return impl::g_runtime_state == impl::RuntimeState::initialized; }
bool is_finalized() noexcept { return impl::g_runtime_state == impl::RuntimeState::finalized; }

void initialize(const InitializationSettings& settings) {
  if (is_initialized())
    throw Error("weft::initialize: Weft is already initialized; call initialize once (or finalize first)");
  impl::as_initialize_error(impl::check_environment_settings);  // every WEFT_* variable set, before anything starts
  // What `settings` sets wins over the environment (initialize(argc, argv) put the command line's there).
  int threads = settings.has_num_threads() ? settings.get_num_threads() : -1;
  if (threads <= 0)
    if (const auto e = impl::env_either({"WEFT_NUM_THREADS", "KOKKOS_NUM_THREADS"}))
      threads = impl::parse_threads(e.value, e.name);
  const bool tune = settings.has_tune_internals()
                        ? settings.get_tune_internals()
                        : impl::env_flag_either({"WEFT_TUNE_INTERNALS", "KOKKOS_TUNE_INTERNALS"}, false);
  if (tune)
    throw Error(
        "weft::initialize: tune_internals (--kokkos-tune-internals, KOKKOS_TUNE_INTERNALS) lets Kokkos Tools "
        "tune a runtime's internals; Weft has none a tool can tune: leave it off");
  (void)(settings.has_disable_warnings() ||
         impl::env_flag_either({"WEFT_DISABLE_WARNINGS", "KOKKOS_DISABLE_WARNINGS"}, false));  // checked; none to hide
  const bool print = settings.has_print_configuration()
                         ? settings.get_print_configuration()
                         : impl::env_flag_either({"WEFT_PRINT_CONFIGURATION", "KOKKOS_PRINT_CONFIGURATION"}, false);
  std::string map_by;
  const char* map_where = "map_device_id_by";
  if (settings.has_map_device_id_by()) {
    map_by = settings.get_map_device_id_by();
  } else if (const auto e = impl::env_either({"WEFT_MAP_DEVICE_ID_BY", "KOKKOS_MAP_DEVICE_ID_BY"})) {
    map_by = e.value;
    map_where = e.name;
  }
  if (!map_by.empty()) impl::check_registered("WEFT_MAP_DEVICE_ID_BY", map_by, map_where);
  impl::g_num_threads = threads;
  impl::BackendSettings backend_settings;
  backend_settings.num_threads = threads;
  impl::g_map_device_by_rank = !map_by.empty();
  if (impl::any_device_backend()) {
    int device = settings.has_device_id() ? settings.get_device_id() : -1;
    if (device < 0)
      if (const auto e = impl::env_either({"WEFT_DEVICE_ID", "KOKKOS_DEVICE_ID"}))
        device = impl::parse_device(e.value, e.name);
    if (device < 0 && impl::g_map_device_by_rank) {
      // One GPU per rank, round-robin by the rank on this node as the MPI launcher reports it.
      for (const char* var :
           {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
        if (const char* v = std::getenv(var)) {
          device = impl::parse_device(v, var);
          break;
        }
      impl::g_device_round_robin = true;
    }
    backend_settings.device_id = device;
  }
  std::string libs, tool_args, profile = impl::g_profile;
  if (settings.has_tools_libs())
    libs = settings.get_tools_libs();
  else if (const auto e = impl::env_either({"WEFT_TOOLS_LIBS", "KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"}))
    libs = e.value;
  if (settings.has_tools_args())
    tool_args = settings.get_tools_args();
  else if (const auto e = impl::env_either({"WEFT_TOOLS_ARGS", "KOKKOS_TOOLS_ARGS"}))
    tool_args = e.value;
  if (profile.empty())
    if (const char* e = std::getenv("WEFT_PROFILE")) profile = e;
  for (const auto& b : impl::backends()) b.initialize(backend_settings);
  impl::g_runtime_state = impl::RuntimeState::initialized;
  try {
    impl::tools::initialize(libs, profile, tool_args, settings.has_tools_help() && settings.get_tools_help());
  } catch (...) {
    impl::g_runtime_state = impl::RuntimeState::never_initialized;
    throw;
  }
  if (print) print_configuration(std::cout);
}

void initialize(int& argc, char* argv[]) {
  InitializationSettings s;
  bool help = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string key = a;
    if (key.rfind("--kokkos-", 0) == 0) key = "--weft-" + key.substr(9);
    if (key.rfind("--weft-", 0) != 0) {
      argv[out++] = argv[i];
      continue;
    }
    const auto eq = key.find('=');
    const std::string name = key.substr(0, eq);
    auto value = [&]() -> std::string {
      if (eq != std::string::npos) return key.substr(eq + 1);
      if (i + 1 < argc) return argv[++i];
      throw Error("weft::initialize: " + name + " needs a value, e.g. " + name + "=4");
    };
    // A switch alone is on; --weft-x=VALUE takes 1/0, on/off, true/false, yes/no (registry-checked).
    auto flag = [&](const char* registered_name) {
      if (eq == std::string::npos) return true;
      const std::string v = key.substr(eq + 1);
      impl::check_registered(registered_name, v, name.c_str());
      return impl::flag_is_on(v);
    };
    if (name == "--weft-num-threads" || name == "--weft-threads")
      s.set_num_threads(impl::parse_threads(value(), "--weft-num-threads"));
    else if (name == "--weft-map-device-id-by") {
      const std::string v = value();
      impl::check_registered("WEFT_MAP_DEVICE_ID_BY", v, "--weft-map-device-id-by");
      s.set_map_device_id_by(v);
    } else if (name == "--weft-device-id")
      s.set_device_id(impl::parse_device(value(), "--weft-device-id"));
    else if (name == "--weft-help")
      help = true;
    else if (name == "--weft-print-configuration")
      s.set_print_configuration(flag("WEFT_PRINT_CONFIGURATION"));
    else if (name == "--weft-disable-warnings")
      s.set_disable_warnings(flag("WEFT_DISABLE_WARNINGS"));
    else if (name == "--weft-tune-internals")
      s.set_tune_internals(flag("WEFT_TUNE_INTERNALS"));
    else if (name == "--weft-tools-help")
      s.set_tools_help(true);
    else if (name == "--weft-tools-libs" || name == "--weft-tools-library")
      s.set_tools_libs(value());
    else if (name == "--weft-tools-args")
      s.set_tools_args(std::string(argc > 0 && argv[0] ? argv[0] : "") + " " + value());
    else if (name == "--weft-profile") {
      impl::g_profile = value();
      impl::check_registered("WEFT_PROFILE", impl::g_profile, "--weft-profile");
    } else
      throw Error("weft::initialize: unknown option \"" + a + "\"; run with --weft-help for the list");
  }
  // As Kokkos: without tool arguments from the command line or the environment, the tools get the program's name.
  if (!s.has_tools_args() && !impl::env_either({"WEFT_TOOLS_ARGS", "KOKKOS_TOOLS_ARGS"}) && argc > 0 && argv[0])
    s.set_tools_args(argv[0]);
  for (int i = out; i < argc; ++i) argv[i] = nullptr;
  argc = out;
  if (help) impl::print_help(std::cout);
  initialize(s);
}

void fence(std::string_view label) {
  impl::check_initialized("fence", label);  // after finalize, as every other call: an error, not a silent no-op
  impl::tools::FenceScope profile(label.empty() ? std::string_view("weft::fence") : label, 0);
  impl::fence_backends();
  impl::fence_all_instances();
}

void finalize() {
  if (!is_initialized())
    throw Error(is_finalized() ? "weft::finalize: called twice" : "weft::finalize: Weft was never initialized");
  // As Kokkos: queued device work finishes before the hooks and the pools go (errors are reported there).
  try {
    impl::fence_backends();
  } catch (const std::exception& e) {
    std::cerr << "weft::finalize: waiting for the device failed: " << e.what() << "\n";
  }
  for (auto& hooks = impl::finalize_hooks(); !hooks.empty();) {
    const impl::FinalizeHook hook = hooks.back();
    hooks.pop_back();
    try {
      hook.call(hook.state);
    } catch (const std::exception& e) {
      std::cerr << "weft::finalize: a finalize hook threw: " << e.what() << "\n";
    } catch (...) {
      hook.destroy(hook.state);
      throw;
    }
    hook.destroy(hook.state);
  }
  impl::fence_all_instances();
  impl::tools::finalize();
  const auto live = impl::live_allocations();
  if (!live.empty()) {
    std::cerr << "weft::finalize: " << live.size() << " View allocation(s) still alive:";
    for (const auto& l : live)
      std::cerr << " \"" << l.label << "\" (" << l.bytes << " bytes in " << l.space_name << ")";
    std::cerr << "\n  Let them go out of scope (or assign View()) before weft::finalize(); with a ScopeGuard, "
                 "declare Views in an inner scope.\n";
  }
  for (auto b = impl::backends().rbegin(); b != impl::backends().rend(); ++b) b->finalize();
  impl::g_runtime_state = impl::RuntimeState::finalized;
}

void impl::print_backend_configuration(const char* backend, std::ostream& os) {
  os << "Weft " << WEFT_VERSION_MAJOR << "." << WEFT_VERSION_MINOR << "." << WEFT_VERSION_PATCH << ", backend "
     << backend << "\n";
  for (const auto& b : impl::backends())
    if (std::string_view(b.name) == backend) {
      b.print_configuration(os);
      return;
    }
  os << "  (backend " << backend << " is not registered in this build)\n";
}

void print_configuration(std::ostream& os, bool) {
  os << "Weft " << WEFT_VERSION_MAJOR << "." << WEFT_VERSION_MINOR << "." << WEFT_VERSION_PATCH << "\n"
     << "  backends: " << WEFT_ENABLED_BACKENDS << " (default: " << WEFT_DEFAULT_BACKEND_NAME << ")\n"
     << "  bounds checks: " << (WEFT_BOUNDS_CHECK ? "on" : "off") << "\n"
     << "  compiler: " << __VERSION__ << "\n";
  for (const auto& b : impl::backends()) b.print_configuration(os);
  for (auto* printer : impl::configuration_printers()) printer(os);
}

}  // namespace weft
