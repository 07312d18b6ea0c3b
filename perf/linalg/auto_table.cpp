// weft-linalg-auto-table: fills the table that Impl::automatic consults on host spaces
// (linalg/src/auto_table.inc). For matrix_product, matrix_vector_product and the triangular solves on double
// and float (trsm: n right-hand sides; trsv: one), square problems of 16..1024 (gemv and trsv 16..4096) are timed
// with Impl::native and with Impl::vendor (the same Weft
// calls the dispatcher chooses between), in alternating blocks, median of 2 x 7; each point records which won,
// and a call follows the point nearest its work (flops, log scale).
// With --device (CUDA builds, on a GPU) the same for weft::Cuda — Weft's GPU kernels against cuBLAS, gemm also
// on bf16 inputs, n = 64..8192 (gemv to 16384, trsm to 4096), each call fenced — into
// linalg/src/auto_table_device.inc.
// usage: weft-linalg-auto-table [--device] [--out linalg/src/auto_table.inc] [--reps 7]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include <weft/linalg.hpp>

namespace {
namespace la = weft::linalg;
using Exec = weft::DefaultHostExecutionSpace;
int g_reps = 7;
int g_pause_ms = 250;

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
      std::this_thread::sleep_for(std::chrono::milliseconds(g_pause_ms));
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
  char type;
  double flops;
  bool vendor;
};

template <class T>
void fill(const weft::View<T**, weft::LayoutRight, weft::HostSpace>& a, long salt, bool lower_dominant = false) {
  for (long i = 0; i < long(a.extent(0)); ++i)
    for (long j = 0; j < long(a.extent(1)); ++j)
      a(i, j) = lower_dominant && i == j ? T(4) : T(float(((i * 7 + j * 3 + salt) % 19) * 0.05 - 0.45));
}

/// Times gemm, gemv and trsm on element type T (In for gemm's A and B) in space E at the sizes given, Weft's
/// kernel against the vendor's; appends the points.
template <class E, class T, class In = T>
void measure(std::vector<Point>& points, char letter, std::initializer_list<const char*> ops,
             std::initializer_list<long> sizes, long max_gemm, long max_gemv, long max_trsm) {
  using M = typename E::memory_space;
  for (const char* op : ops) {
    const std::string what = op;
    for (long n : sizes) {
      // trsv (one right-hand side) is O(n^2) as gemv is, and goes as far
      if (n > (what == "gemm" ? max_gemm : what == "gemv" || what == "trsv" ? max_gemv : max_trsm)) continue;
      constexpr bool same = std::is_same_v<In, T>;
      using HostMat = weft::View<T**, weft::LayoutRight, weft::HostSpace>;
      HostMat hA("A", n, n), hB("B", n, n);
      fill(hA, 1, true);
      fill(hB, 2);
      weft::View<T**, weft::LayoutRight, M> A("A", n, n), B("B", n, n), C("C", n, n);
      weft::View<In**, weft::LayoutRight, M> A16("A16", same ? 0 : n, same ? 0 : n),
          B16("B16", same ? 0 : n, same ? 0 : n);
      weft::View<T*, M> x("x", n), y("y", n);
      weft::deep_copy(A, hA);
      weft::deep_copy(B, hB);
      weft::deep_copy(x, T(0.01));
      if constexpr (!same) {
        weft::parallel_for(
            "to 16 bits", weft::MDRangePolicy<E, weft::Rank<2>>({0L, 0L}, {n, n}), WEFT_LAMBDA(long i, long j) {
              A16(i, j) = In(A(i, j));
              B16(i, j) = In(B(i, j));
            });
      }
      double flops = 0;
      std::pair<double, double> t;
      if (what == "gemm") {
        flops = 2.0 * n * n * n;
        t = race([&](la::Impl impl) {
          if constexpr (same)
            la::matrix_product(E(), A, B, C, impl);
          else
            la::matrix_product(E(), A16, B16, C, impl);
          E().fence();
        });
      } else if (what == "gemv") {
        flops = 2.0 * n * n;
        t = race([&](la::Impl impl) {
          la::matrix_vector_product(E(), A, x, y, impl);
          E().fence();
        });
      } else if (what == "trsv") {
        flops = double(n) * n;
        weft::View<T*, M> b("b", n);
        weft::deep_copy(b, T(0.01));
        t = race([&](la::Impl impl) {
          weft::deep_copy(E(), y, b);  // a fresh right-hand side each call (O(n), beside the O(n^2) solve)
          la::triangular_matrix_vector_solve(E(), A, la::lower_triangle, la::explicit_diagonal, y, impl);
          E().fence();
        });
      } else {
        flops = double(n) * n * n;
        weft::deep_copy(C, B);  // solved in place again and again: the diagonal (4) shrinks it by ~4^-36 at most
        t = race([&](la::Impl impl) {
          la::triangular_matrix_matrix_left_solve(E(), A, la::lower_triangle, la::explicit_diagonal, C, C, impl);
          E().fence();
        });
      }
      const bool vendor_won = t.first > 1.02 * t.second;
      std::printf("%c%s n=%5ld: native %10.1f us, vendor %10.1f us -> %s\n", letter, op, n, t.first * 1e6,
                  t.second * 1e6, vendor_won ? "vendor" : "native");
      points.push_back({op, letter, flops, vendor_won});
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  bool device = false;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device") device = true;
    if (a == "--out" && i + 1 < argc) out = argv[++i];
    if (a == "--reps" && i + 1 < argc) g_reps = std::max(1, std::atoi(argv[++i]));
  }
  std::vector<Point> points;
  std::string where;
  if (device) {
#if WEFT_HAS_CUDA
    if (out.empty()) out = "linalg/src/auto_table_device.inc";
    g_pause_ms = 20;  // no host threads spin between GPU calls
    const std::initializer_list<long> sizes = {64L, 128L, 256L, 512L, 1024L, 2048L, 4096L, 8192L, 16384L};
    measure<weft::Cuda, double>(points, 'd', {"gemm", "gemv", "trsm"}, sizes, 8192, 16384, 4096);
    measure<weft::Cuda, float>(points, 's', {"gemm", "gemv", "trsm"}, sizes, 8192, 16384, 4096);
    measure<weft::Cuda, float, weft::bhalf_t>(points, 'b', {"gemm"}, sizes, 8192, 0, 0);
    where = std::string("weft::Cuda against cuBLAS, each call fenced, median of 2 x ") + std::to_string(g_reps);
#else
    std::fprintf(stderr, "weft-linalg-auto-table: --device needs a CUDA build (cuBLAS)\n");
    return 1;
#endif
  } else {
    if (out.empty()) out = "linalg/src/auto_table.inc";
    if (!la::has_vendor_blas()) {
      std::fprintf(stderr, "weft-linalg-auto-table: Weft was built without a vendor BLAS; nothing to compare\n");
      return 1;
    }
    // gemv and trsv (one right-hand side) to 4096, the others to 1024
    const std::initializer_list<long> sizes = {16L, 32L, 64L, 128L, 256L, 512L, 1024L, 2048L, 4096L};
    measure<Exec, double>(points, 'd', {"gemm", "gemv", "trsm", "trsv"}, sizes, 1024, 4096, 1024);
    measure<Exec, float>(points, 's', {"gemm", "gemv", "trsm", "trsv"}, sizes, 1024, 4096, 1024);
    where = std::string(Exec::name()) + ", " + std::to_string(Exec().concurrency()) + " threads, median of 2 x " +
            std::to_string(g_reps);
  }
  FILE* f = std::fopen(out.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "weft-linalg-auto-table: cannot write %s\n", out.c_str());
    return 1;
  }
  std::fprintf(f, "// Written by weft-linalg-auto-table%s (%s): {op, type, flops,\n", device ? " --device" : "",
               where.c_str());
  std::fprintf(f, "// vendor won}; a call follows the point nearest its flops (log scale).\n");
  for (const auto& p : points)
    std::fprintf(f, "{\"%s\", '%c', %.4g, %s},\n", p.op, p.type, p.flops, p.vendor ? "true" : "false");
  std::fclose(f);
  std::printf("wrote %s\n", out.c_str());
  return 0;
}
