// perf/perf_json.hpp: the per-run JSON of the benchmarks that time Weft and a baseline by hand (perf/linalg,
// perf/algorithms): every case's times, Weft's and the baseline's, in seconds, which perf/report.py turns into
// this run's ratio (median baseline time / median Weft time) and scripts/perf.sh's medians across runs.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace weft_perf {

class RunJson {
 public:
  /// One case: `name` (a goal's key), what the baseline is, and the times of each side (seconds).
  void add(const std::string& name, const std::string& baseline, const std::vector<double>& weft,
           const std::vector<double>& base) {
    cases_.push_back({name, baseline, weft, base});
  }
  /// Writes {"suite": ..., "threads": ..., "cases": [...]} to path; throws when the file cannot be written.
  void write(const std::string& path, const std::string& suite, int threads) const {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("perf: cannot write " + path);
    std::fprintf(f, "{\"suite\": \"%s\", \"threads\": %d, \"cases\": [", suite.c_str(), threads);
    for (std::size_t c = 0; c < cases_.size(); ++c) {
      const Case& k = cases_[c];
      std::fprintf(f, "%s\n  {\"name\": \"%s\", \"baseline\": \"%s\", \"weft_s\": ", c ? "," : "", k.name.c_str(),
                   k.baseline.c_str());
      list(f, k.weft);
      std::fprintf(f, ", \"baseline_s\": ");
      list(f, k.base);
      std::fprintf(f, "}");
    }
    std::fprintf(f, "\n]}\n");
    if (std::fclose(f) != 0) throw std::runtime_error("perf: cannot write " + path);
  }

 private:
  struct Case {
    std::string name, baseline;
    std::vector<double> weft, base;
  };
  static void list(FILE* f, const std::vector<double>& v) {
    std::fprintf(f, "[");
    for (std::size_t i = 0; i < v.size(); ++i) std::fprintf(f, "%s%.9g", i ? ", " : "", v[i]);
    std::fprintf(f, "]");
  }
  std::vector<Case> cases_;
};

}  // namespace weft_perf
