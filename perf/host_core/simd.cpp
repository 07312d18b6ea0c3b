// perf/host_core simd cases: weft::experimental::simd with the host's native ABI against plain scalar loops, on one
// thread (SIMD is about one core's lanes; the threaded triad and dot are host_core.cpp's). Arrays of 2^12 doubles
// (96 KiB for three: out of L1, in L2), so that the arithmetic, not memory, bounds the loops.
//  - simd_triad:  a(i) = b(i) + s c(i).  /baseline is the scalar loop as the compiler builds it (g++ -O3
//    vectorizes it itself); simd_triad_novec/baseline is the same loop with the vectorizer off (scalar code).
//  - simd_dot:    sum b(i) c(i).  The scalar loop stays scalar at -O3 (reassociating a floating-point sum needs
//    -ffast-math); the simd loop keeps simd<double>::size() partial sums (four vectors of them, as a hand-written
//    kernel would) and adds the lanes at the end.
// The lane count is the build's: SSE2's 2 doubles without -march, AVX2's 4 with -march=native on this machine.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <weft/containers.hpp>

namespace {

namespace sx = weft::experimental;
using V = sx::basic_simd<double, sx::simd_abi::for_space<weft::DefaultHostExecutionSpace, double>>;
volatile double g_simd_sink;

struct Arrays {
  std::int64_t n;
  std::vector<double> a, b, c;
};
Arrays& arrays() {
  static Arrays in = [] {
    Arrays x;
    x.n = 4096;
    x.a.assign(x.n, 0.0);
    x.b.resize(x.n);
    x.c.resize(x.n);
    std::mt19937_64 gen(2026);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (std::int64_t i = 0; i < x.n; ++i) x.b[i] = d(gen), x.c[i] = d(gen);
    return x;
  }();
  return in;
}
constexpr double kScale = 0.4375;

bool triad_ok(const Arrays& x) {
  for (std::int64_t i = 0; i < x.n; ++i)
    if (x.a[i] != x.b[i] + kScale * x.c[i]) return false;
  return true;
}

__attribute__((noinline)) void triad_simd_kernel(double* a, const double* b, const double* c, std::int64_t n) {
  constexpr std::int64_t W = V::size();
  const V s(kScale);
  std::int64_t i = 0;
  for (; i + W <= n; i += W) {
    V r = V(b + i, sx::simd_flag_default) + s * V(c + i, sx::simd_flag_default);
    r.copy_to(a + i, sx::simd_flag_default);
  }
  for (; i < n; ++i) a[i] = b[i] + kScale * c[i];
}
__attribute__((noinline)) void triad_scalar_kernel(double* a, const double* b, const double* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + kScale * c[i];
}
__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize"))) void triad_novec_kernel(
    double* a, const double* b, const double* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + kScale * c[i];
}

__attribute__((noinline)) double dot_simd_kernel(const double* b, const double* c, std::int64_t n) {
  constexpr std::int64_t W = V::size();
  V s0(0.0), s1(0.0), s2(0.0), s3(0.0);
  std::int64_t i = 0;
  for (; i + 4 * W <= n; i += 4 * W) {
    s0 += V(b + i, sx::simd_flag_default) * V(c + i, sx::simd_flag_default);
    s1 += V(b + i + W, sx::simd_flag_default) * V(c + i + W, sx::simd_flag_default);
    s2 += V(b + i + 2 * W, sx::simd_flag_default) * V(c + i + 2 * W, sx::simd_flag_default);
    s3 += V(b + i + 3 * W, sx::simd_flag_default) * V(c + i + 3 * W, sx::simd_flag_default);
  }
  double s = sx::reduce((s0 + s1) + (s2 + s3));
  for (; i < n; ++i) s += b[i] * c[i];
  return s;
}
__attribute__((noinline)) double dot_scalar_kernel(const double* b, const double* c, std::int64_t n) {
  double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += b[i] * c[i];
  return s;
}

template <void (*Kernel)(double*, const double*, const double*, std::int64_t)>
void triad_case(benchmark::State& st) {
  Arrays& x = arrays();
  // Called through a volatile pointer: the kernel's own code runs, not a copy inlined here at another alignment.
  void (*volatile kernel)(double*, const double*, const double*, std::int64_t) = Kernel;
  for (auto _ : st) {
    kernel(x.a.data(), x.b.data(), x.c.data(), x.n);
    benchmark::ClobberMemory();
  }
  if (!triad_ok(x)) st.SkipWithError("wrong triad");
  st.SetBytesProcessed(st.iterations() * x.n * 3 * sizeof(double));
  st.counters["lanes"] = double(V::size());
}

template <double (*Kernel)(const double*, const double*, std::int64_t)>
void dot_case(benchmark::State& st) {
  Arrays& x = arrays();
  double want = 0;
  for (std::int64_t i = 0; i < x.n; ++i) want += x.b[i] * x.c[i];
  double s = 0;
  double (*volatile kernel)(const double*, const double*, std::int64_t) = Kernel;
  for (auto _ : st) {
    s = kernel(x.b.data(), x.c.data(), x.n);
    benchmark::DoNotOptimize(s);
  }
  if (!(std::abs(s - want) <= 1e-12 * x.n)) st.SkipWithError("wrong dot");
  g_simd_sink = s;
  st.SetBytesProcessed(st.iterations() * x.n * 2 * sizeof(double));
  st.counters["lanes"] = double(V::size());
}

}  // namespace

void register_simd_benchmarks(bool /*smoke: the arrays are small already*/) {
  benchmark::RegisterBenchmark("simd_triad/weft", triad_case<triad_simd_kernel>)->UseRealTime();
  benchmark::RegisterBenchmark("simd_triad/baseline", triad_case<triad_scalar_kernel>)->UseRealTime();
  benchmark::RegisterBenchmark("simd_triad_novec/weft", triad_case<triad_simd_kernel>)->UseRealTime();
  benchmark::RegisterBenchmark("simd_triad_novec/baseline", triad_case<triad_novec_kernel>)->UseRealTime();
  benchmark::RegisterBenchmark("simd_dot/weft", dot_case<dot_simd_kernel>)->UseRealTime();
  benchmark::RegisterBenchmark("simd_dot/baseline", dot_case<dot_scalar_kernel>)->UseRealTime();
}
