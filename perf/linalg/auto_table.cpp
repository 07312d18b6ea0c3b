// weft-linalg-auto-table: fills the table that Impl::automatic consults on host spaces
// (linalg/src/auto_table.inc). For matrix_product, matrix_vector_product and the triangular solve on double
// and float, square problems of 16..1024 are timed with Impl::native and with Impl::vendor (the same Weft
// calls the dispatcher chooses between), in alternating blocks, median of 2 x 7; each point records which won,
// and a call follows the point nearest its work (flops, log scale).
// usage: weft-linalg-auto-table [--out linalg/src/auto_table.inc] [--reps 7]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <weft/linalg.hpp>

namespace {
namespace la = weft::linalg;
using Exec = weft::DefaultHostExecutionSpace;
int g_reps = 7;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
/// Median times of native and vendor for body(impl): each timed in blocks of its own (two warm-up calls, then
/// the repetitions), native and vendor blocks alternating twice, with a pause before each block. OpenBLAS's
/// pthreads and the OpenMP threads Weft runs on keep spinning after a call (OpenBLAS's for up to ~0.1 s), and a
/// call that lands in the other library's spin measures that contention on a 2-core machine, not the kernel.
template <class Body>
std::pair<double, double> race(Body&& body) {
  std::vector<double> tn, tv;
  for (int round = 0; round < 2; ++round)
    for (la::Impl impl : {la::Impl::native, la::Impl::vendor}) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      for (int r = 0; r < g_reps + 2; ++r) {
        const double t0 = omp_get_wtime();
        body(impl);
        if (r >= 2) (impl == la::Impl::native ? tn : tv).push_back(omp_get_wtime() - t0);
      }
    }
  return {median(tn), median(tv)};
}

struct Point {
  const char* op;
  double flops;
  bool vendor;
};

template <class T>
void fill(const weft::View<T**, weft::LayoutRight, weft::HostSpace>& a, long salt, bool lower_dominant = false) {
  for (long i = 0; i < long(a.extent(0)); ++i)
    for (long j = 0; j < long(a.extent(1)); ++j)
      a(i, j) = lower_dominant && i == j ? T(4) : T(((i * 7 + j * 3 + salt) % 19) * 0.05 - 0.45);
}

template <class T>
std::vector<Point> measure() {
  const char letter = std::is_same_v<T, double> ? 'd' : 's';
  std::vector<Point> points;
  for (const char* op : {"gemm", "gemv", "trsm"}) {
    for (long n : {16L, 32L, 64L, 128L, 256L, 512L, 1024L}) {
      using Mat = weft::View<T**, weft::LayoutRight, weft::HostSpace>;
      Mat A("A", n, n), B("B", n, n), C("C", n, n);
      weft::View<T*, weft::HostSpace> x("x", n), y("y", n);
      fill(A, 1, true);
      fill(B, 2);
      for (long i = 0; i < n; ++i) x(i) = T(0.01 * (i % 13));
      double flops = 0;
      std::pair<double, double> t;
      const std::string what = op;
      if (what == "gemm") {
        flops = 2.0 * n * n * n;
        t = race([&](la::Impl impl) { la::matrix_product(Exec(), A, B, C, impl); });
      } else if (what == "gemv") {
        flops = 2.0 * n * n;
        t = race([&](la::Impl impl) { la::matrix_vector_product(Exec(), A, x, y, impl); });
      } else {
        flops = double(n) * n * n;
        weft::deep_copy(C, B);  // solved in place again and again: the diagonal (4) shrinks it by ~4^-36 at most
        t = race([&](la::Impl impl) {
          la::triangular_matrix_matrix_left_solve(Exec(), A, la::lower_triangle, la::explicit_diagonal, C, C, impl);
        });
      }
      const bool vendor_won = t.first > 1.02 * t.second;
      std::printf("%c%s n=%4ld: native %10.1f us, vendor %10.1f us -> %s\n", letter, op, n, t.first * 1e6,
                  t.second * 1e6, vendor_won ? "vendor" : "native");
      points.push_back({op, flops, vendor_won});
    }
  }
  return points;
}
}  // namespace

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  std::string out = "linalg/src/auto_table.inc";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--out") out = argv[i + 1];
    if (a == "--reps") g_reps = std::max(1, std::atoi(argv[i + 1]));
  }
  if (!la::has_vendor_blas()) {
    std::fprintf(stderr, "weft-linalg-auto-table: Weft was built without a vendor BLAS; nothing to compare\n");
    return 1;
  }
  const auto d = measure<double>();
  const auto s = measure<float>();
  FILE* f = std::fopen(out.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "weft-linalg-auto-table: cannot write %s\n", out.c_str());
    return 1;
  }
  std::fprintf(f, "// Written by weft-linalg-auto-table (%s, %d threads, median of 2 x %d): {op, type, flops,\n",
               Exec::name(), Exec().concurrency(), g_reps);
  std::fprintf(f, "// vendor won}; a call follows the point nearest its flops (log scale).\n");
  for (const auto& p : d) std::fprintf(f, "{\"%s\", 'd', %.4g, %s},\n", p.op, p.flops, p.vendor ? "true" : "false");
  for (const auto& p : s) std::fprintf(f, "{\"%s\", 's', %.4g, %s},\n", p.op, p.flops, p.vendor ? "true" : "false");
  std::fclose(f);
  std::printf("wrote %s\n", out.c_str());
  return 0;
}
