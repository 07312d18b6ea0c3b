// Profiling: the Kokkos Tools C interface (every library of a ';'-separated list, chained in order; Kokkos loads
// only the first), regions/sections/metadata, and the built-in kernel timer (WEFT_PROFILE=summary|json:PATH).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <weft/error.hpp>
#include <weft/host.hpp>
#include <weft/impl/tools.hpp>
#include <weft/initialize.hpp>
#include <weft/profiling.hpp>

namespace weft::impl::tools {
bool g_active = false;
namespace {
RangeAnnotator g_annotator;
}  // namespace
void set_range_annotator(RangeAnnotator a) noexcept { g_annotator = a; }
bool g_print_launches = false;

void print_launch(const char* label, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  std::size_t shared_bytes) {
  std::fprintf(stderr, "weft launch \"%s\": grid (%u,%u,%u) block (%u,%u,%u) dynamic shared %zu bytes\n",
               label && *label ? label : "(unlabeled)", gx, gy, gz, bx, by, bz, shared_bytes);
}

namespace {
constexpr std::uint64_t interface_version = 20211015;  // the Kokkos Tools interface version Weft speaks
constexpr int max_tools = 8;

using profiling::SpaceHandle;
SpaceHandle handle_of(const char* space) {
  SpaceHandle h{};
  std::strncpy(h.name, space ? space : "", sizeof h.name - 1);
  return h;
}

using init_fn = void (*)(int, std::uint64_t, std::uint32_t, void*);
using finalize_fn = void (*)();
using begin_fn = void (*)(const char*, std::uint32_t, std::uint64_t*);
using end_fn = void (*)(std::uint64_t);
using alloc_fn = void (*)(SpaceHandle, const char*, const void*, std::uint64_t);
using begin_copy_fn = void (*)(SpaceHandle, const char*, const void*, SpaceHandle, const char*, const void*,
                               std::uint64_t);
using void_fn = void (*)();
using region_fn = void (*)(const char*);
using create_section_fn = void (*)(const char*, std::uint32_t*);
using section_fn = void (*)(std::uint32_t);
using metadata_fn = void (*)(const char*, const char*);

struct Tool {
  std::string path;
  void* handle = nullptr;
  init_fn init = nullptr;
  finalize_fn fin = nullptr;
  begin_fn begin[3] = {};
  end_fn end[3] = {};
  begin_fn begin_fence = nullptr;
  end_fn end_fence = nullptr;
  alloc_fn alloc = nullptr, dealloc = nullptr;
  begin_copy_fn begin_copy = nullptr;
  void_fn end_copy = nullptr;
  region_fn push = nullptr;
  void_fn pop = nullptr;
  create_section_fn create_section = nullptr;
  section_fn start_section = nullptr, stop_section = nullptr, destroy_section = nullptr;
  metadata_fn metadata = nullptr;
  region_fn event = nullptr;
};
std::vector<Tool> g_tools;
std::vector<std::vector<std::uint32_t>> g_section_ids;  // per tool: Weft's section id -> the tool's
profiling::Callbacks g_cb;                              // the program's own listeners (set_callbacks)
bool g_has_cb = false;
std::vector<std::uint32_t> g_cb_section_ids;  // Weft's section id -> the program's callbacks'
constexpr std::size_t cb_slot = max_tools;    // their kernel and fence ids' place in the tokens

// ---- the built-in timer --------------------------------------------------------------------------------
struct Stat {
  long count = 0;
  double total = 0;
};
bool g_timer = false;
std::string g_json;
bool g_output_lost = false;  // WEFT_PROFILE=json:PATH could not be written at the last finalize
std::mutex g_mutex;
std::map<std::pair<int, std::string>, Stat> g_kernels;  // (kind, label); kind 3 = region, 4 = deep_copy
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> g_memory;  // space -> (current, high water)
thread_local std::vector<std::pair<std::string, double>> t_regions;
double g_start = 0;
std::vector<ProfileReport>& reports() {
  static std::vector<ProfileReport> r;
  return r;
}
const char* kind_name(int k) {
  static const char* names[] = {"parallel_for", "parallel_reduce", "parallel_scan", "region", "deep_copy", "fence"};
  return names[k];
}
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
Stat* stat(int kind, std::string_view label) {
  std::lock_guard lock(g_mutex);
  return &g_kernels[{kind, std::string(label)}];
}
void add(Stat* s, double dt) {
  std::lock_guard lock(g_mutex);
  ++s->count;
  s->total += dt;
}
thread_local double t_copy_start = 0;

template <class F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

std::string json_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

void print_summary() {
  const double wall = now() - g_start;
  std::vector<std::pair<std::pair<int, std::string>, Stat>> rows(g_kernels.begin(), g_kernels.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  if (!g_json.empty()) {
    std::ostringstream f;
    f << "{\"wall_seconds\": " << wall << ", \"kernels\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
      f << (i ? ", " : "") << "{\"label\": \"" << json_escape(rows[i].first.second) << "\", \"kind\": \""
        << kind_name(rows[i].first.first) << "\", \"count\": " << rows[i].second.count
        << ", \"total_seconds\": " << rows[i].second.total
        << ", \"mean_seconds\": " << rows[i].second.total / std::max(1L, rows[i].second.count)
        << ", \"share\": " << (wall > 0 ? rows[i].second.total / wall : 0) << "}";
    f << "], \"memory\": [";
    std::size_t i = 0;
    for (const auto& [space, m] : g_memory)
      f << (i++ ? ", " : "") << "{\"space\": \"" << space << "\", \"high_water_bytes\": " << m.second << "}";
    f << "]";
    for (const ProfileReport& r : reports())
      if (r.wanted()) f << ", \"" << r.key << "\": " << r.json();
    f << "}\n";
    try {
      write_file(g_json, f.str());  // whole or not at all: never an empty or cut file
    } catch (const Error& e) {
      std::fprintf(stderr, "weft: WEFT_PROFILE=json:%s: %s\n", g_json.c_str(), e.what());
      g_output_lost = true;
    }
    return;
  }
  std::fprintf(stderr, "weft profile (WEFT_PROFILE=summary): %.4f s since initialize\n", wall);
  std::fprintf(stderr, "  %-40s %-15s %9s %12s %12s %7s\n", "label", "kind", "count", "total (s)", "mean (us)",
               "share");
  for (const auto& [key, s] : rows)
    std::fprintf(stderr, "  %-40s %-15s %9ld %12.6f %12.3f %6.1f%%\n",
                 (key.second.size() > 40 ? key.second.substr(0, 37) + "..." : key.second).c_str(), kind_name(key.first),
                 s.count, s.total, 1e6 * s.total / std::max(1L, s.count), wall > 0 ? 100.0 * s.total / wall : 0.0);
  for (const auto& [space, m] : g_memory)
    std::fprintf(stderr, "  memory high-water mark in %s: %.3f MB\n", space.c_str(), m.second / 1e6);
  for (const ProfileReport& r : reports())
    if (r.wanted()) std::fputs(r.text().c_str(), stderr);
}
}  // namespace

void initialize(const std::string_view& libs, const std::string_view& profile, const std::string_view& args,
                bool help) {
  g_start = now();
  g_output_lost = false;
  std::string list(libs);
  std::size_t pos = 0;
  while (pos <= list.size() && !list.empty()) {
    const std::size_t next = list.find(';', pos);
    const std::string path = list.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    pos = next == std::string::npos ? list.size() + 1 : next + 1;
    if (path.empty()) continue;
    if (static_cast<int>(g_tools.size()) == max_tools)
      throw Error("weft::initialize: more than " + std::to_string(max_tools) + " tool libraries in \"" + list + "\"");
    Tool t;
    t.path = path;
    t.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!t.handle)
      throw Error("weft::initialize: cannot load the tool library \"" + path + "\" (WEFT_TOOLS_LIBS / " +
                  "KOKKOS_TOOLS_LIBS / --weft-tools-libs): " + dlerror());
    t.init = symbol<init_fn>(t.handle, "kokkosp_init_library");
    t.fin = symbol<finalize_fn>(t.handle, "kokkosp_finalize_library");
    t.begin[0] = symbol<begin_fn>(t.handle, "kokkosp_begin_parallel_for");
    t.begin[1] = symbol<begin_fn>(t.handle, "kokkosp_begin_parallel_reduce");
    t.begin[2] = symbol<begin_fn>(t.handle, "kokkosp_begin_parallel_scan");
    t.end[0] = symbol<end_fn>(t.handle, "kokkosp_end_parallel_for");
    t.end[1] = symbol<end_fn>(t.handle, "kokkosp_end_parallel_reduce");
    t.end[2] = symbol<end_fn>(t.handle, "kokkosp_end_parallel_scan");
    t.begin_fence = symbol<begin_fn>(t.handle, "kokkosp_begin_fence");
    t.end_fence = symbol<end_fn>(t.handle, "kokkosp_end_fence");
    t.alloc = symbol<alloc_fn>(t.handle, "kokkosp_allocate_data");
    t.dealloc = symbol<alloc_fn>(t.handle, "kokkosp_deallocate_data");
    t.begin_copy = symbol<begin_copy_fn>(t.handle, "kokkosp_begin_deep_copy");
    t.end_copy = symbol<void_fn>(t.handle, "kokkosp_end_deep_copy");
    t.push = symbol<region_fn>(t.handle, "kokkosp_push_profile_region");
    t.pop = symbol<void_fn>(t.handle, "kokkosp_pop_profile_region");
    t.create_section = symbol<create_section_fn>(t.handle, "kokkosp_create_profile_section");
    t.start_section = symbol<section_fn>(t.handle, "kokkosp_start_profile_section");
    t.stop_section = symbol<section_fn>(t.handle, "kokkosp_stop_profile_section");
    t.destroy_section = symbol<section_fn>(t.handle, "kokkosp_destroy_profile_section");
    t.metadata = symbol<metadata_fn>(t.handle, "kokkosp_declare_metadata");
    t.event = symbol<region_fn>(t.handle, "kokkosp_profile_event");
    g_tools.push_back(t);
  }
  // The tools' own arguments: words separated by spaces, the program's name first (kokkosp_parse_args may keep the
  // pointers, so the words live as long as the process).
  static std::vector<std::string> words;
  static std::vector<char*> word_ptrs;
  words.clear();
  for (std::size_t at = 0; at < args.size();) {
    const std::size_t space = std::min(args.find(' ', at), args.size());
    if (space > at) words.emplace_back(args.substr(at, space - at));
    at = space + 1;
  }
  word_ptrs.clear();
  for (std::string& w : words) word_ptrs.push_back(w.data());
  word_ptrs.push_back(nullptr);
  for (Tool& t : g_tools) {
    using parse_args_fn = void (*)(int, char**);
    using print_help_fn = void (*)(char*);
    if (auto parse = symbol<parse_args_fn>(t.handle, "kokkosp_parse_args"); parse && !words.empty())
      parse(static_cast<int>(words.size()), word_ptrs.data());
    if (auto print = symbol<print_help_fn>(t.handle, "kokkosp_print_help"); print && help)
      print(words.empty() ? nullptr : word_ptrs[0]);
  }
  for (std::size_t i = 0; i < g_tools.size(); ++i)
    if (g_tools[i].init) g_tools[i].init(static_cast<int>(i), interface_version, 0, nullptr);
  if (g_cb.init) g_cb.init(static_cast<int>(g_tools.size()), interface_version, 0, nullptr);
  // A comma-separated list: summary | json:PATH, and launches.
  std::string list_p(profile);
  std::size_t at = 0;
  while (at <= list_p.size() && !list_p.empty()) {
    const std::size_t comma = list_p.find(',', at);
    const std::string p = list_p.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? list_p.size() + 1 : comma + 1;
    if (p == "summary") {
      g_timer = true;
    } else if (p.rfind("json:", 0) == 0 && p.size() > 5) {
      g_timer = true;
      g_json = p.substr(5);
    } else if (p == "launches") {
      g_print_launches = true;
    } else if (!p.empty() && p != "off") {
      throw Error("weft::initialize: WEFT_PROFILE=" + list_p +
                  " is not known; use summary, json:PATH and/or "
                  "launches, separated by commas (or off)");
    }
  }
  g_active = g_timer || !g_tools.empty() || g_has_cb;
}

void add_report(const ProfileReport& r) {
  for (ProfileReport& o : reports())
    if (std::string_view(o.key) == r.key) {
      o = r;
      return;
    }
  reports().push_back(r);
}

void finalize() {
  for (auto& t : g_tools)
    if (t.fin) t.fin();
  if (g_cb.finalize) g_cb.finalize();
  g_cb = {};
  g_has_cb = false;
  g_cb_section_ids.clear();
  if (g_timer) {
    print_summary();
  } else {
    for (const ProfileReport& r : reports())
      if (r.wanted()) std::fputs(r.text().c_str(), stderr);
  }
  for (const ProfileReport& r : reports()) r.reset();
  g_tools.clear();
  g_section_ids.clear();
  g_kernels.clear();
  g_memory.clear();
  g_timer = false;
  g_json.clear();
  g_active = false;
  g_print_launches = false;
}

void begin_kernel(Kind kind, std::string_view label, const char* type_name, std::uint32_t device_id, KernelToken& t) {
  const std::string name = label.empty() ? std::string(type_name) : std::string(label);
  t.kind = kind;
  const int k = static_cast<int>(kind);
  for (std::size_t i = 0; i < g_tools.size(); ++i) {
    t.ids[i] = 0;
    if (g_tools[i].begin[k]) g_tools[i].begin[k](name.c_str(), device_id, &t.ids[i]);
  }
  t.ids[cb_slot] = 0;
  if (auto* f = k == 0 ? g_cb.begin_parallel_for : k == 1 ? g_cb.begin_parallel_reduce : g_cb.begin_parallel_scan)
    f(name.c_str(), device_id, &t.ids[cb_slot]);
  t.timer_slot = g_timer ? stat(k, name) : nullptr;
  if (g_annotator.push) g_annotator.push(name.c_str());
  t.start = now();
}
void end_kernel(KernelToken& t) {
  const double dt = now() - t.start;
  if (g_annotator.pop) g_annotator.pop();
  const int k = static_cast<int>(t.kind);
  for (std::size_t i = 0; i < g_tools.size(); ++i)
    if (g_tools[i].end[k]) g_tools[i].end[k](t.ids[i]);
  if (auto* f = k == 0 ? g_cb.end_parallel_for : k == 1 ? g_cb.end_parallel_reduce : g_cb.end_parallel_scan)
    f(t.ids[cb_slot]);
  if (t.timer_slot) add(const_cast<Stat*>(static_cast<const Stat*>(t.timer_slot)), dt);
}
void begin_fence(std::string_view label, std::uint32_t device_id, FenceToken& t) {
  const std::string name = label.empty() ? std::string("weft::fence") : std::string(label);
  for (std::size_t i = 0; i < g_tools.size(); ++i) {
    t.ids[i] = 0;
    if (g_tools[i].begin_fence) g_tools[i].begin_fence(name.c_str(), device_id, &t.ids[i]);
  }
  t.ids[cb_slot] = 0;
  if (g_cb.begin_fence) g_cb.begin_fence(name.c_str(), device_id, &t.ids[cb_slot]);
  t.start = now();
}
void end_fence(FenceToken& t) {
  for (std::size_t i = 0; i < g_tools.size(); ++i)
    if (g_tools[i].end_fence) g_tools[i].end_fence(t.ids[i]);
  if (g_cb.end_fence) g_cb.end_fence(t.ids[cb_slot]);
}
void allocate(const char* space, const char* label, const void* ptr, std::uint64_t bytes) {
  for (auto& t : g_tools)
    if (t.alloc) t.alloc(handle_of(space), label, ptr, bytes);
  if (g_cb.allocate_data) g_cb.allocate_data(handle_of(space), label, ptr, bytes);
  if (g_timer) {
    std::lock_guard lock(g_mutex);
    auto& m = g_memory[space];
    m.first += bytes;
    m.second = std::max(m.second, m.first);
  }
}
void deallocate(const char* space, const char* label, const void* ptr, std::uint64_t bytes) {
  for (auto& t : g_tools)
    if (t.dealloc) t.dealloc(handle_of(space), label, ptr, bytes);
  if (g_cb.deallocate_data) g_cb.deallocate_data(handle_of(space), label, ptr, bytes);
  if (g_timer) {
    std::lock_guard lock(g_mutex);
    auto& m = g_memory[space];
    m.first -= std::min<std::uint64_t>(m.first, bytes);
  }
}
void begin_deep_copy(const char* dst_space, std::string_view dst_label, const void* dst, const char* src_space,
                     std::string_view src_label, const void* src, std::uint64_t bytes) {
  const std::string d(dst_label), s(src_label);
  for (auto& t : g_tools)
    if (t.begin_copy) t.begin_copy(handle_of(dst_space), d.c_str(), dst, handle_of(src_space), s.c_str(), src, bytes);
  if (g_cb.begin_deep_copy)
    g_cb.begin_deep_copy(handle_of(dst_space), d.c_str(), dst, handle_of(src_space), s.c_str(), src, bytes);
  t_copy_start = now();
}
void end_deep_copy() {
  for (auto& t : g_tools)
    if (t.end_copy) t.end_copy();
  if (g_cb.end_deep_copy) g_cb.end_deep_copy();
  if (g_timer) add(stat(4, "weft::deep_copy"), now() - t_copy_start);
}
}  // namespace weft::impl::tools

namespace weft::profiling {
using namespace weft::impl::tools;
bool is_enabled() noexcept { return g_active; }
void push_region(const std::string& name) {
  if (g_annotator.push) g_annotator.push(name.c_str());  // Nsight Systems shows regions with or without a tool
  if (!g_active) return;
  for (auto& t : g_tools)
    if (t.push) t.push(name.c_str());
  if (g_cb.push_region) g_cb.push_region(name.c_str());
  if (g_timer) t_regions.emplace_back(name, now());
}
void pop_region() {
  if (g_annotator.pop) g_annotator.pop();
  if (!g_active) return;
  for (auto& t : g_tools)
    if (t.pop) t.pop();
  if (g_cb.pop_region) g_cb.pop_region();
  if (g_timer && !t_regions.empty()) {
    auto [name, start] = t_regions.back();
    t_regions.pop_back();
    add(stat(3, name), now() - start);
  }
}
std::uint32_t create_section(const std::string& name) {
  static std::uint32_t next = 0;
  const std::uint32_t id = next++;
  g_section_ids.resize(g_tools.size());
  for (std::size_t i = 0; i < g_tools.size(); ++i) {
    std::uint32_t tool_id = id;
    if (g_tools[i].create_section) g_tools[i].create_section(name.c_str(), &tool_id);
    if (g_section_ids[i].size() <= id) g_section_ids[i].resize(id + 1);
    g_section_ids[i][id] = tool_id;
  }
  if (g_cb.create_profile_section) {
    std::uint32_t own = id;
    g_cb.create_profile_section(name.c_str(), &own);
    if (g_cb_section_ids.size() <= id) g_cb_section_ids.resize(id + 1);
    g_cb_section_ids[id] = own;
  }
  return id;
}
namespace {
template <class F>
void each_section(std::uint32_t id, section_fn Tool::*fn, section_fn profiling::Callbacks::*cb) {
  for (std::size_t i = 0; i < g_tools.size(); ++i)
    if (g_tools[i].*fn && i < g_section_ids.size() && id < g_section_ids[i].size())
      (g_tools[i].*fn)(g_section_ids[i][id]);
  if (g_cb.*cb) (g_cb.*cb)(id < g_cb_section_ids.size() ? g_cb_section_ids[id] : id);
}
}  // namespace
void start_section(std::uint32_t id) {
  each_section<void>(id, &Tool::start_section, &profiling::Callbacks::start_profile_section);
}
void stop_section(std::uint32_t id) {
  each_section<void>(id, &Tool::stop_section, &profiling::Callbacks::stop_profile_section);
}
void destroy_section(std::uint32_t id) {
  each_section<void>(id, &Tool::destroy_section, &profiling::Callbacks::destroy_profile_section);
}
void declare_metadata(const std::string& key, const std::string& value) {
  for (auto& t : g_tools)
    if (t.metadata) t.metadata(key.c_str(), value.c_str());
  if (g_cb.declare_metadata) g_cb.declare_metadata(key.c_str(), value.c_str());
}
void mark_event(const std::string& name) {
  for (auto& t : g_tools)
    if (t.event) t.event(name.c_str());
  if (g_cb.profile_event) g_cb.profile_event(name.c_str());
}
Callbacks callbacks() noexcept { return g_cb; }
void set_callbacks(const Callbacks& c) noexcept {
  g_cb = c;
  const Callbacks none{};
  g_has_cb = std::memcmp(&c, &none, sizeof c) != 0;
  g_active = g_timer || !g_tools.empty() || g_has_cb;
}
}  // namespace weft::profiling

namespace weft {
bool finalize_lost_output() noexcept { return impl::tools::g_output_lost; }
}  // namespace weft
