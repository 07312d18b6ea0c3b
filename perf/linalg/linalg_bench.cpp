// perf/linalg: Weft's BLAS 1 and SpMV against hand-written OpenMP loops on the same data, in the same run,
// interleaved; and the SpMV's bandwidth (HPCG's byte count plus row offsets) against a triad over arrays that
// do not fit in cache. Prints medians of the repetitions and the ratios raw time / Weft time.
// And matrix_product, the triangular solve and matrix_vector_product (Weft's native host kernels) against OpenBLAS
// on the same threads, each library timed in blocks of back-to-back calls (see blocks() below).
// usage: weft-perf-linalg [--reps K] [--n N (27-point grid, default 96)] [--len L (BLAS 1 length, 2^25)]
//                         [--gemm G (matrix size, default 2048; 0 skips)] [--json FILE (every case's times, for
//                         perf/report.py and scripts/perf.sh)]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <weft/linalg.hpp>
#include <weft/weft.hpp>

#include "../perf_json.hpp"
#if WEFT_PERF_HAS_CBLAS
#include <cblas.h>
#endif

namespace {
using Exec = weft::DefaultHostExecutionSpace;
using Vec = weft::View<double*, weft::HostSpace>;
double now() { return omp_get_wtime(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
volatile double sink = 0;
/// Short calls (trsm, gemv) are timed in blocks: each library in turn, after a pause, two warm-up calls, then
/// `reps` calls back to back; twice each. OpenBLAS's threads spin for up to ~0.1 s after a call and Weft's OpenMP
/// threads for a while too: interleaved single calls on 2 cores measured whose spin the call landed in (seen:
/// gemv at 17 or 37 GB/s from one run to the next), and a pause before every call measured thread wake-up.
template <class WeftCall, class BlasCall>
void blocks(int reps, std::vector<double>& tw, std::vector<double>& tr, WeftCall&& weft_call, BlasCall&& blas_call) {
  for (int round = 0; round < 2; ++round)
    for (int side = 0; side < 2; ++side) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      for (int r = 0; r < reps + 2; ++r) {
        const double t0 = now();
        side == 0 ? weft_call() : blas_call();
        if (r >= 2) (side == 0 ? tw : tr).push_back(now() - t0);
      }
    }
}
}  // namespace

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  int reps = 15;
  long n = 96, len = 1L << 25, gn = 2048;
  std::string json_path;
  weft_perf::RunJson json;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--json") json_path = argv[i + 1];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    if (a == "--n") n = std::atol(argv[i + 1]);
    if (a == "--len") len = std::atol(argv[i + 1]);
    if (a == "--gemm") gn = std::atol(argv[i + 1]);
  }
  Exec exec;
  // ---- BLAS 1 ----------------------------------------------------------------------------------------
  Vec x("x", len), y("y", len), z("z", len);
  weft::parallel_for(
      "init", weft::RangePolicy<Exec>(0, len), WEFT_LAMBDA(long i) {
        x(i) = 1.0 + 1e-3 * (i % 101);
        y(i) = 2.0 - 1e-3 * (i % 97);
        z(i) = 0;
      });
  const double* xp = x.data();
  const double* yp = y.data();
  double* zp = z.data();
  std::vector<double> dw, dr, aw, ar, tw;
  for (int r = 0; r < reps; ++r) {
    for (int w = 0; w < 2; ++w) {
      const bool weft_turn = (w == 0) == (r % 2 == 0);
      double t0 = now();
      if (weft_turn) {
        sink = weft::linalg::dot(exec, x, y);
        dw.push_back(now() - t0);
      } else {
        double s = 0;
#pragma omp parallel for reduction(+ : s)
        for (long i = 0; i < len; ++i) s += xp[i] * yp[i];
        sink = s;
        dr.push_back(now() - t0);
      }
      t0 = now();
      if (weft_turn) {
        weft::linalg::add(exec, weft::linalg::scaled(0.5, x), y, z);
        aw.push_back(now() - t0);
      } else {
#pragma omp parallel for
        for (long i = 0; i < len; ++i) zp[i] = 0.5 * xp[i] + yp[i];
        ar.push_back(now() - t0);
      }
    }
  }
  // ---- SpMV on the 27-point stencil -------------------------------------------------------------------
  auto A = weft::linalg::stencil_27pt<double, int, std::int64_t, weft::HostSpace>(n, n, n);
  const long rows = A.num_rows();
  Vec px("px", rows), py("py", rows);
  weft::parallel_for(
      "init", weft::RangePolicy<Exec>(0, rows), WEFT_LAMBDA(long i) { px(i) = 1.0 + 1e-4 * (i % 37); });
  const std::int64_t* rm = A.row_map().data();
  const int* ent = A.entries().data();
  const double* val = A.values().data();
  const double* pxp = px.data();
  double* pyp = py.data();
  std::vector<double> sw, sr;
  for (int r = 0; r < reps; ++r) {
    for (int w = 0; w < 2; ++w) {
      const bool weft_turn = (w == 0) == (r % 2 == 0);
      const double t0 = now();
      if (weft_turn) {
        weft::linalg::spmv(exec, 1.0, A, px, 0.0, py);
        sw.push_back(now() - t0);
      } else {
#pragma omp parallel for
        for (long i = 0; i < rows; ++i) {
          double s = 0;
          for (std::int64_t k = rm[i]; k < rm[i + 1]; ++k) s += val[k] * pxp[ent[k]];
          pyp[i] = s;
        }
        sr.push_back(now() - t0);
      }
    }
  }
  // triad over len-element arrays (out of cache), the bandwidth reference
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
#pragma omp parallel for
    for (long i = 0; i < len; ++i) zp[i] = xp[i] + 0.4 * yp[i];
    tw.push_back(now() - t0);
  }
  const double triad_bw = 3.0 * 8 * len / median(tw);
  const double spmv_bytes = static_cast<double>(A.nnz()) * 12.0 + rows * 24.0;
  std::printf("perf/linalg: %s, %d threads, %d interleaved repetitions, medians\n", Exec::name(), exec.concurrency(),
              reps);
  std::printf("%-38s %11s %11s %9s %10s\n", "benchmark", "weft (ms)", "raw (ms)", "raw/weft", "weft GB/s");
  auto row = [&](const char* name, const std::vector<double>& w, const std::vector<double>& r, double bytes) {
    std::printf("%-38s %11.3f %11.3f %9.3f %10.2f\n", name, median(w) * 1e3, median(r) * 1e3, median(r) / median(w),
                bytes / median(w) * 1e-9);
  };
  json.add("dot", "OpenMP loop", dw, dr);
  json.add("add", "OpenMP loop", aw, ar);
  json.add("spmv", "OpenMP loop", sw, sr);
  row(("dot 2^" + std::to_string(63 - __builtin_clzl(len)) + " doubles").c_str(), dw, dr, 16.0 * len);
  row(("add(scaled(a,x), y, z) 2^" + std::to_string(63 - __builtin_clzl(len))).c_str(), aw, ar, 24.0 * len);
  row(("spmv 27-point " + std::to_string(n) + "^3").c_str(), sw, sr, spmv_bytes);
  std::printf("triad %ld doubles: %.2f GB/s; Weft spmv / triad bandwidth = %.3f (raw spmv: %.3f)\n", len,
              triad_bw * 1e-9, spmv_bytes / median(sw) / triad_bw, spmv_bytes / median(sr) / triad_bw);
#if WEFT_PERF_HAS_CBLAS
  if (gn > 0) {
    // ---- matrix_product vs OpenBLAS, double and float, row-major, in blocks -----------------------------
    auto gemm_case = [&](auto zero) {
      using T = decltype(zero);
      using Mat = weft::View<T**, weft::LayoutRight, weft::HostSpace>;
      Mat A("A", gn, gn), B("B", gn, gn), C("C", gn, gn), R("R", gn, gn);
      weft::parallel_for(  // a host lambda: nvcc takes no extended lambda inside a generic one (CUDA builds)
          "init", weft::RangePolicy<Exec>(0, gn), [=](long i) {
            for (long j = 0; j < gn; ++j) {
              A(i, j) = T(((i * 7 + j * 3) % 19) * 0.1 - 0.9);
              B(i, j) = T(((i * 5 + j * 11) % 23) * 0.1 - 1.1);
            }
          });
      std::vector<double> tw, tr;
      blocks(
          std::max(3, reps / 3), tw, tr,
          [&] { weft::linalg::matrix_product(exec, A, B, C, weft::linalg::Impl::native); },
          [&] {
            if constexpr (std::is_same_v<T, double>)
              cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gn, gn, gn, 1.0, A.data(), gn, B.data(), gn, 0.0,
                          R.data(), gn);
            else
              cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gn, gn, gn, 1.0f, A.data(), gn, B.data(), gn, 0.0f,
                          R.data(), gn);
          });
      double diff = 0, mag = 0;
      for (long i = 0; i < gn; i += 7)
        for (long j = 0; j < gn; j += 5) {
          diff = std::max(diff, std::abs(double(C(i, j)) - double(R(i, j))));
          mag = std::max(mag, std::abs(double(R(i, j))));
        }
      json.add(std::is_same_v<T, double> ? "dgemm" : "sgemm", "OpenBLAS", tw, tr);
      const double flops = 2.0 * gn * gn * gn;
      std::printf("%-38s %11.3f %11.3f %9.3f %10.2f GFLOP/s (OpenBLAS %.2f); max diff %.1e of %.1e\n",
                  ((std::is_same_v<T, double> ? "dgemm " : "sgemm ") + std::to_string(gn) + "^3 native").c_str(),
                  median(tw) * 1e3, median(tr) * 1e3, median(tr) / median(tw), flops / median(tw) * 1e-9,
                  flops / median(tr) * 1e-9, diff, mag);
    };
    gemm_case(0.0);
    gemm_case(0.0f);

    // ---- triangular solves vs OpenBLAS: A X = B, lower, row-major, k right-hand sides -------------------
    auto trsm_case = [&](long n, long k) {
      using Mat = weft::View<double**, weft::LayoutRight, weft::HostSpace>;
      Mat A("A", n, n), B0("B0", n, k), X("X", n, k), R("R", n, k);
      weft::parallel_for(
          "init", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(long i) {
            for (long j = 0; j < n; ++j)
              A(i, j) = i == j ? 2.0 + (i % 7) * 0.1 : (j < i ? ((i + 3 * j) % 11) * 0.01 - 0.05 : 1e9);
            for (long r = 0; r < k; ++r) B0(i, r) = ((i * 13 + r * 7) % 17) * 0.1 - 0.8;
          });
      std::vector<double> tw, tr;
      // Solved in place again and again (the diagonal, 2 and more, keeps the values bounded); the check below
      // solves B0 once more on each side.
      auto weft_call = [&] {
        weft::linalg::triangular_matrix_matrix_left_solve(
            exec, A, weft::linalg::lower_triangle, weft::linalg::explicit_diagonal, X, X, weft::linalg::Impl::native);
      };
      auto blas_call = [&] {
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, k, 1.0, A.data(), n, R.data(),
                    k);
      };
      weft::deep_copy(X, B0);
      weft::deep_copy(R, B0);
      blocks(std::max(3, reps / 3), tw, tr, weft_call, blas_call);
      weft::deep_copy(X, B0);
      weft::deep_copy(R, B0);
      weft_call();
      blas_call();
      double diff = 0, mag = 0;
      for (long i = 0; i < n; i += 3)
        for (long c = 0; c < k; ++c) {
          diff = std::max(diff, std::abs(X(i, c) - R(i, c)));
          mag = std::max(mag, std::abs(R(i, c)));
        }
      json.add("trsm_" + std::to_string(n) + "x" + std::to_string(k), "OpenBLAS", tw, tr);
      const double flops = double(n) * n * k;
      std::printf("%-38s %11.3f %11.3f %9.3f %10.2f GFLOP/s (OpenBLAS %.2f); max diff %.1e of %.1e\n",
                  ("trsm " + std::to_string(n) + " x " + std::to_string(k) + " rhs native").c_str(), median(tw) * 1e3,
                  median(tr) * 1e3, median(tr) / median(tw), flops / median(tw) * 1e-9, flops / median(tr) * 1e-9, diff,
                  mag);
    };
    trsm_case(2048, 1);
    trsm_case(2048, 256);

    // ---- matrix_vector_product vs OpenBLAS dgemv: y = A x, row-major and column-major A ------------------
    auto gemv_case = [&](auto layout, const char* name) {
      using L = decltype(layout);
      const long n = 4096;
      weft::View<double**, L, weft::HostSpace> A("A", n, n);
      weft::View<double*, weft::HostSpace> x("x", n), y("y", n), r("r", n);
      weft::parallel_for(  // a host lambda, as above
          "init", weft::RangePolicy<Exec>(0, n), [=](long i) {
            x(i) = (i % 13) * 0.1 - 0.6;
            for (long j = 0; j < n; ++j) A(i, j) = ((i * 7 + j * 3) % 19) * 0.1 - 0.9;
          });
      const bool row_major = std::is_same_v<L, weft::LayoutRight>;
      std::vector<double> tw, tr;
      blocks(
          reps, tw, tr, [&] { weft::linalg::matrix_vector_product(exec, A, x, y, weft::linalg::Impl::native); },
          [&] {
            cblas_dgemv(row_major ? CblasRowMajor : CblasColMajor, CblasNoTrans, n, n, 1.0, A.data(), n, x.data(), 1,
                        0.0, r.data(), 1);
          });
      double diff = 0, mag = 0;
      for (long i = 0; i < n; ++i) {
        diff = std::max(diff, std::abs(y(i) - r(i)));
        mag = std::max(mag, std::abs(r(i)));
      }
      json.add(row_major ? "gemv_row" : "gemv_col", "OpenBLAS", tw, tr);
      const double bytes = 8.0 * n * n;
      std::printf("%-38s %11.3f %11.3f %9.3f %10.2f GB/s (OpenBLAS %.2f); max diff %.1e of %.1e\n", name,
                  median(tw) * 1e3, median(tr) * 1e3, median(tr) / median(tw), bytes / median(tw) * 1e-9,
                  bytes / median(tr) * 1e-9, diff, mag);
    };
    gemv_case(weft::LayoutRight(), "gemv 4096^2 row-major native");
    gemv_case(weft::LayoutLeft(), "gemv 4096^2 column-major native");
  }
#endif
  if (!json_path.empty()) json.write(json_path, "linalg", exec.concurrency());
  return 0;
}
