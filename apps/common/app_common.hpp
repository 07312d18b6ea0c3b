// What every mini-app shares: the driver of its main() (weft_app::main), argument parsing with clear errors
// (exit status 2), timing, progress lines on stderr, and the one-record JSON result that weft-bench collects
// (schema in apps/README.md).
#pragma once

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <weft/host.hpp>
#include <weft/weft.hpp>

/// The execution space an app runs on: the build's default, or another one for the per-backend test builds
/// (apps/CMakeLists.txt compiles each app a second time with -DWEFT_APP_EXEC_SPACE=weft::Serial).
#ifndef WEFT_APP_EXEC_SPACE
#define WEFT_APP_EXEC_SPACE weft::DefaultExecutionSpace
#endif

namespace weft_app {
using ExecSpace = WEFT_APP_EXEC_SPACE;

/// The threads the app's host work runs on (the execution space's own for host spaces).
inline int threads() {
  return ExecSpace::impl_is_host_space ? ExecSpace().concurrency() : weft::DefaultHostExecutionSpace().concurrency();
}

/// A usage error: weft_app::main prints "<app>: <message> (try --help)" and exits with status 2 (as opposed to
/// 1: wrong answer), after Weft (and MPI) have finalized.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
  UsageError(const std::string& message, bool every_rank) : std::runtime_error(message), every_rank(every_rank) {}
  bool every_rank = false;  // raised on every rank of the job at once (the MPI apps' parameter agreement)
};

/// Set by app_mpi.hpp in the MPI apps: weft_app::main calls it with each error it reports, before returning 2.
/// It ends the whole job (MPI_Abort) unless every rank raised the error, since the other ranks may be waiting
/// for this one and MPI_Finalize would wait for them.
inline void (*g_end_job_on_error)(const std::exception& error, bool every_rank) = nullptr;
/// Set by app_mpi.hpp in the MPI apps: every rank calls it once at start-up with whether it was asked for --help or
/// --weft-help; it returns when all ranks agree and raises a UsageError on every rank when only some were asked
/// (a rank that stopped alone would leave the others waiting for it in MPI's start-up forever).
inline void (*g_agree_on_help)(const std::string& app, bool help) = nullptr;
[[noreturn]] inline void usage_error(const std::string& app, const std::string& message) {
  throw UsageError(app + ": " + message + " (try --help)");
}
/// An output the app cannot write (a full disk, /dev/full, no permission): one line, exit status 2, as a usage
/// error but without the pointer to --help.
[[noreturn]] inline void output_error(const std::string& app, const std::string& message) {
  throw UsageError(app + ": " + message);
}

/// One option of an app's --help: its spelling with its value ("--n N"), what it does, and its default ("off"
/// for a flag, "none" when there is none).
struct Option {
  const char* spelling;
  const char* what;
  const char* fallback;
};
/// Every app's --help in one layout: the synopsis, what the app does, each option with its default (the app's
/// own, then --progress, --json and --help, which every app takes), and the exit status. `mpi`: it runs under
/// mpiexec for several ranks.
inline std::string usage_text(const std::string& app, const std::string& what, std::vector<Option> options,
                              bool mpi = false) {
  options.push_back({"--progress", "progress lines on stderr (weft-bench shows them)", "off"});
  options.push_back({"--json PATH", "also write the one-record result there (schema: apps/README.md)", "none"});
  options.push_back({"--help", "this text; --weft-help lists Weft's runtime options (--weft-*)", "-"});
  std::size_t width = 0;
  for (const auto& o : options) width = std::max(width, std::string(o.spelling).size());
  std::string s = "usage: " + app + " [options] [--weft-* options]\n" + what + "\n" +
                  (mpi ? "Runs on any number of MPI ranks (mpiexec -n R " + app + " ...).\n" : std::string()) +
                  "options:\n";
  for (const auto& o : options) {
    std::string line = "  " + std::string(o.spelling);
    line.resize(width + 4, ' ');
    line += o.what;
    if (std::string(o.fallback) != "-") line += std::string(" (default ") + o.fallback + ")";
    s += line + "\n";
  }
  return s + "exit status: 0 valid answer, 1 wrong answer, 2 usage error or a problem that cannot run\n";
}

/// A small argv parser: --name value, --name=value and flags; unknown options and bad values are errors.
class Args {
 public:
  /// Another spelling of an option (-s for --arraysize: single-dash short forms arrive as "--s").
  void alias(const std::string& spelling, const std::string& name) {
    for (auto& it : items_)
      if (it.name == spelling) it.name = name;
  }
  Args(std::string app, int argc, char* argv[]) : app_(std::move(app)) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0 && a.rfind("-", 0) == 0 && a.size() == 2) a = "-" + a;  // -s -> --s
      if (a.rfind("--", 0) != 0) usage_error(app_, "unexpected argument \"" + a + "\"");
      const auto eq = a.find('=');
      for (const auto& it : items_)
        if (it.name == a.substr(0, eq)) usage_error(app_, it.name + " is given twice; give it once");
      if (eq != std::string::npos) {
        items_.push_back({a.substr(0, eq), a.substr(eq + 1), true});
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0 &&
                 !(argv[i + 1][0] == '-' && argv[i + 1][1] != '\0' && !std::isdigit(argv[i + 1][1]))) {
        items_.push_back({a, argv[++i], true});
      } else {
        items_.push_back({a, "", false});
      }
    }
  }
  bool flag(const std::string& name) {
    for (auto& it : items_)
      if (it.name == name) {
        it.used = true;
        if (it.has_value) usage_error(app_, name + " takes no value");
        return true;
      }
    return false;
  }
  std::string text(const std::string& name, const std::string& fallback) {
    for (auto& it : items_)
      if (it.name == name) {
        it.used = true;
        if (!it.has_value) usage_error(app_, name + " needs a value");
        if (it.value.empty()) usage_error(app_, name + "= has an empty value; give one (e.g. " + name + "=VALUE)");
        return it.value;
      }
    return fallback;
  }
  /// A positive integer no larger than `max`.
  long long integer(const std::string& name, long long fallback, long long max = (1LL << 40)) {
    const std::string t = text(name, "");
    if (t.empty()) return fallback;
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (*end != '\0' || v < 1) usage_error(app_, name + " needs a positive integer, got \"" + t + "\"");
    if (v > max) usage_error(app_, name + " = " + t + " is larger than the limit " + std::to_string(max));
    return v;
  }
  double real(const std::string& name, double fallback) {
    const std::string t = text(name, "");
    if (t.empty()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (*end != '\0' || !(v > 0) || !std::isfinite(v))
      usage_error(app_, name + " needs a positive number, got \"" + t + "\"");
    return v;
  }
  /// A comma-separated list of at least one non-empty item (an empty list or item is a usage error).
  std::vector<std::string> list(const std::string& name, std::vector<std::string> fallback) {
    for (const auto& it : items_)
      if (it.name == name && it.has_value && it.value.empty()) usage_error(app_, name + " needs at least one item");
    const std::string t = text(name, "");
    if (t.empty()) return fallback;
    std::vector<std::string> out;
    std::size_t b = 0;
    while (true) {
      const std::size_t e = t.find(',', b);
      out.push_back(t.substr(b, e == std::string::npos ? std::string::npos : e - b));
      if (out.back().empty()) usage_error(app_, name + " has an empty item in \"" + t + "\"");
      if (e == std::string::npos) break;
      b = e + 1;
    }
    return out;
  }
  /// Call after reading every option: anything left over is an error.
  void finish() const {
    for (const auto& it : items_)
      if (!it.used) usage_error(app_, "unknown option \"" + it.name + "\"");
  }

 private:
  struct Item {
    std::string name, value;
    bool has_value;
    bool used = false;
  };
  std::string app_;
  std::vector<Item> items_;
};

/// Stops with a usage error when `bytes` per rank would not fit this machine's memory (host backends; a
/// device allocation that fails raises weft::Error on its own).
inline void check_memory(const std::string& app, double bytes, int ranks_per_node = 1) {
  if constexpr (!ExecSpace::impl_is_host_space) return;
  // What the machine can give now (MemAvailable: free memory plus reclaimable caches), else its total.
  double avail = weft::host_memory_available();
  const bool have_avail = avail > 0;
  if (!have_avail) avail = weft::host_memory_total();
  if (avail > 0 && bytes * ranks_per_node > 0.9 * avail) {
    char b[240];
    std::snprintf(b, sizeof b,
                  "the problem needs %.1f GB per rank (x%d ranks on this node) but the machine has %.1f GB %s; give a "
                  "smaller size",
                  bytes / 1e9, ranks_per_node, avail / 1e9, have_avail ? "available" : "in all");
    usage_error(app, b);
  }
}

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// "[weft-heat] step 40/200  3.1 s" on stderr, at most every `every` seconds (the suite runner shows them).
class Progress {
 public:
  Progress(std::string app, bool on, double every = 2.0) : app_(std::move(app)), on_(on), every_(every) {}
  void operator()(const std::string& what, bool force = false) {
    if (!on_) return;
    const double t = now();
    if (!force && t - last_ < every_) return;
    last_ = t;
    std::fprintf(stderr, "[%s] %s  %.1f s\n", app_.c_str(), what.c_str(), t - start_);
    std::fflush(stderr);
  }

 private:
  std::string app_;
  bool on_;
  double every_, start_ = now(), last_ = 0;
};

/// One app run, as weft-bench's results.json holds it.
struct Result {
  std::string app, backend = ExecSpace::name(), compiler = __VERSION__;
  int ranks = 1;
  int threads = weft_app::threads();
  std::string fom_name, fom_unit;
  double fom = 0;
  bool valid = false;
  std::string validation;  // what was checked, with the numbers
  std::vector<std::pair<std::string, double>> metrics;
  std::vector<std::pair<std::string, std::string>> info;  // names that go with the metrics (e.g. the vendor BLAS)

  static std::string escape(const std::string& s) {
    std::string r;
    for (char c : s) {
      if (c == '"' || c == '\\') r += '\\';
      if (c == '\n') {
        r += "\\n";
        continue;
      }
      r += c;
    }
    return r;
  }
  static std::string number(double v) {
    if (!std::isfinite(v)) return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);  // round-trips: answers are compared across runs
    return b;
  }
  std::string json() const {
    std::string s = "{\"app\": \"" + escape(app) + "\", \"backend\": \"" + escape(backend) + "\", \"compiler\": \"" +
                    escape(compiler) + "\", \"ranks\": " + std::to_string(ranks) +
                    ", \"threads\": " + std::to_string(threads) + ", \"figure_of_merit\": {\"name\": \"" +
                    escape(fom_name) + "\", \"value\": " + number(fom) + ", \"unit\": \"" + escape(fom_unit) +
                    "\"}, \"valid\": " + (valid ? "true" : "false") + ", \"validation\": \"" + escape(validation) +
                    "\", \"metrics\": {";
    for (std::size_t i = 0; i < metrics.size(); ++i)
      s += (i ? ", \"" : "\"") + escape(metrics[i].first) + "\": " + number(metrics[i].second);
    s += "}";
    if (!info.empty()) {
      s += ", \"info\": {";
      for (std::size_t i = 0; i < info.size(); ++i)
        s += (i ? ", \"" : "\"") + escape(info[i].first) + "\": \"" + escape(info[i].second) + "\"";
      s += "}";
    }
    return s + "}";
  }
  /// Writes the record to `path` (nothing when path is empty); a write failure is an error.
  void write(const std::string& path) const {
    if (path.empty()) return;
    try {
      weft::write_file(path, json() + "\n");  // whole or not at all: never an empty file on a full disk
    } catch (const weft::Error& e) {
      output_error(app, std::string("the JSON result (--json): ") + e.what());
    }
  }
};
/// The main() of every mini-app: Weft starts from argv (a bad --weft-* option or WEFT_* variable is a usage
/// error, not an abort), --help prints `usage` and exits 0, then `run(args)` parses the app's own options and
/// runs; its return value is the exit status (0 valid, 1 wrong answer). A usage error or a weft::Error on the way
/// is one line on stderr and exit status 2, after Weft has finalized (in the MPI apps, an error that not every
/// rank raised ends the whole job instead: see app_mpi.hpp).
template <class Run>
int main_body(int& argc, char* argv[], const char* app, const std::string& usage, Run&& run);
/// The exit status of main_body, then the outputs checked: a report that did not reach stdout (a full disk,
/// /dev/full) or a WEFT_PROFILE=json file that finalize could not write is one line on stderr and exit status 2.
template <class Run>
int main(int& argc, char* argv[], const char* app, const std::string& usage, Run&& run) {
  int rc = main_body(argc, argv, app, usage, static_cast<Run&&>(run));
  if (std::string why; !weft::stdout_ok(&why)) {
    std::fprintf(stderr, "%s: writing the report to standard output failed: %s\n", app, why.c_str());
    rc = 2;
  }
  if (weft::finalize_lost_output()) rc = 2;  // finalize printed the line
  return rc;
}
template <class Run>
int main_body(int& argc, char* argv[], const char* app, const std::string& usage, Run&& run) {
  bool weft_help = false;  // initialize prints Weft's options; the app then stops, as after --help
  for (int i = 1; i < argc; ++i)
    weft_help = weft_help || std::string(argv[i]) == "--weft-help" || std::string(argv[i]) == "--kokkos-help";
  std::optional<weft::ScopeGuard> guard;
  try {
    guard.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", app, e.what());
    return 2;
  }
  try {
    if (weft_help) {
      if (g_agree_on_help) g_agree_on_help(app, true);
      return 0;
    }
    Args args(app, argc, argv);
    const bool help = args.flag("--help") || args.flag("--h");
    if (g_agree_on_help) g_agree_on_help(app, help);
    if (help) {
      std::fputs(usage.c_str(), stdout);
      return 0;
    }
    return run(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    if (g_end_job_on_error) g_end_job_on_error(e, e.every_rank);
    return 2;
  } catch (const weft::Error& e) {
    std::fprintf(stderr, "%s: %s\n", app, e.what());
    if (g_end_job_on_error) g_end_job_on_error(e, false);
    return 2;
  }
}

}  // namespace weft_app
