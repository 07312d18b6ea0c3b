// weft-stream: BabelStream's kernels (copy, mul, add, triad, dot, nstream) on Weft, with BabelStream's
// initial values, its validation rule and its table, so its figures compare with published BabelStream ones.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <type_traits>

#include <weft/weft.hpp>

#include "app_common.hpp"

namespace {

constexpr double start_a = 0.1, start_b = 0.2, start_c = 0.0, start_scalar = 0.4;

struct Options {
  std::size_t n = std::size_t(1) << 25;
  int num_times = 100;
  bool use_float = false;
  bool csv = false;
  bool progress = false;
  std::string json;
};

template <class T>
class WeftStream {
 public:
  explicit WeftStream(std::size_t n)
      : n_(n),
        a_(weft::view_alloc(weft::WithoutInitializing, "a"), n),
        b_(weft::view_alloc(weft::WithoutInitializing, "b"), n),
        c_(weft::view_alloc(weft::WithoutInitializing, "c"), n) {}
  void init() {
    auto a = a_, b = b_, c = c_;
    weft::parallel_for(
        "init", policy(), WEFT_LAMBDA(std::int64_t i) {
          a(i) = T(start_a);
          b(i) = T(start_b);
          c(i) = T(start_c);
        });
  }
  void copy() {
    auto a = a_, c = c_;
    weft::parallel_for(
        "copy", policy(), WEFT_LAMBDA(std::int64_t i) { c(i) = a(i); });
  }
  void mul() {
    auto b = b_, c = c_;
    const T s = T(start_scalar);
    weft::parallel_for(
        "mul", policy(), WEFT_LAMBDA(std::int64_t i) { b(i) = s * c(i); });
  }
  void add() {
    auto a = a_, b = b_, c = c_;
    weft::parallel_for(
        "add", policy(), WEFT_LAMBDA(std::int64_t i) { c(i) = a(i) + b(i); });
  }
  void triad() {
    auto a = a_, b = b_, c = c_;
    const T s = T(start_scalar);
    weft::parallel_for(
        "triad", policy(), WEFT_LAMBDA(std::int64_t i) { a(i) = b(i) + s * c(i); });
  }
  void nstream() {
    auto a = a_, b = b_, c = c_;
    const T s = T(start_scalar);
    weft::parallel_for(
        "nstream", policy(), WEFT_LAMBDA(std::int64_t i) { a(i) += b(i) + s * c(i); });
  }
  /// With --float the accumulator is double: a float one loses ~5% over 2^25 terms and fails validation.
  T dot() {
    auto a = a_, b = b_;
    double sum = 0;
    weft::parallel_reduce(
        "dot", policy(), WEFT_LAMBDA(std::int64_t i, double& acc) { acc += a(i) * b(i); }, sum);
    return static_cast<T>(sum);
  }
  void fence() { weft_app::ExecSpace().fence(); }
  /// The arrays' memory, for the raw OpenMP baseline (host backends only).
  T* a_data() const { return a_.data(); }
  const T* b_data() const { return b_.data(); }
  const T* c_data() const { return c_.data(); }
  void read(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) {
    auto copy_out = [](auto v, std::vector<T>& out) {
      auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), v);
      out.assign(h.data(), h.data() + h.size());
    };
    copy_out(a_, a);
    copy_out(b_, b);
    copy_out(c_, c);
  }

 private:
  weft::RangePolicy<weft_app::ExecSpace> policy() const {
    return weft::RangePolicy<weft_app::ExecSpace>(0, static_cast<std::int64_t>(n_));
  }
  std::size_t n_;
  weft::View<T*, weft_app::ExecSpace::memory_space> a_, b_, c_;
};

/// BabelStream's rule: replay the kernels on scalars, then compare the average absolute error with
/// 100 epsilon relative to the expected value.
template <class T>
bool check(int num_times, std::size_t n, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
           T sum) {
  T ga = T(start_a), gb = T(start_b), gc = T(start_c);
  const T s = T(start_scalar);
  for (int k = 0; k < num_times; ++k) {
    gc = ga;
    gb = s * gc;
    gc = ga + gb;
    ga = gb + s * gc;
  }
  const T gsum = ga * gb * T(n);  // dot ran after the last triad
  ga = ga + gb + s * gc;          // the final nstream run
  auto err = [n](const std::vector<T>& v, T gold) {
    double e = 0;
    for (const T x : v) e += std::fabs(x - gold);
    return static_cast<double>(e / n);
  };
  const double eps = std::numeric_limits<T>::epsilon();
  bool ok = true;
  const struct {
    const char* name;
    double e;
    T gold;
  } rows[] = {{"a", err(a, ga), ga}, {"b", err(b, gb), gb}, {"c", err(c, gc), gc}};
  for (const auto& r : rows) {
    if (r.e / std::fabs(double(r.gold)) > eps * 100.0) {
      std::fprintf(stderr, "Validation failed on %s[]. Average error %.3e\n", r.name, r.e);
      ok = false;
    }
  }
  const double sum_err = std::fabs((double(sum) - double(gsum)) / double(gsum));
  // BabelStream's 1e-8 for double; for float the expected value itself is only good to ~1e-6.
  if (sum_err > (sizeof(T) == 4 ? 1.0e-5 : 1.0e-8)) {
    std::fprintf(stderr, "Validation failed on sum. Error %.3e (sum %.12e, expected %.12e)\n", sum_err, double(sum),
                 double(gsum));
    ok = false;
  }
  return ok;
}

template <class T>
int run(const Options& o) {
  const double mb = 1.0e-6;
  const std::size_t n = o.n;
  if (!o.csv) {
    std::printf("weft-stream (BabelStream kernels on Weft)\nImplementation: Weft %s\nRunning kernels %d times\n",
                weft_app::ExecSpace::name(), o.num_times);
    std::printf("Precision: %s\n", sizeof(T) == 4 ? "float" : "double");
    std::printf("Array size: %.1f MB (=%.1f GB)\nTotal size: %.1f MB (=%.1f GB)\n", n * sizeof(T) * mb,
                n * sizeof(T) * 1e-9, 3 * n * sizeof(T) * mb, 3 * n * sizeof(T) * 1e-9);
    std::fflush(stdout);
  }
  weft_app::Progress progress("weft-stream", o.progress);
  WeftStream<T> s(n);
  s.init();
  s.fence();
  constexpr int nk = 6;
  const char* names[nk] = {"Copy", "Mul", "Add", "Triad", "Dot", "Nstream"};
  const double bytes[nk] = {2.0 * sizeof(T) * n, 2.0 * sizeof(T) * n, 3.0 * sizeof(T) * n,
                            3.0 * sizeof(T) * n, 2.0 * sizeof(T) * n, 4.0 * sizeof(T) * n};
  std::vector<std::vector<double>> times(nk);
  T sum = 0;
  using clock = std::chrono::high_resolution_clock;
  auto timed = [&](int k, auto&& fn) {
    const auto t0 = clock::now();
    fn();
    s.fence();
    times[k].push_back(std::chrono::duration<double>(clock::now() - t0).count());
  };
  for (int k = 0; k < o.num_times; ++k) {
    timed(0, [&] { s.copy(); });
    timed(1, [&] { s.mul(); });
    timed(2, [&] { s.add(); });
    timed(3, [&] { s.triad(); });
    timed(4, [&] { sum = s.dot(); });
    progress("iteration " + std::to_string(k + 1) + "/" + std::to_string(o.num_times));
  }
  timed(5, [&] { s.nstream(); });
  std::vector<T> a, b, c;
  s.read(a, b, c);
  const bool ok = check<T>(o.num_times, n, a, b, c, sum);
  if (o.csv)
    std::printf("function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime\n");
  else
    std::printf("%-12s%-12s%-12s%-12s%-12s\n", "Function", "MBytes/sec", "Min (sec)", "Max", "Average");
  for (int k = 0; k < nk; ++k) {
    auto& t = times[k];
    // BabelStream drops the first (warm-up) iteration when there is more than one.
    const auto first = t.size() > 1 ? t.begin() + 1 : t.begin();
    const double mn = *std::min_element(first, t.end()), mx = *std::max_element(first, t.end());
    const double avg = std::accumulate(first, t.end(), 0.0) / static_cast<double>(t.end() - first);
    if (o.csv)
      std::printf("%s,%zu,%zu,%zu,%.3f,%.5f,%.5f,%.5f\n", names[k], t.size(), n, sizeof(T), mb * bytes[k] / mn, mn, mx,
                  avg);
    else
      std::printf("%-12s%-12.3f%-12.5f%-12.5f%-12.5f\n", names[k], mb * bytes[k] / mn, mn, mx, avg);
  }
  std::printf(ok ? "Validation: PASSED\n" : "Validation: FAILED\n");
  // The in-process baseline: a hand-written OpenMP triad on the same arrays, interleaved with Weft's triad
  // (after validation: a triad does not read a, so the order does not matter). Medians of the repetitions.
  double ratio = 0, weft_median = 0, raw_median = 0;
#if WEFT_HAS_OPENMP
  if constexpr (std::is_same_v<weft_app::ExecSpace, weft::OpenMP>) {
    const int reps = std::max(5, std::min(o.num_times, 30));
    std::vector<double> tw, tr;
    T* pa = s.a_data();
    const T* pb = s.b_data();
    const T* pc = s.c_data();
    const T sc = T(start_scalar);
    const long nn = static_cast<long>(n);
    for (int k = 0; k < reps; ++k) {
      auto t0 = clock::now();
      s.triad();
      s.fence();
      tw.push_back(std::chrono::duration<double>(clock::now() - t0).count());
      t0 = clock::now();
#pragma omp parallel for schedule(static)
      for (long i = 0; i < nn; ++i) pa[i] = pb[i] + sc * pc[i];
      tr.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    }
    std::sort(tw.begin(), tw.end());
    std::sort(tr.begin(), tr.end());
    ratio = tr[tr.size() / 2] / tw[tw.size() / 2];
    weft_median = 1e-9 * bytes[3] / tw[tw.size() / 2];
    raw_median = 1e-9 * bytes[3] / tr[tr.size() / 2];
    if (!o.csv)
      std::printf(
          "Triad vs hand-written OpenMP on the same arrays (medians of %d): Weft %.3f MB/s, raw %.3f MB/s, "
          "ratio %.3f\n",
          reps, mb * bytes[3] / tw[tw.size() / 2], mb * bytes[3] / tr[tr.size() / 2], ratio);
  }
#endif
  weft_app::Result r;
  if (ratio > 0) {  // the same-round medians of both sides, and their ratio (weft-bench draws them side by side)
    r.metrics.push_back({"triad_over_raw_openmp", ratio});
    r.metrics.push_back({"weft_triad_median_GBps", weft_median});
    r.metrics.push_back({"raw_openmp_triad_median_GBps", raw_median});
  }
  r.app = "weft-stream";
  r.fom_name = "triad bandwidth";
  r.fom_unit = "GB/s";
  r.valid = ok;
  r.validation = "BabelStream's rule: mean error of a, b, c <= 100 eps, dot relative error <= " +
                 std::string(sizeof(T) == 4 ? "1e-5" : "1e-8");
  for (int k = 0; k < nk; ++k) {
    auto& t = times[k];
    const auto first = t.size() > 1 ? t.begin() + 1 : t.begin();
    const double best = 1e-9 * bytes[k] / *std::min_element(first, t.end());
    std::string key = names[k];
    for (auto& ch : key) ch = static_cast<char>(std::tolower(ch));
    r.metrics.push_back({key + "_GBps", best});
    if (k == 3) r.fom = best;
  }
  r.metrics.push_back({"array_elements", double(n)});
  r.write(o.json);
  return ok ? 0 : 1;
}

}  // namespace

const std::string kUsage = weft_app::usage_text(
    "weft-stream",
    "BabelStream's kernels (copy, mul, add, triad, dot, nstream) on Weft, validated by BabelStream's rule; on OpenMP\n"
    "also a hand-written OpenMP triad on the same arrays, in alternating rounds (the ratio is in the JSON).",
    {{"-s, --arraysize N", "elements per array", "2^25 = 33554432"},
     {"-n, --numtimes K", "timed repetitions of each kernel", "100"},
     {"--float", "single precision instead of double", "off: double"},
     {"--csv", "BabelStream's CSV table instead of the text one", "off"}});

int main(int argc, char* argv[]) {
  return weft_app::main(argc, argv, "weft-stream", kUsage, [](weft_app::Args& args) {
    Options o;
    args.alias("--s", "--arraysize");
    args.alias("--n", "--numtimes");
    o.n = static_cast<std::size_t>(args.integer("--arraysize", static_cast<long long>(o.n), 1LL << 50));
    o.num_times = static_cast<int>(args.integer("--numtimes", o.num_times, 1 << 30));
    o.use_float = args.flag("--float");
    o.csv = args.flag("--csv");
    o.progress = args.flag("--progress");
    o.json = args.text("--json", "");
    args.finish();
    weft_app::check_memory("weft-stream", 3.0 * static_cast<double>(o.n) * (o.use_float ? 4 : 8));
    return o.use_float ? run<float>(o) : run<double>(o);
  });
}
