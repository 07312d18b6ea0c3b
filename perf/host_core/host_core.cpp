// perf/host_core: Weft on the default host backend against hand-written OpenMP, case by case, in one
// process: launch latency, triad, dot, sum and exclusive scan. Pairs are named <case>/weft and
// <case>/baseline; perf/compare.py prints the ratios and checks them against goals.json. The ScatterView cases are
// in scatter.cpp, the UnorderedMap cases in unordered_map.cpp, the simd cases in simd.cpp.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <weft/weft.hpp>

namespace {

using Exec = weft::DefaultHostExecutionSpace;
bool g_smoke = false;
// Volatile sinks: benchmark 1.7's DoNotOptimize(double&) corrupts the value under g++ 12 here.
volatile double g_sink;
volatile std::int64_t g_isink;

std::size_t size_of(std::size_t full) { return g_smoke ? 4096 : full; }

// ---- launch latency ----------------------------------------------------------------------------------------
void launch_weft(benchmark::State& st) {
  const std::int64_t n = st.range(0);
  weft::View<double*, Exec> x("x", n);
  for (auto _ : st) {
    weft::parallel_for(
        "launch", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i) { x(i) += 1.0; });
  }
  benchmark::DoNotOptimize(x.data());
}
void launch_baseline(benchmark::State& st) {
  const std::int64_t n = st.range(0);
  std::vector<double> xv(n);
  double* x = xv.data();
  for (auto _ : st) {
#pragma omp parallel for
    for (std::int64_t i = 0; i < n; ++i) x[i] += 1.0;
  }
  benchmark::DoNotOptimize(x);
}

// ---- triad a = b + s*c ----------------------------------------------------------------------------------
void triad_weft(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 25);
  weft::View<double*, Exec> a("a", n), b("b", n), c("c", n);
  weft::deep_copy(b, 1.0);
  weft::deep_copy(c, 2.0);
  const double s = 0.4;
  for (auto _ : st)
    weft::parallel_for(
        "triad", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i) { a(i) = b(i) + s * c(i); });
  st.SetBytesProcessed(st.iterations() * 3 * n * sizeof(double));
}
void triad_baseline(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 25);
  double* a = new double[n];
  double* b = new double[n];
  double* c = new double[n];
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) a[i] = 0, b[i] = 1.0, c[i] = 2.0;  // first touch, as Weft does
  const double s = 0.4;
  for (auto _ : st) {
#pragma omp parallel for
    for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
  }
  st.SetBytesProcessed(st.iterations() * 3 * n * sizeof(double));
  delete[] a;
  delete[] b;
  delete[] c;
}

// ---- dot --------------------------------------------------------------------------------------------------
void dot_weft(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 25);
  weft::View<double*, Exec> a("a", n), b("b", n);
  weft::deep_copy(a, 1.5);
  weft::deep_copy(b, 2.0);
  double r = 0;
  for (auto _ : st) {
    weft::parallel_reduce(
        "dot", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i, double& acc) { acc += a(i) * b(i); }, r);
    g_sink = r;
  }
  if (r != 3.0 * n) st.SkipWithError("wrong dot");
  st.SetBytesProcessed(st.iterations() * 2 * n * sizeof(double));
}
void dot_baseline(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 25);
  double* a = new double[n];
  double* b = new double[n];
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) a[i] = 1.5, b[i] = 2.0;
  double r = 0;
  for (auto _ : st) {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (std::int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    r = s;
    g_sink = r;
  }
  if (r != 3.0 * n) st.SkipWithError("wrong dot");
  st.SetBytesProcessed(st.iterations() * 2 * n * sizeof(double));
  delete[] a;
  delete[] b;
}

// ---- sum reduction ------------------------------------------------------------------------------------------
void sum_weft(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 26);
  weft::View<double*, Exec> a("a", n);
  weft::deep_copy(a, 0.5);
  double r = 0;
  for (auto _ : st) {
    weft::parallel_reduce(
        "sum", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i, double& acc) { acc += a(i); }, r);
    g_sink = r;
  }
  if (r != 0.5 * n) st.SkipWithError("wrong sum");
  st.SetBytesProcessed(st.iterations() * n * sizeof(double));
}
void sum_baseline(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 26);
  double* a = new double[n];
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) a[i] = 0.5;
  double r = 0;
  for (auto _ : st) {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (std::int64_t i = 0; i < n; ++i) s += a[i];
    r = s;
    g_sink = r;
  }
  if (r != 0.5 * n) st.SkipWithError("wrong sum");
  st.SetBytesProcessed(st.iterations() * n * sizeof(double));
  delete[] a;
}

// ---- exclusive scan ---------------------------------------------------------------------------------------
void scan_weft(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 26);
  weft::View<std::int64_t*, Exec> in("in", n), out("out", n);
  weft::deep_copy(in, 3);
  std::int64_t total = 0;
  for (auto _ : st) {
    weft::parallel_scan(
        "scan", weft::RangePolicy<Exec>(0, n),
        WEFT_LAMBDA(std::int64_t i, std::int64_t & u, bool final) {
          if (final) out(i) = u;
          u += in(i);
        },
        total);
    g_isink = total;
  }
  if (total != 3 * n || out(n - 1) != 3 * (n - 1)) st.SkipWithError("wrong scan");
  st.SetBytesProcessed(st.iterations() * 2 * n * sizeof(std::int64_t));
}
void scan_baseline(benchmark::State& st) {
  const std::int64_t n = size_of(std::size_t(1) << 26);
  std::int64_t* in = new std::int64_t[n];
  std::int64_t* out = new std::int64_t[n];
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) in[i] = 3, out[i] = 0;
  std::vector<std::int64_t> partial(omp_get_max_threads() + 1);
  std::int64_t total = 0;
  for (auto _ : st) {
#pragma omp parallel
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
      const std::int64_t b = n * t / nt, e = n * (t + 1) / nt;
      std::int64_t s = 0;
      for (std::int64_t i = b; i < e; ++i) s += in[i];
      partial[t] = s;
#pragma omp barrier
      std::int64_t off = 0;
      for (int k = 0; k < t; ++k) off += partial[k];
      for (std::int64_t i = b; i < e; ++i) {
        out[i] = off;
        off += in[i];
      }
      if (t == nt - 1) total = off;
    }
    g_isink = total;
  }
  if (total != 3 * n || out[n - 1] != 3 * (n - 1)) st.SkipWithError("wrong scan");
  st.SetBytesProcessed(st.iterations() * 2 * n * sizeof(std::int64_t));
  delete[] in;
  delete[] out;
}

}  // namespace

void register_scatter_benchmarks(bool smoke);        // scatter.cpp
void register_unordered_map_benchmarks(bool smoke);  // unordered_map.cpp
void register_simd_benchmarks(bool smoke);           // simd.cpp

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--smoke") == 0) {
      g_smoke = true;
      for (int k = i; k + 1 < argc; ++k) argv[k] = argv[k + 1];
      --argc;
      break;
    }
  benchmark::RegisterBenchmark("launch_1/weft", launch_weft)->Arg(1)->UseRealTime();
  benchmark::RegisterBenchmark("launch_1/baseline", launch_baseline)->Arg(1)->UseRealTime();
  benchmark::RegisterBenchmark("launch_1000/weft", launch_weft)->Arg(1000)->UseRealTime();
  benchmark::RegisterBenchmark("launch_1000/baseline", launch_baseline)->Arg(1000)->UseRealTime();
  benchmark::RegisterBenchmark("triad/weft", triad_weft)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("triad/baseline", triad_baseline)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("dot/weft", dot_weft)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("dot/baseline", dot_baseline)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sum/weft", sum_weft)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sum/baseline", sum_baseline)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("scan/weft", scan_weft)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("scan/baseline", scan_baseline)->UseRealTime()->Unit(benchmark::kMillisecond);
  register_scatter_benchmarks(g_smoke);
  register_unordered_map_benchmarks(g_smoke);
  register_simd_benchmarks(g_smoke);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
