// The registry of runtime settings (impl/settings.hpp): names, kinds, accepted values, defaults and help.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>

#include <weft/error.hpp>
#include <weft/impl/settings.hpp>

namespace weft::impl {
namespace {

constexpr const char* kMapBy[] = {"mpi_rank", nullptr};
constexpr const char* kAllocator[] = {"pool", "direct", nullptr};
constexpr const char* kStreams[] = {"lazy", "concurrent", "sync", nullptr};
constexpr const char* kEmuProfile[] = {"off", "memory", "0", nullptr};
constexpr const char* kLinalgImpl[] = {"auto", "native", "vendor", nullptr};

/// summary, launches, json:PATH and off, separated by commas (tools.cpp reads it).
bool valid_profile(std::string_view v) {
  std::size_t at = 0;
  while (at <= v.size()) {
    const std::size_t comma = std::min(v.find(',', at), v.size());
    const std::string_view p = v.substr(at, comma - at);
    if (!(p == "summary" || p == "launches" || p == "off" || (p.substr(0, 5) == "json:" && p.size() > 5))) return false;
    at = comma + 1;
  }
  return true;
}
bool all_digits(std::string_view v) {
  return !v.empty() && v.size() <= 10 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
         std::strtoull(std::string(v).c_str(), nullptr, 10) <= 4294967295ull;
}
/// Off only: Kokkos lets tools tune its internals; Weft has none they can tune.
bool off_flag(std::string_view v);
/// index, or shuffle:SEED with SEED an unsigned 32-bit integer (emu.cpp reads it).
bool valid_block_order(std::string_view v) {
  return v == "index" || (v.substr(0, 8) == "shuffle:" && all_digits(v.substr(8)));
}

constexpr long kMaxThreads = 4096;  // beyond any machine's cores; a million threads would exhaust memory instead

const Setting kSettings[] = {
    // Each WEFT_ setting that Kokkos has is also read under Kokkos's KOKKOS_ name (the option under --kokkos-); when
    // both names are set they must agree. The command line overrides the environment, as in Kokkos.
    {"WEFT_NUM_THREADS", "--weft-num-threads", SettingKind::integer, "an integer from 1 to 4096",
     "OMP_NUM_THREADS, else all cores", "threads of the OpenMP backend", 1, kMaxThreads},
    {"KOKKOS_NUM_THREADS", "", SettingKind::integer, "an integer from 1 to 4096", "none",
     "as WEFT_NUM_THREADS (Kokkos's name)", 1, kMaxThreads},
    {"WEFT_DEVICE_ID", "--weft-device-id", SettingKind::integer, "an integer from 0 to 1024", "0",
     "the GPU to use (GPU builds)", 0, 1024},
    {"KOKKOS_DEVICE_ID", "", SettingKind::integer, "an integer from 0 to 1024", "none",
     "as WEFT_DEVICE_ID (Kokkos's name)", 0, 1024},
    {"WEFT_MAP_DEVICE_ID_BY", "--weft-map-device-id-by", SettingKind::choice, "mpi_rank", "off (WEFT_DEVICE_ID)",
     "one GPU per MPI rank of a node, round-robin by the launcher's local rank", 0, 0, kMapBy},
    {"KOKKOS_MAP_DEVICE_ID_BY", "", SettingKind::choice, "mpi_rank (Kokkos's random is not offered)", "none",
     "as WEFT_MAP_DEVICE_ID_BY (Kokkos's name)", 0, 0, kMapBy},
    {"KOKKOS_VISIBLE_DEVICES", "", SettingKind::refused,
     "Weft does not read it: unset it and choose GPUs with CUDA_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES", "unset",
     "Kokkos's list of usable GPUs"},
    {"WEFT_PRINT_CONFIGURATION", "--weft-print-configuration", SettingKind::flag, "1 or 0 (the option alone: 1)", "0",
     "print the configuration at initialize"},
    {"KOKKOS_PRINT_CONFIGURATION", "", SettingKind::flag, "1 or 0", "none",
     "as WEFT_PRINT_CONFIGURATION (Kokkos's name)"},
    {"WEFT_DISABLE_WARNINGS", "--weft-disable-warnings", SettingKind::flag, "1 or 0 (the option alone: 1)", "0",
     "Kokkos's switch for its warnings; Weft prints none (errors are weft::Error), so either value is accepted"},
    {"KOKKOS_DISABLE_WARNINGS", "", SettingKind::flag, "1 or 0", "none", "as WEFT_DISABLE_WARNINGS (Kokkos's name)"},
    {"WEFT_TUNE_INTERNALS", "--weft-tune-internals", SettingKind::custom, "0 (off)", "0",
     "Kokkos lets tools tune its internals; Weft has none a tool can tune, so only off is accepted", 0, 0, nullptr,
     off_flag},
    {"KOKKOS_TUNE_INTERNALS", "", SettingKind::custom, "0 (off)", "none", "as WEFT_TUNE_INTERNALS (Kokkos's name)", 0,
     0, nullptr, off_flag},
    {"WEFT_TOOLS_LIBS", "--weft-tools-libs", SettingKind::text, "A.so;B.so", "KOKKOS_TOOLS_LIBS, else none",
     "Kokkos Tools libraries, chained in order"},
    {"KOKKOS_TOOLS_LIBS", "", SettingKind::text, "A.so;B.so", "none", "as WEFT_TOOLS_LIBS (Kokkos's name)"},
    {"KOKKOS_PROFILE_LIBRARY", "", SettingKind::text, "A.so;B.so", "none", "as WEFT_TOOLS_LIBS (Kokkos's older name)"},
    {"WEFT_TOOLS_ARGS", "--weft-tools-args", SettingKind::text, "words separated by spaces", "the program's name",
     "what the tools' kokkosp_parse_args receives (the option's: after the program's name)"},
    {"KOKKOS_TOOLS_ARGS", "", SettingKind::text, "words separated by spaces", "none",
     "as WEFT_TOOLS_ARGS (Kokkos's name)"},
    {"WEFT_PROFILE", "--weft-profile", SettingKind::custom, "summary, launches and/or json:PATH, separated by commas",
     "off", "the built-in kernel timer, printed (or written as JSON) at finalize", 0, 0, nullptr, valid_profile},
    {"WEFT_ALLOCATOR", "", SettingKind::choice, "pool or direct", "pool",
     "device memory from Weft's caching pool, or from the runtime at each allocation", 0, 0, kAllocator},
    {"WEFT_VENDOR_ALGORITHMS", "", SettingKind::flag, "1 or 0", "1",
     "the algorithms' vendor paths (CUB, rocPRIM); 0 runs Weft's portable kernels"},
    {"WEFT_LINALG_IMPL", "", SettingKind::choice, "auto, native or vendor", "auto",
     "weft::linalg's default: the measured choice, Weft's kernels, or the vendor BLAS", 0, 0, kLinalgImpl},
    {"WEFT_LINALG_TF32", "", SettingKind::flag, "1 or 0", "0", "let float GEMMs round inputs to TF32 (tensor cores)"},
    {"WEFT_COMM_CHECKS", "", SettingKind::flag, "1 or 0", "1",
     "weft::comm checks that every rank agrees on a collective's count, type, operator and root"},
    {"WEFT_EMU_STREAMS", "", SettingKind::choice, "lazy, concurrent or sync", "lazy",
     "GpuEmu's streams: run at the next wait, on a thread each, or at once", 0, 0, kStreams},
    {"WEFT_EMU_CHECK", "", SettingKind::flag, "1 or 0", "1", "GpuEmu's stream-order checker"},
    {"WEFT_EMU_STREAM_SEED", "", SettingKind::integer, "an integer from 0 to 4294967295", "0",
     "seed of the concurrent streams' interleaving", 0, 4294967295L},
    {"WEFT_EMU_WORKERS", "", SettingKind::integer, "an integer from 1 to 1024", "the OpenMP thread count",
     "GpuEmu's emulated multiprocessors (blocks that run at once)", 1, 1024},
    {"WEFT_EMU_BLOCK_ORDER", "", SettingKind::custom, "index or shuffle:SEED", "index",
     "the order GpuEmu runs a kernel's blocks in", 0, 0, nullptr, valid_block_order},
    {"WEFT_EMU_DEVICES", "", SettingKind::integer, "an integer from 1 to 64", "1",
     "devices GpuEmu presents (all the one emulated machine)", 1, 64},
    {"WEFT_EMU_PROFILE", "", SettingKind::choice, "memory or off", "off",
     "GpuEmu's memory model: coalescing and bank conflicts per kernel", 0, 0, kEmuProfile},
    {nullptr, nullptr, SettingKind::text, nullptr, nullptr, nullptr},
};

std::string lower(std::string_view v) {
  std::string s(v);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
/// 1 for yes, 0 for no, -1 for neither.
int flag_value(std::string_view v) {
  const std::string s = lower(v);
  if (s == "1" || s == "on" || s == "true" || s == "yes") return 1;
  if (s == "0" || s == "off" || s == "false" || s == "no") return 0;
  return -1;
}
bool integer_value(const Setting& s, std::string_view v, long* out) {
  const std::string text(v);
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || x < s.lo || x > s.hi) return false;
  *out = x;
  return true;
}
bool off_flag(std::string_view v) { return flag_value(v) == 0; }
int choice_index(const Setting& s, std::string_view v) {
  for (int i = 0; s.choices[i]; ++i)
    if (v == s.choices[i]) return i;
  return -1;
}
const Setting& registered(const char* name) {
  const Setting* s = find_setting(name);
  if (!s) throw Error(std::string("weft: internal: setting ") + name + " is not registered (core/src/settings.cpp)");
  return *s;
}
const char* env_value(const char* name) {
  const char* e = std::getenv(name);
  return e && *e ? e : nullptr;
}

}  // namespace

const Setting* settings_registry() { return kSettings; }

const Setting* find_setting(std::string_view name) {
  for (const Setting* s = kSettings; s->name; ++s)
    if (name == s->name || (*s->option && name == s->option)) return s;
  return nullptr;
}

void check_setting_value(const Setting& s, std::string_view where, std::string_view value) {
  bool ok = false;
  long x = 0;
  switch (s.kind) {
    case SettingKind::integer:
      ok = integer_value(s, value, &x);
      break;
    case SettingKind::flag:
      ok = flag_value(value) >= 0;
      break;
    case SettingKind::choice:
      ok = choice_index(s, value) >= 0;
      break;
    case SettingKind::text:
      ok = !value.empty();
      break;
    case SettingKind::custom:
      ok = s.check(value);
      break;
    case SettingKind::refused:
      throw Error(std::string(where) + " is set (" + std::string(value) + "); " + s.values + " (" + s.help + ")");
  }
  if (ok) return;
  std::string m(where);
  if (s.kind == SettingKind::integer)
    m += " is \"" + std::string(value) + "\"; give " + s.values;
  else
    m += "=" + std::string(value) + " is not known; use " + s.values;
  throw Error(m + " (" + s.help + "; default " + s.fallback + ")");
}

void check_environment_settings() {
  for (const Setting* s = kSettings; s->name; ++s)
    if (const char* v = env_value(s->name)) check_setting_value(*s, s->name, v);
}

long env_integer(const char* name, long fallback) {
  const Setting& s = registered(name);
  const char* v = env_value(name);
  if (!v) return fallback;
  check_setting_value(s, name, v);
  return std::strtol(v, nullptr, 10);
}
bool flag_is_on(std::string_view value) { return flag_value(value) == 1; }
bool env_flag(const char* name, bool fallback) {
  const Setting& s = registered(name);
  const char* v = env_value(name);
  if (!v) return fallback;
  check_setting_value(s, name, v);
  return flag_value(v) == 1;
}
int env_choice(const char* name, int fallback) {
  const Setting& s = registered(name);
  const char* v = env_value(name);
  if (!v) return fallback;
  check_setting_value(s, name, v);
  return choice_index(s, v);
}
std::string env_text(const char* name) {
  const Setting& s = registered(name);
  const char* v = env_value(name);
  if (!v) return {};
  check_setting_value(s, name, v);
  return v;
}

void print_settings_help(std::ostream& os) {
  os << "Weft options (also accepted with the --kokkos- prefix) and environment variables:\n"
        "  --weft-help\n      print this help\n"
        "  --weft-tools-help\n      print the Kokkos Tools libraries' help (kokkosp_print_help) at initialize\n";
  for (const Setting* s = kSettings; s->name; ++s) {
    os << "  ";
    if (*s->option) os << s->option << "=VALUE or ";
    os << s->name << "=VALUE\n      " << s->help << ": " << s->values << "; default " << s->fallback << "\n";
  }
}

void print_settings_table(std::ostream& os) {
  os << "| variable | option | values | default | what it sets |\n|---|---|---|---|---|\n";
  for (const Setting* s = kSettings; s->name; ++s)
    os << "| `" << s->name << "` | " << (*s->option ? std::string("`") + s->option + "`" : std::string()) << " | "
       << s->values << " | " << s->fallback << " | " << s->help << " |\n";
}

}  // namespace weft::impl
