// perf/host_core scatter cases: weft::ScatterView against hand-written OpenMP. scatter_hist: 2^24 seeded random
// contributions into 2^16 bins; scatter_stencil: every cell of a 96^3 grid adds to its 27 neighbours. The
// default ScatterView (a copy per thread) is paired with per-thread arrays reduced afterwards (`<case>/baseline`),
// the atomic ScatterView with `#pragma omp atomic` (`<case>_atomic/baseline`). Each iteration is a whole round:
// clear the copies, scatter, combine into the result.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <vector>

#include <weft/containers.hpp>
#include <weft/weft.hpp>

namespace {

using Exec = weft::DefaultHostExecutionSpace;
bool g_scatter_smoke = false;
volatile double g_scatter_sink;

struct HistInput {
  std::int64_t n;
  int bins;
  std::vector<int> bin;
  std::vector<double> weight;
};
const HistInput& hist_input() {
  static HistInput in = [] {
    HistInput h;
    h.n = g_scatter_smoke ? 4096 : std::int64_t(1) << 24;
    h.bins = g_scatter_smoke ? 256 : 1 << 16;
    std::mt19937_64 gen(12345);
    h.bin.resize(h.n);
    h.weight.resize(h.n);
    for (std::int64_t i = 0; i < h.n; ++i) {
      h.bin[i] = static_cast<int>(gen() % static_cast<unsigned>(h.bins));
      h.weight[i] = static_cast<double>(gen() % 8);
    }
    return h;
  }();
  return in;
}
double hist_checksum(const HistInput& in) {
  double s = 0;
  for (double w : in.weight) s += w;
  return s;
}

template <class Dup, class Contrib>
void hist_weft(benchmark::State& st) {
  const HistInput& in = hist_input();
  weft::View<int*, Exec> b("bins", in.n);
  weft::View<double*, Exec> w("weights", in.n);
  for (std::int64_t i = 0; i < in.n; ++i) b(i) = in.bin[i], w(i) = in.weight[i];
  weft::View<double*, Exec> hist("hist", in.bins);
  weft::ScatterView<double*, weft::LayoutRight, Exec, weft::ScatterSum, Dup, Contrib> scatter(hist);
  for (auto _ : st) {
    weft::deep_copy(hist, 0.0);
    scatter.reset();
    weft::parallel_for(
        "scatter_hist", weft::RangePolicy<Exec>(0, in.n), WEFT_LAMBDA(std::int64_t i) {
          auto a = scatter.access();
          a(b(i)) += w(i);
        });
    weft::contribute(hist, scatter);
  }
  double s = 0;
  for (int k = 0; k < in.bins; ++k) s += hist(k);
  if (s != hist_checksum(in)) st.SkipWithError("wrong histogram");
  g_scatter_sink = s;
  st.SetBytesProcessed(st.iterations() * in.n * (sizeof(int) + sizeof(double)));
}
void hist_private(benchmark::State& st) {
  const HistInput& in = hist_input();
  const int nt = omp_get_max_threads(), bins = in.bins;
  const std::int64_t n = in.n;
  std::vector<int> bv(in.bin);
  std::vector<double> wv(in.weight), hv(bins), pv(static_cast<std::size_t>(nt) * bins);
  const int* b = bv.data();
  const double* w = wv.data();
  double* hist = hv.data();
  double* priv = pv.data();
  for (auto _ : st) {
#pragma omp parallel
    {
      double* mine = priv + static_cast<std::size_t>(omp_get_thread_num()) * bins;
      for (int k = 0; k < bins; ++k) mine[k] = 0;
#pragma omp for
      for (std::int64_t i = 0; i < n; ++i) mine[b[i]] += w[i];
#pragma omp for
      for (int k = 0; k < bins; ++k) {
        double s = 0;
        for (int t = 0; t < nt; ++t) s += priv[static_cast<std::size_t>(t) * bins + k];
        hist[k] = s;
      }
    }
  }
  double s = 0;
  for (int k = 0; k < bins; ++k) s += hist[k];
  if (s != hist_checksum(in)) st.SkipWithError("wrong histogram");
  g_scatter_sink = s;
  st.SetBytesProcessed(st.iterations() * n * (sizeof(int) + sizeof(double)));
}
void hist_atomic(benchmark::State& st) {
  const HistInput& in = hist_input();
  const int bins = in.bins;
  const std::int64_t n = in.n;
  std::vector<int> bv(in.bin);
  std::vector<double> wv(in.weight), hv(bins);
  const int* b = bv.data();
  const double* w = wv.data();
  double* hist = hv.data();
  for (auto _ : st) {
#pragma omp parallel for
    for (int k = 0; k < bins; ++k) hist[k] = 0;
#pragma omp parallel for
    for (std::int64_t i = 0; i < n; ++i) {
#pragma omp atomic
      hist[b[i]] += w[i];
    }
  }
  double s = 0;
  for (int k = 0; k < bins; ++k) s += hist[k];
  if (s != hist_checksum(in)) st.SkipWithError("wrong histogram");
  g_scatter_sink = s;
  st.SetBytesProcessed(st.iterations() * n * (sizeof(int) + sizeof(double)));
}

// ---- 27-point stencil scatter: cell (i, j, k) adds v(i, j, k) to each neighbour inside the grid ----
int grid_n() { return g_scatter_smoke ? 12 : 96; }
double stencil_checksum(int n) {  // v = 1: each cell receives one per neighbour it has (itself included)
  auto c = [n](int i) { return 1.0 + (i > 0) + (i < n - 1); };
  double s = 0;
  for (int i = 0; i < n; ++i) s += c(i);
  return s * s * s;
}

template <class Dup, class Contrib>
void stencil_weft(benchmark::State& st) {
  const int n = grid_n();
  weft::View<double***, weft::LayoutRight, Exec> v("v", n, n, n), out("out", n, n, n);
  weft::deep_copy(v, 1.0);
  weft::ScatterView<double***, weft::LayoutRight, Exec, weft::ScatterSum, Dup, Contrib> scatter(out);
  for (auto _ : st) {
    weft::deep_copy(out, 0.0);
    scatter.reset();
    weft::parallel_for(
        "scatter_stencil", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(int i) {
          auto a = scatter.access();
          for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
              const double x = v(i, j, k);
              for (int di = i > 0 ? -1 : 0; di <= (i < n - 1 ? 1 : 0); ++di)
                for (int dj = j > 0 ? -1 : 0; dj <= (j < n - 1 ? 1 : 0); ++dj)
                  for (int dk = k > 0 ? -1 : 0; dk <= (k < n - 1 ? 1 : 0); ++dk) a(i + di, j + dj, k + dk) += x;
            }
        });
    weft::contribute(out, scatter);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) s += out(i, j, k);
  if (s != stencil_checksum(n)) st.SkipWithError("wrong stencil scatter");
  g_scatter_sink = s;
  st.SetBytesProcessed(st.iterations() * std::int64_t(n) * n * n * 27 * sizeof(double));
}
template <bool Atomic>
void stencil_raw(benchmark::State& st) {
  const int n = grid_n(), nt = omp_get_max_threads();
  const std::size_t cells = std::size_t(n) * n * n;
  std::vector<double> vv(cells, 1.0), ov(cells), pv(Atomic ? 0 : cells * nt);
  const double* v = vv.data();
  double* out = ov.data();
  double* priv = pv.data();
  auto at = [n](int i, int j, int k) { return (std::size_t(i) * n + j) * n + k; };
  for (auto _ : st) {
#pragma omp parallel
    {
      double* mine = Atomic ? out : priv + cells * omp_get_thread_num();
      if (Atomic) {
#pragma omp for
        for (std::size_t c = 0; c < cells; ++c) out[c] = 0;
      } else {
        for (std::size_t c = 0; c < cells; ++c) mine[c] = 0;
      }
#pragma omp for
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int k = 0; k < n; ++k) {
            const double x = v[at(i, j, k)];
            for (int di = i > 0 ? -1 : 0; di <= (i < n - 1 ? 1 : 0); ++di)
              for (int dj = j > 0 ? -1 : 0; dj <= (j < n - 1 ? 1 : 0); ++dj)
                for (int dk = k > 0 ? -1 : 0; dk <= (k < n - 1 ? 1 : 0); ++dk) {
                  if constexpr (Atomic) {
#pragma omp atomic
                    mine[at(i + di, j + dj, k + dk)] += x;
                  } else {
                    mine[at(i + di, j + dj, k + dk)] += x;
                  }
                }
          }
      if (!Atomic) {
#pragma omp for
        for (std::size_t c = 0; c < cells; ++c) {
          double s = 0;
          for (int t = 0; t < nt; ++t) s += priv[cells * t + c];
          out[c] = s;
        }
      }
    }
  }
  double s = 0;
  for (std::size_t c = 0; c < cells; ++c) s += out[c];
  if (s != stencil_checksum(n)) st.SkipWithError("wrong stencil scatter");
  g_scatter_sink = s;
  st.SetBytesProcessed(st.iterations() * std::int64_t(cells) * 27 * sizeof(double));
}

}  // namespace

void register_scatter_benchmarks(bool smoke) {
  g_scatter_smoke = smoke;
  using Dup = weft::ScatterDuplicated;
  using NonDup = weft::ScatterNonDuplicated;
  using Atom = weft::ScatterAtomic;
  using NonAtom = weft::ScatterNonAtomic;
  auto ms = benchmark::kMillisecond;
  benchmark::RegisterBenchmark("scatter_hist/weft", hist_weft<Dup, NonAtom>)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_hist/baseline", hist_private)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_hist_atomic/weft", hist_weft<NonDup, Atom>)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_hist_atomic/baseline", hist_atomic)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_stencil/weft", stencil_weft<Dup, NonAtom>)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_stencil/baseline", stencil_raw<false>)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_stencil_atomic/weft", stencil_weft<NonDup, Atom>)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("scatter_stencil_atomic/baseline", stencil_raw<true>)->UseRealTime()->Unit(ms);
}
