// weft-cg: HPCCG/miniFE-style conjugate gradients on the 27-point operator (26 on the diagonal, -1 for each
// neighbour inside the global grid) distributed over ranks as blocks of a Cartesian decomposition.
//
// Each rank's matrix is a weft::linalg::CsrMatrix whose rows are its own grid points and whose columns index
// the ghost-padded local grid, so SpMV reads the search direction p straight from the View that
// comm::Halo (full shape: faces, edges and corners) fills. Dots are local linalg dots plus an allreduce.
// Validation: b = A x* for the manufactured x*(g) = 1 + 0.5 sin(0.37 g0 + 0.11 g1 + 0.23 g2) (g the global
// grid index, so the answer does not depend on the number of ranks); CG from x = 0 must reach the relative
// residual --tol (1e-10) and max |x - x*| <= 2 tol |b|_2 / lambda_min(A) (lambda_min known in closed form). Figures:
// GFLOP/s of the SpMV, dot and axpy phases, the SpMV's bandwidth (bytes counted as HPCG does: 12 per nonzero + 16 per
// row, plus 8 per row for the row offsets) and its ratio to a triad over out-of-cache arrays measured in the same run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <weft/comm.hpp>
#include <weft/linalg.hpp>
#include <weft/weft.hpp>

#include "app_common.hpp"
#include "app_mpi.hpp"

namespace {
using Exec = weft_app::ExecSpace;
using Mem = Exec::memory_space;
using Vec = weft::View<double*, Mem>;
using Grid = weft::View<double***, weft::LayoutRight, Mem>;
using Matrix = weft::linalg::CsrMatrix<double, int, std::int64_t, Mem>;
using Box = weft::MDRangePolicy<Exec, weft::Rank<3>>;

struct Options {
  long n = 48;  // cells per dimension: global (strong) or per rank (weak)
  long max_iter = 500;
  double tol = 1e-10;
  bool weak = false;
  bool progress = false;
  std::string json;
};

struct Phase {
  double seconds = 0, flops = 0;
};

/// The local rows of the distributed 27-point operator, columns in the padded (n+2)^3 numbering.
Matrix build_matrix(const weft::comm::CartesianDecomposition& dec, const long n[3]) {
  const long p1 = n[1] + 2, p2 = n[2] + 2;
  std::vector<std::int64_t> rm{0};
  std::vector<int> ent;
  std::vector<double> val;
  const long rows = n[0] * n[1] * n[2];
  rm.reserve(rows + 1);
  ent.reserve(rows * 27);
  val.reserve(rows * 27);
  for (long i = 1; i <= n[0]; ++i)
    for (long j = 1; j <= n[1]; ++j)
      for (long k = 1; k <= n[2]; ++k) {
        for (long di = -1; di <= 1; ++di)
          for (long dj = -1; dj <= 1; ++dj)
            for (long dk = -1; dk <= 1; ++dk) {
              const long g[3] = {dec.offset(0) + i - 1 + di, dec.offset(1) + j - 1 + dj, dec.offset(2) + k - 1 + dk};
              bool inside = true;
              for (int d = 0; d < 3; ++d) inside = inside && g[d] >= 0 && g[d] < dec.global_extent(d);
              if (!inside) continue;
              ent.push_back(static_cast<int>(((i + di) * p1 + (j + dj)) * p2 + (k + dk)));
              val.push_back(di == 0 && dj == 0 && dk == 0 ? 26.0 : -1.0);
            }
        rm.push_back(static_cast<std::int64_t>(ent.size()));
      }
  return Matrix::from_host_arrays("27-point operator", static_cast<int>(rows), static_cast<int>((n[0] + 2) * p1 * p2),
                                  rm, ent, val);
}

/// row index of interior point (i, j, k) of the padded grid
struct RowOf {
  long n1, n2;
  WEFT_INLINE_FUNCTION std::int64_t operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return ((i - 1) * n1 + (j - 1)) * n2 + (k - 1);
  }
};

/// The distributed CG state and its kernels (member functions: nvcc's device lambdas must sit in named
/// functions, not in local lambdas).
struct Cg {
  const weft::comm::Communicator& world;
  const weft::comm::CartesianDecomposition& dec;
  long n[3];
  long rows;
  Matrix A;
  Grid p;      // the search direction on the padded grid; ghosts outside the global grid stay zero
  Vec p_flat;  // the same memory, as SpMV's x
  Vec x, r, Ap, b, xstar;
  weft::comm::Halo<Grid> halo;
  Exec exec;
  RowOf row_of;
  Box interior;
  Phase spmv_t, dot_t, axpy_t;
  double halo_t = 0;

  Cg(const weft::comm::Communicator& w, const weft::comm::CartesianDecomposition& d)
      : world(w),
        dec(d),
        n{d.local_extent(0), d.local_extent(1), d.local_extent(2)},
        rows(n[0] * n[1] * n[2]),
        A(build_matrix(d, n)),
        p("p", n[0] + 2, n[1] + 2, n[2] + 2),
        p_flat(p.data(), p.span()),
        x("x", rows),
        r("r", rows),
        Ap("Ap", rows),
        b("b", rows),
        xstar("x*", rows),
        halo(d, p, 1, weft::comm::HaloShape::full),
        row_of{n[1], n[2]},
        interior(exec, {1L, 1L, 1L}, {n[0] + 1, n[1] + 1, n[2] + 1}) {}

  template <class F>
  auto timed(Phase& ph, double flops, F&& f) {
    const double t0 = weft_app::now();
    auto result = f();
    exec.fence();
    ph.seconds += weft_app::now() - t0;
    ph.flops += flops;
    return result;
  }

  /// x* on the padded grid and as rows, then b = A x*.
  void manufacture() {
    const long o0 = dec.offset(0), o1 = dec.offset(1), o2 = dec.offset(2);
    auto pp = p;
    auto xs = xstar;
    const RowOf ro = row_of;
    weft::parallel_for(
        "cg::manufactured", interior, WEFT_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) {
          const double v =
              1.0 + 0.5 * sin(0.37 * double(o0 + i - 1) + 0.11 * double(o1 + j - 1) + 0.23 * double(o2 + k - 1));
          pp(i, j, k) = v;
          xs(ro(i, j, k)) = v;
        });
    halo.exchange(exec);
    weft::linalg::spmv(exec, 1.0, A, p_flat, 0.0, b);
    exec.fence();
  }
  double local_dot(const Vec& u, const Vec& v) { return weft::linalg::dot(exec, u, v); }
  double gdot(const Vec& u, const Vec& v) {
    return timed(dot_t, 2.0 * rows, [&] { return world.allreduce(local_dot(u, v), weft::comm::Sum{}); });
  }
  void update_p_kernel(double beta) {
    auto pp = p;
    auto rr = r;
    const RowOf ro = row_of;
    weft::parallel_for(
        "cg::update_p", interior, WEFT_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) {
          pp(i, j, k) = rr(ro(i, j, k)) + beta * pp(i, j, k);
        });
  }
  /// p(interior) = r + beta p(interior)
  void update_p(double beta) {
    timed(axpy_t, 2.0 * rows, [&] {
      update_p_kernel(beta);
      return 0;
    });
  }
  double p_dot_Ap_kernel() {
    auto pp = p;
    auto ap = Ap;
    const RowOf ro = row_of;
    double s = 0;
    weft::parallel_reduce(
        "cg::p_dot_Ap", interior,
        WEFT_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k, double& acc) {
          acc += pp(i, j, k) * ap(ro(i, j, k));
        },
        s);
    return s;
  }
  double p_dot_Ap() {
    return timed(dot_t, 2.0 * rows, [&] { return world.allreduce(p_dot_Ap_kernel(), weft::comm::Sum{}); });
  }
  void update_x_r_kernel(double alpha) {
    auto pp = p;
    auto xx = x;
    auto rr = r;
    auto ap = Ap;
    const RowOf ro = row_of;
    weft::parallel_for(
        "cg::update_x_r", interior, WEFT_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) {
          const auto q = ro(i, j, k);
          xx(q) += alpha * pp(i, j, k);
          rr(q) -= alpha * ap(q);
        });
  }
  /// x += alpha p, r -= alpha Ap
  void update_x_r(double alpha) {
    timed(axpy_t, 4.0 * rows, [&] {
      update_x_r_kernel(alpha);
      return 0;
    });
  }
  /// Ap = A p, after the halo exchange fills p's ghosts.
  void apply_A() {
    const double th = weft_app::now();
    halo.exchange(exec);
    halo_t += weft_app::now() - th;
    timed(spmv_t, 2.0 * static_cast<double>(A.nnz()), [&] {
      weft::linalg::spmv(exec, 1.0, A, p_flat, 0.0, Ap);
      return 0;
    });
  }
  double max_error() {
    auto xx = x;
    auto xs = xstar;
    double err = 0;
    weft::parallel_reduce(
        "cg::error", weft::RangePolicy<Exec>(exec, 0, rows),
        WEFT_LAMBDA(std::int64_t q, double& m) {
          const double e = fabs(xx(q) - xs(q));
          m = e > m ? e : m;
        },
        weft::Max<double>(err));
    return world.allreduce(err, weft::comm::Max{});
  }
  /// The bandwidth of a triad over as many bytes as one SpMV moves on this rank (matrix values and columns, x and
  /// y), median of 12, summed over ranks: the reference for the SpMV's bandwidth, in the same cache regime (out of
  /// cache exactly when the SpMV is), and its cost and memory scale with the problem (a fixed 2^25-element triad
  /// took 768 MiB and most of a small run's time; 38 s of a --n 9 run in the debug build).
  double triad_bandwidth() {
    const double spmv_bytes = static_cast<double>(A.nnz()) * 12.0 + static_cast<double>(rows) * 24.0;
    const long len = std::max<long>(rows, static_cast<long>(spmv_bytes / 24.0));
    Vec ta("ta", len), tb("tb", len), tc("tc", len);
    weft::deep_copy(tb, 1.0);
    weft::deep_copy(tc, 2.0);
    std::vector<double> times;
    for (int rep = 0; rep < 12; ++rep) {
      exec.fence();
      const double s0 = weft_app::now();
      weft::parallel_for(
          "cg::triad", weft::RangePolicy<Exec>(exec, 0, len),
          WEFT_LAMBDA(std::int64_t q) { ta(q) = tb(q) + 0.4 * tc(q); });
      exec.fence();
      times.push_back(weft_app::now() - s0);
    }
    std::sort(times.begin(), times.end());
    return world.allreduce(3.0 * 8.0 * static_cast<double>(len) / times[times.size() / 2], weft::comm::Sum{});
  }
};

int run(const Options& o, const weft::comm::Communicator& world) {
  const int np = world.size(), me = world.rank();
  weft_app::Progress progress("weft-cg", o.progress && me == 0);
  std::vector<long> global{o.n, o.n, o.n};
  if (o.weak) {
    weft::comm::CartesianDecomposition probe(world, {long(np), long(np), long(np)});
    for (int d = 0; d < 3; ++d) global[d] = o.n * probe.dims(d);
  }
  weft::comm::CartesianDecomposition dec(world, global, {false, false, false});
  progress("building the matrix", true);
  Cg cg(world, dec);
  const long rows = cg.rows;
  const double nnz_total = world.allreduce(static_cast<double>(cg.A.nnz()), weft::comm::Sum{});
  const double rows_total = static_cast<double>(global[0]) * global[1] * global[2];
  cg.manufacture();

  // CG from x = 0: r = b, p = r.
  weft::deep_copy(cg.x, 0.0);
  weft::deep_copy(cg.r, cg.b);
  weft::deep_copy(cg.p, 0.0);
  world.barrier();
  const double t0 = weft_app::now();
  const double bnorm = std::sqrt(cg.gdot(cg.b, cg.b));
  double rr = cg.gdot(cg.r, cg.r);
  double rel = std::sqrt(rr) / bnorm;
  cg.update_p(0.0);
  long it = 0;
  while (rel > o.tol && it < o.max_iter) {
    ++it;
    cg.apply_A();
    const double alpha = rr / cg.p_dot_Ap();
    cg.update_x_r(alpha);
    const double rr_new = cg.gdot(cg.r, cg.r);
    rel = std::sqrt(rr_new) / bnorm;
    cg.update_p(rr_new / rr);
    rr = rr_new;
    progress("iteration " + std::to_string(it) + ", residual " + std::to_string(rel));
  }
  cg.exec.fence();
  const double elapsed = world.allreduce(weft_app::now() - t0, weft::comm::Max{});
  const double err = cg.max_error();
  // The error a converged run may have, from the run itself: |x - x*|_inf <= |x - x*|_2 <= |r|_2 / lambda_min(A),
  // and A = 27 I - B (x) B (x) B with B = tridiag(1, 1, 1) per dimension, so lambda_min(A) = 27 - prod_d
  // (1 + 2 cos(pi / (N_d + 1))). Twice the bound at the goal residual (the recurrence's residual drifts from
  // b - A x by rounding), so a correct run never fails it, at any --tol, and a wrong x fails it.
  double top = 1;
  for (int d = 0; d < 3; ++d) top *= 1.0 + 2.0 * std::cos(M_PI / (static_cast<double>(global[d]) + 1.0));
  const double lambda_min = 27.0 - top;
  const double err_limit = 2.0 * o.tol * bnorm / lambda_min;
  const bool ok = rel <= o.tol && err <= err_limit;
  const double triad_bw = cg.triad_bandwidth();

  auto gmax = [&](double v) { return world.allreduce(v, weft::comm::Max{}); };
  auto gsum = [&](double v) { return world.allreduce(v, weft::comm::Sum{}); };
  const double spmv_s = gmax(cg.spmv_t.seconds), dot_s = gmax(cg.dot_t.seconds), axpy_s = gmax(cg.axpy_t.seconds),
               halo_s = gmax(cg.halo_t);
  const double spmv_flops = gsum(cg.spmv_t.flops), dot_flops = gsum(cg.dot_t.flops), axpy_flops = gsum(cg.axpy_t.flops);
  const double spmv_bytes = static_cast<double>(it) * (nnz_total * 12.0 + rows_total * 24.0);
  const double spmv_bw = spmv_s > 0 ? spmv_bytes / spmv_s : 0;
  const double total_gflops = (spmv_flops + dot_flops + axpy_flops) / elapsed * 1e-9;
  (void)rows;
  if (me == 0) {
    std::printf("weft-cg: %ldx%ldx%ld grid (%s scaling), %.0f nonzeros, %d rank(s) as %dx%dx%d, %s with %d thread(s)\n",
                global[0], global[1], global[2], o.weak ? "weak" : "strong", nnz_total, np, dec.dims(0), dec.dims(1),
                dec.dims(2), Exec::name(), weft_app::threads());
    std::printf("  %ld iterations in %.4f s; relative residual %.3e (goal %.1e); max |x - x*| %.3e (limit %.2e)\n", it,
                elapsed, rel, o.tol, err, err_limit);
    std::printf("  %-6s %10s %10s\n", "phase", "seconds", "GFLOP/s");
    std::printf("  %-6s %10.4f %10.3f   (%.2f GB/s = %.2f of the triad's %.2f GB/s)\n", "SpMV", spmv_s,
                spmv_flops / spmv_s * 1e-9, spmv_bw * 1e-9, spmv_bw / triad_bw, triad_bw * 1e-9);
    std::printf("  %-6s %10.4f %10.3f\n", "dot", dot_s, dot_flops / dot_s * 1e-9);
    std::printf("  %-6s %10.4f %10.3f\n", "axpy", axpy_s, axpy_flops / axpy_s * 1e-9);
    std::printf("  halo exchange %.4f s; total %.3f GFLOP/s\n", halo_s, total_gflops);
    std::printf("Validation: %s\n", ok ? "PASSED" : "FAILED");
    weft_app::Result res;
    res.app = "weft-cg";
    res.ranks = np;
    res.fom_name = "CG GFLOP/s";
    res.fom_unit = "GFLOP/s";
    res.fom = total_gflops;
    res.valid = ok;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "relative residual %.2e <= %.0e; max |x - x*| %.2e <= %.2e (2 tol |b| / lambda_min) after %ld "
                  "iterations",
                  rel, o.tol, err, err_limit, it);
    res.validation = buf;
    res.metrics = {{"iterations", double(it)},
                   {"residual", rel},
                   {"max_error", err},
                   {"max_error_limit", err_limit},
                   {"seconds", elapsed},
                   {"spmv_gflops", spmv_flops / spmv_s * 1e-9},
                   {"dot_gflops", dot_flops / dot_s * 1e-9},
                   {"axpy_gflops", axpy_flops / axpy_s * 1e-9},
                   {"spmv_GBps", spmv_bw * 1e-9},
                   {"triad_GBps", triad_bw * 1e-9},
                   {"spmv_over_triad", spmv_bw / triad_bw},
                   {"halo_seconds", halo_s}};
    res.write(o.json);
  }
  return ok ? 0 : 1;
}
}  // namespace

const std::string kUsage = weft_app::usage_text(
    "weft-cg",
    "Conjugate gradients on the 27-point operator (HPCCG/miniFE style), rows distributed over the ranks, halo\n"
    "before each SpMV; validated by the residual and the error against a manufactured solution.",
    {{"--n N", "grid points per dimension: of the whole grid, or per rank with --weak", "48"},
     {"--weak", "weak scaling: every rank owns N^3 points", "off: strong, N^3 points in all"},
     {"--max-iter K", "CG iterations at most", "500"},
     {"--tol T", "relative residual to reach", "1e-10"}},
    true);

int main(int argc, char* argv[]) {
  return weft_app::main(argc, argv, "weft-cg", kUsage, [](weft_app::Args& args) {
    Options o;
    o.n = args.integer("--n", o.n, 1L << 16);
    o.weak = args.flag("--weak");
    o.max_iter = args.integer("--max-iter", o.max_iter, 1L << 30);
    o.tol = args.real("--tol", o.tol);
    o.progress = args.flag("--progress");
    o.json = args.text("--json", "");
    args.finish();
    if (o.n < 2) weft_app::usage_error("weft-cg", "--n " + std::to_string(o.n) + " is too small: give at least 2");
    auto world = weft::comm::world();
    weft_app::agree_parameters(
        world, "weft-cg",
        {{"--n", double(o.n)}, {"--max-iter", double(o.max_iter)}, {"--tol", o.tol}, {"--weak", double(o.weak)}});
    const double local = std::pow(static_cast<double>(o.n), 3) / (o.weak ? 1.0 : world.size());
    // 27 nonzeros x 12 bytes + 8 vectors, with 32-bit column indices into the padded local grid
    if (std::pow(static_cast<double>(o.n + 2), 3) / (o.weak ? 1.0 : world.size()) > 2.0e9)
      weft_app::usage_error("weft-cg", "--n " + std::to_string(o.n) + " gives more local grid points than 32-bit " +
                                           "column indices address; use more ranks or a smaller grid");
    weft_app::check_memory("weft-cg", local * (27 * 12 + 8 * 8 + 27 * 12 /* host build */), world.local_size());
    return run(o, world);
  });
}
