// perf/algorithms: weft::sort of random uint32 against std::sort and libstdc++'s __gnu_parallel::sort on the
// same threads, and copy_if against a hand-written two-pass OpenMP compaction; same inputs, interleaved,
// medians. The sort baselines run in a process of their own (this program again, --baselines-only: no Weft
// initialized, so no Weft thread can be beside them), one child per round, alternating with Weft's sort in this
// process; the same baselines measured in this process after Weft's sort are printed beside, as a check that
// Weft's threads do not slow them down. Ratios are medians of same-round ratios, with their spread.
// usage: weft-perf-algorithms [--reps K] [--sort-n N (2^24)] [--copy-n N (2^26)] [--json FILE (every case's
//                             times, for perf/report.py and scripts/perf.sh)]
#include <omp.h>
#include <parallel/algorithm>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <weft/algorithms.hpp>

#include "../perf_json.hpp"

namespace {
using Exec = weft::DefaultHostExecutionSpace;
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
std::vector<std::uint32_t> sort_input(long n) {
  std::mt19937 g(1);
  std::vector<std::uint32_t> input(n);
  for (auto& x : input) x = g();
  return input;
}
/// std::sort and __gnu_parallel::sort of the input, seconds each (checked against each other).
bool time_baselines(const std::vector<std::uint32_t>& input, double& t_std, double& t_gnu) {
  std::vector<std::uint32_t> a = input, b = input;
  double t0 = omp_get_wtime();
  std::sort(a.begin(), a.end());
  t_std = omp_get_wtime() - t0;
  t0 = omp_get_wtime();
  __gnu_parallel::sort(b.begin(), b.end());
  t_gnu = omp_get_wtime() - t0;
  return a == b;
}
/// Runs f with the calling thread allowed on every CPU of the OpenMP places (the CPUs the process started with):
/// under OMP_PROC_BIND this thread is bound to one place, and a child process inherits that mask, so its OpenMP
/// threads would all share one core (__gnu_parallel::sort then ran as slowly as std::sort: seen here).
template <class F>
void with_all_places(F f) {
  cpu_set_t all, saved;
  CPU_ZERO(&all);
  for (int p = 0; p < omp_get_num_places(); ++p) {
    std::vector<int> ids(omp_get_place_num_procs(p));
    omp_get_place_proc_ids(p, ids.data());
    for (int id : ids) CPU_SET(id, &all);
  }
  const bool widen = CPU_COUNT(&all) > 0 && pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0;
  if (widen) pthread_setaffinity_np(pthread_self(), sizeof all, &all);
  f();
  if (widen) pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
}
/// One round of the baselines in a process of their own: this program with --baselines-only.
bool baselines_in_own_process(long n, double& t_std, double& t_gnu) {
  char exe[4096];
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (len <= 0) return false;
  exe[len] = 0;
  const std::string cmd = std::string("'") + exe + "' --baselines-only --sort-n " + std::to_string(n);
  bool ok = false;
  with_all_places([&] {
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return;
    const int got = std::fscanf(p, "baselines %lf %lf", &t_std, &t_gnu);
    ok = pclose(p) == 0 && got == 2;
  });
  return ok;
}
std::string spread(std::vector<double> r) {
  std::sort(r.begin(), r.end());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f-%.2f", r.front(), r.back());
  return buf;
}
}  // namespace

int main(int argc, char* argv[]) {
  int reps = 5;
  long sn = 1L << 24, cn = 1L << 26;
  bool baselines_only = false;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--baselines-only") baselines_only = true;
    if (i + 1 >= argc) continue;
    if (a == "--json") json_path = argv[i + 1];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    if (a == "--sort-n") sn = std::atol(argv[i + 1]);
    if (a == "--copy-n") cn = std::atol(argv[i + 1]);
  }
  if (baselines_only) {  // the child of one round: no Weft here
    double t_std = 0, t_gnu = 0;
    if (!time_baselines(sort_input(sn), t_std, t_gnu)) return 1;
    std::printf("baselines %.9f %.9f\n", t_std, t_gnu);
    return 0;
  }
  weft::ScopeGuard guard(argc, argv);
  Exec exec;
  const std::vector<std::uint32_t> input = sort_input(sn);
  std::vector<std::uint32_t> ref = input;
  std::sort(ref.begin(), ref.end());
  weft::View<std::uint32_t*, weft::HostSpace> v("keys", sn);
  std::vector<double> tw, ts, tp, ts_in, tp_in, r_std, r_gnu;
  for (int r = 0; r < reps; ++r) {
    std::copy(input.begin(), input.end(), v.data());
    double t0 = omp_get_wtime();
    weft::sort(exec, v);
    tw.push_back(omp_get_wtime() - t0);
    if (!std::equal(ref.begin(), ref.end(), v.data())) {
      std::fprintf(stderr, "weft::sort gave a wrong order\n");
      return 1;
    }
    double t_std = 0, t_gnu = 0;
    if (!baselines_in_own_process(sn, t_std, t_gnu)) {
      std::fprintf(stderr, "perf/algorithms: the baselines' own process failed\n");
      return 1;
    }
    ts.push_back(t_std);
    tp.push_back(t_gnu);
    r_std.push_back(t_std / tw.back());
    r_gnu.push_back(t_gnu / tw.back());
    if (!time_baselines(input, t_std, t_gnu)) return 1;  // the same, in this process
    ts_in.push_back(t_std);
    tp_in.push_back(t_gnu);
  }
  // copy_if of the even values of 2^26 ints
  std::mt19937 g(2);
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
  std::printf(
      "sort 2^%d uint32: weft %.1f ms; baselines in their own process: std::sort %.1f ms (weft %.2fx, "
      "spread %s), __gnu_parallel::sort %.1f ms (weft %.2fx, spread %s)\n",
      63 - __builtin_clzl(sn), median(tw) * 1e3, median(ts) * 1e3, median(r_std), spread(r_std).c_str(),
      median(tp) * 1e3, median(r_gnu), spread(r_gnu).c_str());
  std::printf(
      "  the same baselines in this process, after Weft's sort: std::sort %.1f ms, __gnu_parallel::sort %.1f ms\n",
      median(ts_in) * 1e3, median(tp_in) * 1e3);
  std::printf("copy_if 2^%d ints (half pass): weft %.2f ms, hand-written two-pass OpenMP %.2f ms: raw/weft %.3f\n",
              63 - __builtin_clzl(cn), median(cw) * 1e3, median(cr) * 1e3, median(cr) / median(cw));
  if (!json_path.empty()) {
    weft_perf::RunJson json;
    json.add("sort_vs_gnu_parallel", "__gnu_parallel::sort (own process)", tw, tp);
    json.add("sort_vs_std", "std::sort (own process)", tw, ts);
    json.add("copy_if", "two-pass OpenMP compaction", cw, cr);
    json.write(json_path, "algorithms", exec.concurrency());
  }
  return 0;
}
