// GpuEmu's memory model: sectors per global request and wavefronts per shared request, by kernel label and by
// View (see <weft/emu/memory_model.hpp>); the table at finalize and the JSON profile's "gpuemu_memory" entry.
#include "memory_model.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include <weft/error.hpp>
#include <weft/impl/settings.hpp>
#include <weft/impl/tools.hpp>

namespace weft::impl::emu {
namespace {

std::atomic<bool>& model_flag() {
  static std::atomic<bool> on = [] {
    return env_choice("WEFT_EMU_PROFILE", 0) == 1;  // off, memory, 0
  }();
  return on;
}

struct Totals {
  std::uint64_t launches = 0;
  gpuemu::GlobalFigures global;
  gpuemu::SharedFigures shared;
  std::map<std::string, gpuemu::GlobalFigures> views;
};
std::mutex g_mutex;
std::map<std::string, Totals>& totals() {
  static std::map<std::string, Totals> t;
  return t;
}

thread_local std::vector<std::uint64_t> t_units;
thread_local std::vector<std::pair<std::uintptr_t, std::uintptr_t>> t_spans;

}  // namespace

bool memory_model_on() { return model_flag().load(std::memory_order_relaxed); }

namespace model {

Views::Views(const std::vector<ModelView>* views) {
  if (!views) return;
  for (const ModelView& v : *views) {
    if (v.bytes == 0) continue;
    const auto b = reinterpret_cast<std::uintptr_t>(v.begin);
    ranges_.push_back({b, b + v.bytes, labels_.size()});
    labels_.push_back(v.label.empty() ? std::string("(unlabelled)") : v.label);
  }
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
}

std::size_t Views::find(std::uintptr_t a) const {
  // The last range starting at or before a; overlapping Views (subviews) resolve to the later-starting one.
  auto it =
      std::upper_bound(ranges_.begin(), ranges_.end(), a, [](std::uintptr_t x, const Range& r) { return x < r.begin; });
  while (it != ranges_.begin()) {
    --it;
    if (a < it->end) return it->index;
  }
  return labels_.size();
}

void account_global(Counts& c, const Views& v, const Acc* lanes, int n) {
  std::vector<std::uint64_t>& sectors = t_units;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& spans = t_spans;
  sectors.clear();
  spans.clear();
  std::uintptr_t lowest = lanes[0].addr;
  for (int l = 0; l < n; ++l) {
    const std::uintptr_t b = lanes[l].addr, e = b + (lanes[l].bytes ? lanes[l].bytes : 1);
    for (std::uintptr_t s = b / 32; s <= (e - 1) / 32; ++s) sectors.push_back(s);
    spans.emplace_back(b, e);
    lowest = std::min(lowest, b);
  }
  std::sort(sectors.begin(), sectors.end());
  const std::uint64_t touched = std::unique(sectors.begin(), sectors.end()) - sectors.begin();
  std::sort(spans.begin(), spans.end());
  std::uint64_t bytes = 0;
  std::uintptr_t cur_b = spans[0].first, cur_e = spans[0].second;
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first <= cur_e) {
      cur_e = std::max(cur_e, spans[i].second);
    } else {
      bytes += cur_e - cur_b;
      cur_b = spans[i].first;
      cur_e = spans[i].second;
    }
  }
  bytes += cur_e - cur_b;
  gpuemu::GlobalFigures r;
  r.requests = 1;
  r.sectors = touched;
  r.ideal_sectors = (bytes + 31) / 32;
  r.accesses = static_cast<std::uint64_t>(n);
  c.global += r;
  c.views[v.find(lowest)] += r;
}

void account_shared(Counts& c, const Acc* lanes, int n) {
  std::vector<std::uint64_t>& words = t_units;
  words.clear();
  for (int l = 0; l < n; ++l) {
    const std::uintptr_t b = lanes[l].addr, e = b + (lanes[l].bytes ? lanes[l].bytes : 1);
    for (std::uintptr_t w = b / 4; w <= (e - 1) / 4; ++w) words.push_back(w);
  }
  std::sort(words.begin(), words.end());
  const std::size_t distinct = std::unique(words.begin(), words.end()) - words.begin();
  unsigned per_bank[32] = {};
  unsigned most = 0;
  for (std::size_t i = 0; i < distinct; ++i) most = std::max(most, ++per_bank[words[i] % 32]);
  c.shared.requests += 1;
  c.shared.wavefronts += most;
  c.shared.ideal_wavefronts += (distinct + 31) / 32;
  c.shared.accesses += static_cast<std::uint64_t>(n);
}

void add_launch(const char* label, const Counts& c, const Views& v) {
  std::lock_guard<std::mutex> g(g_mutex);
  Totals& t = totals()[label];
  ++t.launches;
  t.global += c.global;
  t.shared += c.shared;
  for (std::size_t i = 0; i < c.views.size(); ++i)
    if (c.views[i].requests) t.views[i < v.size() ? v.label(i) : std::string("(other)")] += c.views[i];
}

}  // namespace model

namespace {

gpuemu::KernelFigures figures_of(const std::string& label, const Totals& t) {
  gpuemu::KernelFigures k;
  k.label = label;
  k.launches = t.launches;
  k.global = t.global;
  k.shared = t.shared;
  for (const auto& [name, f] : t.views) k.views.emplace_back(name, f);
  std::sort(k.views.begin(), k.views.end(),
            [](const auto& a, const auto& b) { return a.second.requests > b.second.requests; });
  return k;
}

std::string json_escape(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) continue;
    r += ch;
  }
  return r;
}

std::string json_report() {
  std::ostringstream o;
  o << "[";
  bool first = true;
  for (const gpuemu::KernelFigures& k : gpuemu::memory_figures()) {
    o << (first ? "" : ", ") << "{\"label\": \"" << json_escape(k.label) << "\", \"launches\": " << k.launches
      << ", \"global\": {\"requests\": " << k.global.requests << ", \"sectors\": " << k.global.sectors
      << ", \"ideal_sectors\": " << k.global.ideal_sectors
      << ", \"sectors_per_request\": " << k.global.sectors_per_request()
      << "}, \"shared\": {\"requests\": " << k.shared.requests << ", \"wavefronts\": " << k.shared.wavefronts
      << ", \"ideal_wavefronts\": " << k.shared.ideal_wavefronts
      << ", \"bank_conflicts\": " << k.shared.bank_conflicts() << "}, \"views\": [";
    for (std::size_t i = 0; i < k.views.size(); ++i)
      o << (i ? ", " : "") << "{\"view\": \"" << json_escape(k.views[i].first)
        << "\", \"requests\": " << k.views[i].second.requests << ", \"sectors\": " << k.views[i].second.sectors
        << ", \"ideal_sectors\": " << k.views[i].second.ideal_sectors << "}";
    o << "]}";
    first = false;
  }
  o << "]";
  return o.str();
}

bool report_wanted() { return memory_model_on() || !totals().empty(); }

}  // namespace

/// Registered with the profiling layer by the backend (gpuemu.cpp).
void register_memory_model_report() {
  tools::add_report(
      {"gpuemu_memory", &gpuemu::memory_model_table, &json_report, &report_wanted, &gpuemu::reset_memory_model});
}

}  // namespace weft::impl::emu

namespace weft::gpuemu {

void set_memory_model(bool on) { impl::emu::model_flag().store(on, std::memory_order_relaxed); }
bool memory_model() { return impl::emu::memory_model_on(); }
void reset_memory_model() {
  std::lock_guard<std::mutex> g(impl::emu::g_mutex);
  impl::emu::totals().clear();
}

std::vector<KernelFigures> memory_figures() {
  std::lock_guard<std::mutex> g(impl::emu::g_mutex);
  std::vector<KernelFigures> r;
  for (const auto& [label, t] : impl::emu::totals()) r.push_back(impl::emu::figures_of(label, t));
  return r;
}

KernelFigures memory_figures(std::string_view label) {
  std::lock_guard<std::mutex> g(impl::emu::g_mutex);
  const auto& t = impl::emu::totals();
  const auto it = t.find(std::string(label));
  if (it != t.end()) return impl::emu::figures_of(it->first, it->second);
  std::string seen;
  for (const auto& [l, x] : t) seen += (seen.empty() ? "\"" : ", \"") + l + "\"";
  throw Error("weft::gpuemu::memory_figures: no kernel labelled \"" + std::string(label) + "\" ran with the memory " +
              "model on (" + (impl::emu::memory_model_on() ? "it is on" : "it is off: WEFT_EMU_PROFILE=memory") +
              "; fence before reading the figures); kernels seen: " + (seen.empty() ? "none" : seen));
}

std::string memory_model_table() {
  const std::vector<KernelFigures> all = memory_figures();
  std::string out =
      "GpuEmu memory model (WEFT_EMU_PROFILE=memory): global sectors per request (ideal), shared "
      "wavefronts per request and bank conflicts\n";
  char line[400];
  std::snprintf(line, sizeof line, "  %-40s %8s %12s %8s %8s %12s %8s %12s\n", "kernel", "launches", "gl. requests",
                "sect/req", "ideal", "sh. requests", "wave/req", "conflicts");
  out += line;
  for (const KernelFigures& k : all) {
    const std::string label = k.label.empty() ? std::string("(no label)") : k.label;
    const std::string name = label.size() > 40 ? label.substr(0, 37) + "..." : label;
    std::snprintf(line, sizeof line, "  %-40s %8llu %12llu %8.2f %8.2f %12llu %8.2f %12llu\n", name.c_str(),
                  (unsigned long long)k.launches, (unsigned long long)k.global.requests, k.global.sectors_per_request(),
                  k.global.ideal_sectors_per_request(), (unsigned long long)k.shared.requests,
                  k.shared.wavefronts_per_request(), (unsigned long long)k.shared.bank_conflicts());
    out += line;
    if (k.views.size() > 1)
      for (const auto& [view, f] : k.views) {
        const std::string v = "  View \"" + (view.size() > 28 ? view.substr(0, 25) + "..." : view) + "\"";
        std::snprintf(line, sizeof line, "  %-40s %8s %12llu %8.2f %8.2f\n", v.c_str(), "",
                      (unsigned long long)f.requests, f.sectors_per_request(), f.ideal_sectors_per_request());
        out += line;
      }
  }
  if (all.empty()) out += "  (no kernel ran with the model on)\n";
  return out;
}

}  // namespace weft::gpuemu
