// weft-gemm: a sweep of weft::linalg::matrix_product (C = A B, square, LayoutRight) over sizes and element
// types, Weft's own kernel against the vendor BLAS (when Weft was built with one) in the same run, with
// GFLOP/s and the ratio native / vendor. Validation: 64 sampled entries of every product against a
// long-double dot product, within 2 k eps sum |a b| (the bound of a k-term dot product).
// Figure of merit: native GFLOP/s of the largest double product.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <weft/linalg.hpp>
#include <weft/weft.hpp>

#include "app_common.hpp"

namespace {
using Exec = weft_app::ExecSpace;
namespace la = weft::linalg;

struct Options {
  std::vector<long> sizes{256, 512, 1024};
  std::vector<std::string> types{"double", "float"};
  int reps = 3;
  bool progress = false;
  std::string json;
};

struct Row {
  std::string type;
  long n;
  double native_gflops, vendor_gflops, error;
  bool ok;
};

template <class T>
Row run_case(long n, int reps, weft_app::Progress& progress) {
  using Mat = weft::View<T**, weft::LayoutRight, Exec::memory_space>;
  Mat A("A", n, n), B("B", n, n), C("C", n, n);
  Exec exec;
  weft::parallel_for(
      "gemm::init", weft::MDRangePolicy<Exec, weft::Rank<2>>(exec, {0L, 0L}, {n, n}),
      WEFT_LAMBDA(std::int64_t i, std::int64_t j) {
        A(i, j) = T(((i * 7 + j * 3) % 19) * 0.1 - 0.9);
        B(i, j) = T(((i * 5 + j * 11) % 23) * 0.1 - 1.1);
      });
  exec.fence();
  const double flops = 2.0 * n * n * n;
  auto best = [&](la::Impl impl) {
    double t = 1e300;
    for (int r = 0; r <= reps; ++r) {  // r = 0 warms up
      const double t0 = weft_app::now();
      la::matrix_product(exec, A, B, C, impl);
      exec.fence();
      if (r) t = std::min(t, weft_app::now() - t0);
    }
    return flops / t * 1e-9;
  };
  Row row{sizeof(T) == 8 ? "double" : "float", n, 0, 0, 0, true};
  row.vendor_gflops = la::has_vendor_blas() && Exec::impl_is_host_space ? best(la::Impl::vendor) : 0;
  row.native_gflops = best(la::Impl::native);
  // 64 sampled entries of the native product against long double
  auto a = weft::create_mirror_view_and_copy(weft::HostSpace(), A);
  auto b = weft::create_mirror_view_and_copy(weft::HostSpace(), B);
  auto c = weft::create_mirror_view_and_copy(weft::HostSpace(), C);
  const double eps = std::numeric_limits<T>::epsilon();
  for (int s = 0; s < 64; ++s) {
    const long i = (s * 7919L) % n, j = (s * 104729L + 13) % n;
    long double ref = 0, mag = 0;
    for (long p = 0; p < n; ++p) {
      ref += static_cast<long double>(a(i, p)) * b(p, j);
      mag += std::fabs(static_cast<long double>(a(i, p)) * b(p, j));
    }
    const double err = static_cast<double>(std::fabs(c(i, j) - ref) / (mag > 0 ? mag : 1));
    row.error = std::max(row.error, err);
    if (std::fabs(c(i, j) - ref) > 2.0L * (n + 2) * eps * mag) row.ok = false;
  }
  progress(row.type + " " + std::to_string(n) + "^3 done", true);
  return row;
}

}  // namespace

const std::string kUsage = weft_app::usage_text(
    "weft-gemm",
    "C = A B with linalg::matrix_product, square LayoutRight matrices: Weft's own kernel and the vendor BLAS\n"
    "(OpenBLAS on the host, cuBLAS on CUDA) in the same run; 64 sampled entries checked in long double.",
    {{"--sizes N,N,...", "matrix sizes (each at most 46340)", "256,512,1024"},
     {"--types T,T", "element types: double and/or float", "double,float"},
     {"--reps K", "timed repetitions of each product (the best is kept)", "3"}});

int main(int argc, char* argv[]) {
  return weft_app::main(argc, argv, "weft-gemm", kUsage, [](weft_app::Args& args) {
    Options o;
    const auto sizes = args.list("--sizes", {});
    if (!sizes.empty()) {
      o.sizes.clear();
      for (const auto& t : sizes) {
        char* end = nullptr;
        const long v = std::strtol(t.c_str(), &end, 10);
        if (*end != '\0' || v < 1)
          weft_app::usage_error("weft-gemm", "--sizes needs positive integers, got \"" + t + "\"");
        if (v > 46340) weft_app::usage_error("weft-gemm", "--sizes " + t + ": n^2 overflows 32-bit BLAS indices");
        o.sizes.push_back(v);
      }
    }
    o.types = args.list("--types", o.types);
    for (const auto& t : o.types)
      if (t != "double" && t != "float")
        weft_app::usage_error("weft-gemm", "--types: \"" + t + "\" is not known; use double and/or float");
    o.reps = static_cast<int>(args.integer("--reps", o.reps, 1000));
    o.progress = args.flag("--progress");
    o.json = args.text("--json", "");
    args.finish();
    std::sort(o.sizes.begin(), o.sizes.end());
    const long biggest = o.sizes.back();
    weft_app::check_memory("weft-gemm", 3.0 * biggest * biggest * 8);
    weft_app::Progress progress("weft-gemm", o.progress);
    std::vector<Row> rows;
    for (const auto& t : o.types)
      for (long n : o.sizes)
        rows.push_back(t == "double" ? run_case<double>(n, o.reps, progress) : run_case<float>(n, o.reps, progress));
    std::printf("weft-gemm: matrix_product C = A B, square LayoutRight, %s with %d thread(s), vendor: %s; best of %d\n",
                Exec::name(), weft_app::threads(), la::vendor_blas_name(), o.reps);
    std::printf("  %-7s %6s %14s %14s %14s %12s\n", "type", "n", "native GFLOP/s", "vendor GFLOP/s", "native/vendor",
                "max rel err");
    bool ok = true;
    double fom = 0;
    weft_app::Result r;
    for (const auto& row : rows) {
      std::printf("  %-7s %6ld %14.2f %14.2f %14.3f %12.2e %s\n", row.type.c_str(), row.n, row.native_gflops,
                  row.vendor_gflops, row.vendor_gflops > 0 ? row.native_gflops / row.vendor_gflops : 0.0, row.error,
                  row.ok ? "" : "WRONG");
      ok = ok && row.ok;
      const std::string key = row.type + "_" + std::to_string(row.n);
      r.metrics.push_back({key + "_native_GFLOPs", row.native_gflops});
      if (row.vendor_gflops > 0) {
        r.metrics.push_back({key + "_vendor_GFLOPs", row.vendor_gflops});
        r.metrics.push_back({key + "_native_over_vendor", row.native_gflops / row.vendor_gflops});
      }
    }
    // the largest double product (or the largest of any type when no double ran)
    const Row* top = nullptr;
    for (const auto& row : rows)
      if (!top || (row.type == "double" && (top->type != "double" || row.n >= top->n)) ||
          (top->type != "double" && row.n >= top->n))
        top = &row;
    if (top) fom = top->native_gflops;
    std::printf("Validation: %s\n", ok ? "PASSED" : "FAILED");
    r.app = "weft-gemm";
    if (la::has_vendor_blas() && Exec::impl_is_host_space) r.info.push_back({"vendor_blas", la::vendor_blas_name()});
    r.fom_name = "native GEMM GFLOP/s (largest size)";
    r.fom_unit = "GFLOP/s";
    r.fom = fom;
    r.valid = ok;
    r.validation = "64 sampled entries per product within 2 k eps sum|a b| of a long-double dot product";
    r.write(o.json);
    return ok ? 0 : 1;
  });
}
