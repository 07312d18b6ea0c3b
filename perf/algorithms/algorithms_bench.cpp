// perf/algorithms: weft::sort of random uint32 against std::sort and libstdc++'s __gnu_parallel::sort on the
// same threads, and copy_if against a hand-written two-pass OpenMP compaction; same inputs, interleaved,
// medians. usage: weft-perf-algorithms [--reps K] [--sort-n N (2^24)] [--copy-n N (2^26)]
#include <omp.h>
#include <parallel/algorithm>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <weft/algorithms.hpp>

namespace {
using Exec = weft::DefaultHostExecutionSpace;
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  int reps = 5;
  long sn = 1L << 24, cn = 1L << 26;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    if (a == "--sort-n") sn = std::atol(argv[i + 1]);
    if (a == "--copy-n") cn = std::atol(argv[i + 1]);
  }
  Exec exec;
  std::mt19937 g(1);
  std::vector<std::uint32_t> input(sn);
  for (auto& x : input) x = g();
  std::vector<std::uint32_t> ref = input;
  std::sort(ref.begin(), ref.end());
  weft::View<std::uint32_t*, weft::HostSpace> v("keys", sn);
  std::vector<double> tw, ts, tp;
  for (int r = 0; r < reps; ++r) {
    std::copy(input.begin(), input.end(), v.data());
    double t0 = omp_get_wtime();
    weft::sort(exec, v);
    tw.push_back(omp_get_wtime() - t0);
    if (!std::equal(ref.begin(), ref.end(), v.data())) {
      std::fprintf(stderr, "weft::sort gave a wrong order\n");
      return 1;
    }
    std::vector<std::uint32_t> a = input;
    t0 = omp_get_wtime();
    std::sort(a.begin(), a.end());
    ts.push_back(omp_get_wtime() - t0);
    a = input;
    t0 = omp_get_wtime();
    __gnu_parallel::sort(a.begin(), a.end());
    tp.push_back(omp_get_wtime() - t0);
  }
  // copy_if of the even values of 2^26 ints
  std::vector<int> cin(cn);
  for (auto& x : cin) x = static_cast<int>(g() % 1000);
  weft::View<int*, weft::HostSpace> src("src", cn), dst("dst", cn);
  std::copy(cin.begin(), cin.end(), src.data());
  std::vector<double> cw, cr;
  std::vector<int> rdst(cn);
  long count_w = 0, count_r = 0;
  for (int r = 0; r < reps * 2; ++r) {
    double t0 = omp_get_wtime();
    count_w = static_cast<long>(weft::experimental::copy_if(
        exec, src, dst, WEFT_LAMBDA(int x) { return x % 2 == 0; }));
    cw.push_back(omp_get_wtime() - t0);
    t0 = omp_get_wtime();
    const int* s = src.data();
    int* d = rdst.data();
    const int nt = omp_get_max_threads();
    std::vector<long> cnt(nt + 1, 0);
#pragma omp parallel num_threads(nt)
    {
      const int t = omp_get_thread_num();
      const long b = cn * t / nt, e = cn * (t + 1) / nt;
      long c = 0;
      for (long i = b; i < e; ++i) c += s[i] % 2 == 0;
      cnt[t + 1] = c;
#pragma omp barrier
#pragma omp single
      for (int k = 0; k < nt; ++k) cnt[k + 1] += cnt[k];
      long o = cnt[t];
      for (long i = b; i < e; ++i)
        if (s[i] % 2 == 0) d[o++] = s[i];
    }
    count_r = cnt[nt];
    cr.push_back(omp_get_wtime() - t0);
  }
  if (count_w != count_r || !std::equal(rdst.begin(), rdst.begin() + count_r, dst.data())) {
    std::fprintf(stderr, "copy_if disagrees with the hand-written compaction\n");
    return 1;
  }
  std::printf("perf/algorithms: %s, %d threads, medians of %d\n", Exec::name(), exec.concurrency(), reps);
  std::printf("sort 2^%d uint32: weft %.1f ms; std::sort %.1f ms (%.2fx); __gnu_parallel::sort %.1f ms (%.2fx)\n",
              63 - __builtin_clzl(sn), median(tw) * 1e3, median(ts) * 1e3, median(ts) / median(tw), median(tp) * 1e3,
              median(tp) / median(tw));
  std::printf("copy_if 2^%d ints (half pass): weft %.2f ms, hand-written two-pass OpenMP %.2f ms: raw/weft %.3f\n",
              63 - __builtin_clzl(cn), median(cw) * 1e3, median(cr) * 1e3, median(cr) / median(cw));
  return 0;
}
