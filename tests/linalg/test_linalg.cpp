// linalg/: BLAS 1 and sparse (CSR, spmv, CG) against references computed independently on the host in
// long double, on seeded random inputs, on every enabled execution space.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <weft/linalg.hpp>

#include "test_common.hpp"

namespace la = weft::linalg;

namespace {
template <class V, class T>
V make_vector(const char* label, const std::vector<T>& values) {
  V v(label, values.size());
  weft_test::upload(v, values);
  return v;
}
template <class T>
double eps() {
  return std::numeric_limits<T>::epsilon();
}
}  // namespace

TEST_CASE_TEMPLATE("BLAS 1: dot, norms, idx_abs_max, scale, add, copy, swap (double and float)", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(257), std::size_t(100003)}) {
    INFO("n = ", n);
    const auto xv = weft_test::random_values<double>(n, 1000 + n), yv = weft_test::random_values<double>(n, 2000 + n);
    auto x = make_vector<weft::View<double*, M>>("x", xv);
    auto y = make_vector<weft::View<double*, M>>("y", yv);
    long double d = 0, mag = 0, ss = 0, as = 0;
    std::size_t imax = 0;
    for (std::size_t i = 0; i < n; ++i) {
      d += (long double)xv[i] * yv[i];
      mag += std::fabs((long double)xv[i] * yv[i]);
      ss += (long double)xv[i] * xv[i];
      as += std::fabs((long double)xv[i]);
      if (std::fabs(xv[i]) > std::fabs(xv[imax])) imax = i;
    }
    const double bound = (n + 2) * eps<double>() * (double)mag + 1e-300;
    CHECK(std::fabs(la::dot(E(), x, y) - (double)d) <= bound);
    CHECK(std::fabs(la::vector_two_norm(E(), x) - std::sqrt((double)ss)) <=
          (n + 2) * eps<double>() * std::sqrt((double)ss));
    CHECK(std::fabs(la::vector_abs_sum(E(), x) - (double)as) <= (n + 2) * eps<double>() * (double)as);
    CHECK(la::vector_idx_abs_max(E(), x) == imax);

    // float, with the reference in long double and the bound of float accumulation
    std::vector<float> xf(xv.begin(), xv.end()), yf(yv.begin(), yv.end());
    auto x32 = make_vector<weft::View<float*, M>>("x32", xf);
    auto y32 = make_vector<weft::View<float*, M>>("y32", yf);
    long double df = 0, magf = 0;
    for (std::size_t i = 0; i < n; ++i) {
      df += (long double)xf[i] * yf[i];
      magf += std::fabs((long double)xf[i] * yf[i]);
    }
    CHECK(std::fabs(la::dot(E(), x32, y32) - (double)df) <= (n + 2) * eps<float>() * (double)magf + 1e-30);

    // axpy through scaled, z aliasing y; then scale, copy and swap: exact elementwise results
    la::add(E(), la::scaled(2.5, x), y, y);
    auto hy = weft_test::on_host(y);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(hy(i) == 2.5 * xv[i] + yv[i]);
    la::scale(E(), -0.5, x);
    weft::View<double*, M> c("c", n);
    la::copy(E(), x, c);
    la::swap_elements(E(), c, y);
    auto hc = weft_test::on_host(c);
    auto hy2 = weft_test::on_host(y);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(hc(i) == 2.5 * xv[i] + yv[i]);
      REQUIRE(hy2(i) == -0.5 * xv[i]);
    }
  }
}

TEST_CASE_TEMPLATE("BLAS 1 on strided subviews, ties, overflow-safe norm, shape errors", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  weft::View<double**, weft::LayoutRight, M> a("a", 101, 3);
  {
    auto h = weft::create_mirror_view(a);
    for (int i = 0; i < 101; ++i)
      for (int j = 0; j < 3; ++j) h(i, j) = (i % 7) - 3.0 + 10.0 * j;
    weft::deep_copy(a, h);
  }
  auto col0 = weft::subview(a, weft::ALL, 0), col2 = weft::subview(a, weft::ALL, 2);
  double want = 0;
  for (int i = 0; i < 101; ++i) want += ((i % 7) - 3.0) * ((i % 7) - 3.0 + 20.0);
  CHECK(la::dot(E(), col0, col2) == want);  // small integers: exact
  // |-3| first appears at i = 0 and again at i = 7, 14, ...; and +3 at i = 6: the first index wins.
  CHECK(la::vector_idx_abs_max(E(), col0) == 0);
  weft::View<double*, M> empty("empty", 0);
  CHECK(la::vector_idx_abs_max(E(), empty) == 0);
  CHECK(la::vector_two_norm(E(), empty) == 0.0);

  auto big = make_vector<weft::View<double*, M>>("big", std::vector<double>{3e300, -4e300});
  CHECK(la::vector_two_norm(E(), big) == doctest::Approx(5e300).epsilon(1e-14));
  auto tiny = make_vector<weft::View<double*, M>>("tiny", std::vector<double>{3e-300, 4e-300});
  CHECK(la::vector_two_norm(E(), tiny) == doctest::Approx(5e-300).epsilon(1e-14));

  weft::View<double*, M> five("five", 5), six("six", 6);
  CHECK_THROWS_WITH_AS(la::dot(E(), five, six), doctest::Contains("\"five\" has 5 elements but \"six\" has 6"),
                       weft::Error);
  CHECK_THROWS_AS(la::add(E(), five, five, six), weft::Error);
}

TEST_CASE_TEMPLATE("BLAS 1 on complex<double> (host spaces)", E, WEFT_TEST_HOST_SPACES) {
  using C = std::complex<double>;
  std::vector<C> xv, yv;
  const auto re = weft_test::random_values<double>(300, 7), im = weft_test::random_values<double>(300, 8);
  for (int i = 0; i < 300; ++i) {
    xv.emplace_back(re[i], im[i]);
    yv.emplace_back(im[i], -re[i] * 0.5);
  }
  auto x = make_vector<weft::View<C*, weft::HostSpace>>("cx", xv);
  auto y = make_vector<weft::View<C*, weft::HostSpace>>("cy", yv);
  std::complex<long double> d = 0;
  long double as = 0, ss = 0;
  for (int i = 0; i < 300; ++i) {
    d += std::complex<long double>(xv[i]) * std::complex<long double>(yv[i]);
    as += std::fabs((long double)xv[i].real()) + std::fabs((long double)xv[i].imag());
    ss += std::norm(std::complex<long double>(xv[i]));
  }
  const C got = la::dot(E(), x, y);
  CHECK(std::abs(got - C((double)d.real(), (double)d.imag())) <= 1e-12);
  CHECK(la::vector_abs_sum(E(), x) == doctest::Approx((double)as).epsilon(1e-13));
  CHECK(la::vector_two_norm(E(), x) == doctest::Approx(std::sqrt((double)ss)).epsilon(1e-13));
}

namespace {
/// Dense reference of y = alpha A x + beta y from COO triplets, in long double.
std::vector<double> dense_spmv(long rows, const std::vector<int>& I, const std::vector<int>& J,
                               const std::vector<double>& V, const std::vector<double>& x, double alpha, double beta,
                               const std::vector<double>& y0) {
  std::vector<long double> acc(rows, 0);
  for (std::size_t k = 0; k < I.size(); ++k) acc[I[k]] += (long double)V[k] * x[J[k]];
  std::vector<double> y(rows);
  for (long r = 0; r < rows; ++r) y[r] = (double)(alpha * acc[r] + (beta == 0 ? 0.0L : (long double)beta * y0[r]));
  return y;
}
}  // namespace

TEST_CASE_TEMPLATE("CSR from COO (duplicates, any order), spmv with both kernels, beta = 0 with NaN", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const long rows = 131, cols = 67;
  std::mt19937 gen(42);
  std::uniform_int_distribution<int> ri(0, rows - 1), ci(0, cols - 1);
  std::uniform_real_distribution<double> vd(-1, 1);
  std::vector<int> I, J;
  std::vector<double> V;
  for (int k = 0; k < 2000; ++k) {
    I.push_back(ri(gen));
    J.push_back(ci(gen));
    V.push_back(vd(gen));
  }
  I.push_back(I[5]), J.push_back(J[5]), V.push_back(0.125);                           // an explicit duplicate
  for (int k = 0; k < 40; ++k) I.push_back(7), J.push_back(k), V.push_back(0.5 + k);  // one long row
  auto A = la::CsrMatrix<double, int, std::int64_t, M>::from_coo("A", rows, cols, I, J, V);
  CHECK(A.num_rows() == rows);
  {
    auto rm = weft_test::on_host(A.row_map());
    auto ent = weft_test::on_host(A.entries());
    for (long r = 0; r < rows; ++r)
      for (auto k = rm(r) + 1; k < rm(r + 1); ++k) REQUIRE(ent(k - 1) < ent(k));  // sorted, no duplicates left
  }
  const auto xv = weft_test::random_values<double>(cols, 5), y0 = weft_test::random_values<double>(rows, 6);
  auto x = make_vector<weft::View<double*, M>>("x", xv);
  for (auto kernel : {la::SpmvKernel::thread_per_row, la::SpmvKernel::team_per_row, la::SpmvKernel::automatic}) {
    for (double beta : {0.0, -0.75}) {
      std::vector<double> init = y0;
      if (beta == 0.0) init.assign(rows, std::numeric_limits<double>::quiet_NaN());
      auto y = make_vector<weft::View<double*, M>>("y", init);
      la::spmv(E(), 1.5, A, x, beta, y, kernel);
      const auto want = dense_spmv(rows, I, J, V, xv, 1.5, beta, init);
      auto hy = weft_test::on_host(y);
      for (long r = 0; r < rows; ++r) {
        INFO("row ", r, " beta ", beta);
        REQUIRE(std::isfinite(hy(r)));
        REQUIRE(std::fabs(hy(r) - want[r]) <= 1e-13 * (1 + std::fabs(want[r])));
      }
    }
  }
  weft::View<double*, M> wrong("wrong", rows + 1);
  CHECK_THROWS_WITH_AS(la::spmv(E(), 1.0, A, x, 0.0, wrong), doctest::Contains("is 131 x 67"), weft::Error);
  CHECK_THROWS_WITH_AS((la::CsrMatrix<double, int, std::int64_t, M>::from_coo("bad", 3, 3, {0, 3}, {0, 0}, {1.0, 2.0})),
                       doctest::Contains("entry 1 at (3, 0) is outside the 3 x 3 matrix"), weft::Error);
}

TEST_CASE_TEMPLATE("27-point stencil and CG against a manufactured solution (plain and Jacobi)", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const long nx = 9, ny = 10, nz = 11, n = nx * ny * nz;
  auto A = la::stencil_27pt<double, int, std::int64_t, M>(nx, ny, nz);
  CHECK(A.nnz() == static_cast<std::size_t>((3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2)));
  const auto xs = weft_test::random_values<double>(n, 77, 0.5, 2.0);
  auto xstar = make_vector<weft::View<double*, M>>("x*", xs);
  weft::View<double*, M> b("b", n);
  la::spmv(E(), 1.0, A, xstar, 0.0, b);
  for (auto pre : {la::Preconditioner::none, la::Preconditioner::jacobi}) {
    weft::View<double*, M> x("x", n);  // from zero
    const auto res = la::cg_solve(E(), A, b, x, 1e-10, 500, pre);
    CHECK(res.converged);
    CHECK(res.residual <= 1e-10);
    CHECK(res.iterations > 5);
    auto hx = weft_test::on_host(x);
    double err = 0;
    for (long i = 0; i < n; ++i) err = std::max(err, std::fabs(hx(i) - xs[i]));
    CHECK(err <= 1e-8);
  }
}

TEST_CASE("Matrix Market: general, symmetric, pattern; malformed files name the line") {
  // Under the temporary directory, never in the working directory (which may be the source tree).
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/weft_linalg_mm_test_" + std::to_string(getpid()) + "_";
  std::vector<std::string> written;
  struct RemoveFiles {
    std::vector<std::string>& files;
    ~RemoveFiles() {
      for (const auto& f : files) std::remove(f.c_str());
    }
  } remove_files{written};
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + name) << text;
    written.push_back(dir + name);
    return dir + name;
  };
  using Csr = la::CsrMatrix<double, int, std::int64_t, weft::HostSpace>;
  auto g = Csr::from_matrix_market(write("g.mtx",
                                         "%%MatrixMarket matrix coordinate real general\n% comment\n"
                                         "3 4 4\n1 1 2.5\n3 4 -1\n1 1 0.5\n2 3 7\n"));
  CHECK(g.num_rows() == 3);
  CHECK(g.num_cols() == 4);
  CHECK(g.nnz() == 3);  // (1,1) summed
  CHECK(g.values()(0) == 3.0);
  auto s = Csr::from_matrix_market(
      write("s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 4\n2 1 -2\n"));
  CHECK(s.nnz() == 3);
  CHECK(s.entries()(1) == 1);
  CHECK(s.values()(1) == -2.0);
  CHECK(s.values()(2) == -2.0);
  auto p =
      Csr::from_matrix_market(write("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"));
  CHECK(p.values()(0) == 1.0);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("b1.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "2 2 2\n1 1 1.0\n1 x 2.0\n")),
                       doctest::Contains("line 4: an entry must be: row column value"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("b2.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "2 2 3\n1 1 1.0\n")),
                       doctest::Contains("ends after 1 of the 3 announced entries"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("b3.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "2 2 1\n3 1 1.0\n")),
                       doctest::Contains("line 3: entry (3, 1) is outside the 2 x 2 matrix"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("b4.mtx", "%%MatrixMarket matrix array real general\n2 2\n")),
                       doctest::Contains("line 1: format \"array\" is not supported"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(dir + "missing.mtx"), doctest::Contains("cannot open"), weft::Error);
  // Declared sizes are checked before anything is allocated: a 45-byte file cannot ask for exabytes (nor, on a
  // machine of 24 GB, "2147483647 1 0" for 34 GB).
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(
                           write("h1.mtx", "%%MatrixMarket matrix coordinate real general\n900000000000000000 1 0\n")),
                       doctest::Contains("GB to read and convert, but the machine has"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(
                           write("h2.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 2000000000\n1 1 1\n")),
                       doctest::Contains("announces 2000000000 entries, but the rest of the file"), weft::Error);
  // A symmetric file lists one triangle: an entry above the diagonal would be counted twice.
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("h3.mtx",
                                                     "%%MatrixMarket matrix coordinate real symmetric\n"
                                                     "2 2 3\n1 1 1\n2 1 5\n1 2 5\n")),
                       doctest::Contains("line 5: entry (1, 2) is above the diagonal"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("h4.mtx",
                                                     "%%MatrixMarket matrix coordinate integer general\n"
                                                     "2 2 1\n1 1 1.5\n")),
                       doctest::Contains("line 3: the value \"1.5\" is not an integer"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("h5.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "2 2 1\n1 1 nan\n")),
                       doctest::Contains("line 3: the value \"nan\" is not finite"), weft::Error);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(std::string(tmp && *tmp ? tmp : "/tmp")),
                       doctest::Contains("is a directory"), weft::Error);
  // Duplicates summed past double's range, a value past float's, and a NUL byte inside a line: each refused, with
  // the entry or the line (all three were accepted: inf in the matrix, or "1 1 1\0junk" read as "1 1 1").
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("h6.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "2 2 2\n1 2 1e308\n1 2 1e308\n")),
                       doctest::Contains("the duplicate entries at (0, 1) (counting from 0) sum to inf in 64-bit"),
                       weft::Error);
  using CsrF = la::CsrMatrix<float, int, std::int64_t, weft::HostSpace>;
  CHECK_THROWS_WITH_AS(CsrF::from_matrix_market(write("h7.mtx",
                                                      "%%MatrixMarket matrix coordinate real general\n"
                                                      "2 2 1\n2 1 1e39\n")),
                       doctest::Contains("at (2, 1) overflows 32-bit floating point; read the matrix as double"),
                       weft::Error);
  CHECK(CsrF::from_matrix_market(write("h8.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 1e38\n"))
            .values()(0) == 1e38f);
  CHECK_THROWS_WITH_AS(Csr::from_matrix_market(write("h9.mtx", std::string("%%MatrixMarket matrix coordinate real "
                                                                           "general\n2 2 1\n1 1 1\0junk\n",
                                                                           63))),
                       doctest::Contains("line 3: the line holds a NUL byte at column 6"), weft::Error);
  // Blank (and whitespace-only) lines before the size line are accepted, as NIST's mmio accepts them.
  auto blank = Csr::from_matrix_market(
      write("h6.mtx", "%%MatrixMarket matrix coordinate real general\n\n   \n% c\n2 2 1\n2 2 3.5\n"));
  CHECK(blank.nnz() == 1);
  CHECK(blank.values()(0) == 3.5);
}

namespace {
/// A rank-2 View of the given layout with seeded values in [-1, 1), and its host copy as a dense row-major array.
template <class T, class Layout, class M>
weft::View<T**, Layout, M> random_matrix(const char* label, long r, long c, std::uint64_t seed, std::vector<T>& dense) {
  weft::View<T**, Layout, M> v(label, r, c);
  auto h = weft::create_mirror_view(v);
  const auto vals = weft_test::random_values<double>(static_cast<std::size_t>(r * c), seed);
  dense.assign(vals.begin(), vals.end());
  for (long i = 0; i < r; ++i)
    for (long j = 0; j < c; ++j) h(i, j) = dense[i * c + j];
  weft::deep_copy(v, h);
  return v;
}

/// Checks C against alpha op(A) op(B) (+ E) computed in long double, element by element, with the bound
/// 2 k eps sum_p |a_ip b_pj| (+ |e_ij|) of a k-term dot product.
template <class T, class CV>
void check_product(const CV& C, const std::vector<T>& a, bool at, const std::vector<T>& b, bool bt, long m, long n,
                   long k, double alpha, const std::vector<T>* e, long double extra_rel = 0) {
  auto h = weft_test::on_host(C);
  const double eps = std::numeric_limits<T>::epsilon();
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      long double s = 0, mag = 0;
      for (long p = 0; p < k; ++p) {
        const long double x = at ? a[p * m + i] : a[i * k + p], y = bt ? b[j * k + p] : b[p * n + j];
        s += x * y;
        mag += std::fabs(x * y);
      }
      s *= alpha;
      mag *= std::fabs(alpha);
      if (e) {
        s += (*e)[i * n + j];
        mag += std::fabs((long double)(*e)[i * n + j]);
      }
      INFO("C(", i, ", ", j, ") of ", m, " x ", n, " x ", k);
      REQUIRE(std::fabs((long double)h(i, j) - s) <= (2.0L * (k + 2) * eps + extra_rel) * mag + 1e-300L);
    }
}
}  // namespace

TEST_CASE_TEMPLATE("matrix_product: shapes, layouts, transposed and scaled operands, E + A B, NaN in C", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  std::vector<la::Impl> impls{la::Impl::native, la::Impl::automatic};
  if (la::has_vendor_blas() && weft_test::is_host_space_v<E>) impls.push_back(la::Impl::vendor);
#if WEFT_HAS_CUDA
  if constexpr (std::is_same_v<E, weft::Cuda>) impls.push_back(la::Impl::vendor);  // cuBLAS
#endif
  struct Shape {
    long m, n, k;
  };
  for (Shape s :
       {Shape{257, 131, 67}, Shape{150, 70, 300}, Shape{1, 37, 5}, Shape{29, 1, 8}, Shape{7, 9, 0}, Shape{0, 5, 3}}) {
    for (la::Impl impl : impls) {
      INFO("shape ", s.m, " x ", s.n, " x ", s.k, ", impl ", static_cast<int>(impl));
      std::vector<double> a, b, e, at_;
      auto A = random_matrix<double, weft::LayoutLeft, M>("A", s.m, s.k, 11, a);
      auto B = random_matrix<double, weft::LayoutRight, M>("B", s.k, s.n, 12, b);
      weft::View<double**, weft::LayoutLeft, M> C("C", s.m, s.n);
      weft::deep_copy(C, std::numeric_limits<double>::quiet_NaN());  // must not leak into C = A B
      la::matrix_product(E(), A, B, C, impl);
      check_product<double>(C, a, false, b, false, s.m, s.n, s.k, 1.0, nullptr);
      // transposed(A^T stored row-major) and scaled(B): C = 0.5 * op(A) op(B)
      auto AT = random_matrix<double, weft::LayoutRight, M>("AT", s.k, s.m, 13, at_);
      la::matrix_product(E(), la::transposed(AT), la::scaled(0.5, B), C, impl);
      check_product<double>(C, at_, true, b, false, s.m, s.n, s.k, 0.5, nullptr);
      // C = E + A B with E aliasing C (LayoutRight C this time)
      auto C2 = random_matrix<double, weft::LayoutRight, M>("C2", s.m, s.n, 14, e);
      la::matrix_product(E(), A, B, C2, C2, impl);
      check_product<double>(C2, a, false, b, false, s.m, s.n, s.k, 1.0, &e);
    }
  }
  // float, transposed B, through a strided subview of a larger matrix
  std::vector<float> af, bf;
  auto Af = random_matrix<float, weft::LayoutRight, M>("Af", 70, 300, 21, af);
  auto Bbig = random_matrix<float, weft::LayoutRight, M>("Bbig", 40, 310, 22, bf);  // B^T = Bbig(0:40, 0:300)
  std::vector<float> bt(40 * 300);
  for (long j = 0; j < 40; ++j)
    for (long p = 0; p < 300; ++p) bt[j * 300 + p] = bf[j * 310 + p];
  auto Bsub = weft::subview(Bbig, weft::ALL, weft::pair<long, long>(0, 300));
  weft::View<float**, weft::LayoutRight, M> Cf("Cf", 70, 40);
  for (la::Impl impl : impls) {
    la::matrix_product(E(), Af, la::transposed(Bsub), Cf, impl);
    check_product<float>(Cf, af, false, bt, true, 70, 40, 300, 1.0, nullptr);
  }
  weft::View<double**, M> X("X", 3, 4), Y("Y", 5, 2), Z("Z", 3, 2);
  CHECK_THROWS_WITH_AS(la::matrix_product(E(), X, Y, Z),
                       doctest::Contains("A \"X\" is 3 x 4, B \"Y\" 5 x 2, C \"Z\" 3 x 2"), weft::Error);
}

namespace {
/// alpha op(A) op(B) in long double, and sum |a b| (for the error bound), row-major m x n.
template <class T>
void reference_product(const std::vector<T>& a, bool at, const std::vector<T>& b, bool bt, long m, long n, long k,
                       long double alpha, std::vector<long double>& ab, std::vector<long double>& mag) {
  ab.assign(m * n, 0);
  mag.assign(m * n, 0);
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j)
      for (long p = 0; p < k; ++p) {
        const long double x = at ? a[p * m + i] : a[i * k + p], y = bt ? b[j * k + p] : b[p * n + j];
        ab[i * n + j] += alpha * x * y;
        mag[i * n + j] += std::fabs(alpha * x * y);
      }
}
}  // namespace

#if WEFT_IMPL_LINALG_GPU
// Both warp layers of the GPU GEMM on double (DMMA fragments and SIMT register tiles), on shapes that leave
// partial tiles in every direction and k not a multiple of the slab, with each operand layout and transposes;
// float and complex<float> take the SIMT layer. On GpuEmu the DMMA fragments run through shuffles with the
// PTX m8n8k4 lane layout, so a wrong fragment map fails here too.
TEST_CASE("GPU GEMM: DMMA and SIMT warp layers against long double references") {
  using E = weft::DefaultExecutionSpace;
  using M = E::memory_space;
  struct Shape {
    long m, n, k;
  };
  for (Shape s : {Shape{130, 67, 37}, Shape{64, 64, 16}, Shape{3, 129, 100}, Shape{65, 2, 1}}) {
    for (bool mma : {true, false}) {
      INFO("shape ", s.m, " x ", s.n, " x ", s.k, ", mma ", mma);
      std::vector<double> a, b, at_, bt_, e;
      auto A = random_matrix<double, weft::LayoutRight, M>("A", s.m, s.k, 31, a);
      auto B = random_matrix<double, weft::LayoutLeft, M>("B", s.k, s.n, 32, b);
      auto AT = random_matrix<double, weft::LayoutLeft, M>("AT", s.k, s.m, 33, at_);
      auto BT = random_matrix<double, weft::LayoutRight, M>("BT", s.n, s.k, 34, bt_);
      auto C = random_matrix<double, weft::LayoutRight, M>("C", s.m, s.n, 35, e);
      weft::View<double**, weft::LayoutLeft, M> D("D", s.m, s.n);
      la::impl::gpu_gemm::run(E(), A, false, B, false, D, static_cast<const decltype(D)*>(nullptr), 1.0, mma);
      check_product<double>(D, a, false, b, false, s.m, s.n, s.k, 1.0, nullptr);
      la::impl::gpu_gemm::run(E(), AT, true, BT, true, D, static_cast<const decltype(D)*>(nullptr), -2.0, mma);
      check_product<double>(D, at_, true, bt_, true, s.m, s.n, s.k, -2.0, nullptr);
      la::impl::gpu_gemm::run(E(), A, false, BT, true, C, &C, 0.25, mma);  // C = C + 0.25 A B
      check_product<double>(C, a, false, bt_, true, s.m, s.n, s.k, 0.25, &e);
    }
  }
  std::vector<float> af, bf;
  auto Af = random_matrix<float, weft::LayoutLeft, M>("Af", 100, 70, 41, af);
  auto Bf = random_matrix<float, weft::LayoutLeft, M>("Bf", 70, 90, 42, bf);
  weft::View<float**, weft::LayoutRight, M> Cf("Cf", 100, 90);
  la::matrix_product(E(), Af, Bf, Cf);
  check_product<float>(Cf, af, false, bf, false, 100, 90, 70, 1.0, nullptr);
}

// How a GPU GEMM operand lies in memory: row- or column-major, either one element past 16-byte alignment, or with
// no unit stride (every other element of a wider array). Each picks a different slab layout or copy mode.
enum class Lay { right, left, right_offset, left_offset, strided };

/// A seeded random r x c matrix of In in device memory, laid out as `lay`, as a LayoutStride View over `storage`;
/// dense gets its values (as T, row-major).
template <class In, class T, class M>
weft::View<In**, weft::LayoutStride, M> device_matrix(long r, long c, Lay lay, std::uint64_t seed,
                                                      weft::View<In*, M>& storage, std::vector<T>& dense) {
  const long off = (lay == Lay::right_offset || lay == Lay::left_offset) ? 1 : 0;
  const bool left = lay == Lay::left || lay == Lay::left_offset;
  const long sr = lay == Lay::strided ? 2 * c : (left ? 1 : c), sc = lay == Lay::strided ? 2 : (left ? r : 1);
  storage = weft::View<In*, M>("storage", off + 2 * r * c + 1);
  auto h = weft::create_mirror_view(storage);
  const auto vals = weft_test::random_values<double>(static_cast<std::size_t>(r * c), seed);
  dense.resize(r * c);
  for (long i = 0; i < r; ++i)
    for (long j = 0; j < c; ++j)
      dense[i * c + j] = T(h(off + i * sr + j * sc) =
                               In(static_cast<std::conditional_t<sizeof(In) == 2, float, double>>(vals[i * c + j])));
  weft::deep_copy(storage, h);
  return weft::View<In**, weft::LayoutStride, M>(storage.data() + off, weft::LayoutStride(r, sr, c, sc));
}

/// C = A B through the GPU GEMM for every pair of operand layouts, on rings of 2, 3 and 4 stages; extra_rel widens
/// the bound (TF32).
template <class T, class In>
void check_gpu_gemm_layouts(bool mma, long double extra_rel) {
  using E = weft::DefaultExecutionSpace;
  using M = E::memory_space;
  const Lay lays[] = {Lay::right, Lay::left, Lay::right_offset, Lay::left_offset, Lay::strided};
  const int saved = la::impl::gpu_gemm::max_stages;
  for (int stages : {2, 3, 4}) {
    la::impl::gpu_gemm::max_stages = stages;
    // 64-element multiples: 16-byte chunks everywhere; 130 x 67 x 37: partial tiles, slabs and chunks
    for (const auto& shape : {std::array<long, 3>{64, 64, 64}, std::array<long, 3>{130, 67, 37}}) {
      for (Lay la_ : lays)
        for (Lay lb_ : lays) {
          if (stages != 4 && shape[0] != 64 && la_ != lb_) continue;  // keep the emulated run short
          const long m = shape[0], n = shape[1], k = shape[2];
          INFO("stages ", stages, ", ", m, " x ", n, " x ", k, ", layouts ", int(la_), " ", int(lb_), ", mma ", mma);
          weft::View<In*, M> sa, sb;
          std::vector<T> a, b;
          auto A = device_matrix<In, T, M>(m, k, la_, 71, sa, a);
          auto B = device_matrix<In, T, M>(k, n, lb_, 72, sb, b);
          weft::View<T**, weft::LayoutRight, M> D("D", m, n);
          weft::deep_copy(D, std::numeric_limits<T>::quiet_NaN());
          la::impl::gpu_gemm::run(E(), A, false, B, false, D, static_cast<const decltype(D)*>(nullptr), T(1), mma);
          check_product<T>(D, a, false, b, false, m, n, k, 1.0, nullptr, extra_rel);
        }
    }
  }
  la::impl::gpu_gemm::max_stages = saved;
}

// Every warp layer reads its fragments from k-major and k-fast slabs, filled by 16-byte chunks, element copies or
// loads and stores; GpuEmu performs each asynchronous copy at the latest moment a GPU may (the wait) and reports
// any access to a slab in flight, so a missing wait or barrier in the ring fails here.
TEST_CASE("GPU GEMM: every operand layout and copy mode, rings of 2 to 4 stages") {
  check_gpu_gemm_layouts<double, double>(true, 0);   // DMMA
  check_gpu_gemm_layouts<double, double>(false, 0);  // SIMT, 8-byte slabs of 8
  check_gpu_gemm_layouts<float, float>(false, 0);    // SIMT
  la::allow_tf32(true);
  check_gpu_gemm_layouts<float, float>(true, 1.1L * std::ldexp(1.0L, -10));  // TF32
  la::allow_tf32(false);
  check_gpu_gemm_layouts<float, weft::half_t>(true, 0);  // 16-bit tensor cores (32-bit pairs from k-fast slabs)
  check_gpu_gemm_layouts<float, weft::bhalf_t>(false, 0);
}

// A function, not a generic lambda: nvcc takes no extended lambda inside a generic one.
template <class Z>
void check_complex_gemm() {
  using E = weft::DefaultExecutionSpace;
  using M = E::memory_space;
  const long m = 67, n = 45, k = 70;
  {
    using R = typename Z::value_type;
    INFO(sizeof(Z), "-byte complex");
    weft::View<Z**, weft::LayoutLeft, M> A("Az", m, k), B("Bz", k, n), C("Cz", m, n);
    auto ha = weft::create_mirror_view(A);
    auto hb = weft::create_mirror_view(B);
    const auto va = weft_test::random_values<double>(2 * m * k, 101),
               vb = weft_test::random_values<double>(2 * k * n, 102);
    for (long i = 0; i < m * k; ++i) ha(i % m, i / m) = Z(R(va[2 * i]), R(va[2 * i + 1]));
    for (long i = 0; i < k * n; ++i) hb(i % k, i / k) = Z(R(vb[2 * i]), R(vb[2 * i + 1]));
    weft::deep_copy(A, ha);
    weft::deep_copy(B, hb);
    const Z alpha(R(0.5), R(-1));
    la::matrix_product(E(), la::scaled(alpha, A), B, C,
                       la::epilogue(WEFT_LAMBDA(long i, long, Z ab) { return ab + Z(R(i), R(0)); }), la::Impl::native);
    auto h = weft_test::on_host(C);
    long bad = 0;
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) {
        std::complex<long double> s = 0;
        long double mag = 0;
        for (long p = 0; p < k; ++p) {
          const std::complex<long double> x(ha(i, p).real(), ha(i, p).imag()), y(hb(p, j).real(), hb(p, j).imag());
          s += x * y;
          mag += std::abs(x) * std::abs(y);
        }
        s = s * std::complex<long double>(0.5L, -1.0L) + std::complex<long double>(i, 0);
        const std::complex<long double> got(h(i, j).real(), h(i, j).imag());
        bad += !(std::abs(got - s) <= 4.0L * (k + 2) * std::numeric_limits<R>::epsilon() * (2 * mag + i));
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("GPU GEMM: complex<double> and complex<float> through the SIMT layer, with an epilogue") {
  check_complex_gemm<std::complex<double>>();
  check_complex_gemm<std::complex<float>>();
}

TEST_CASE("GPU GEMM: TF32 rounding and the TF32 warp layer (float, when allowed)") {
  namespace g = weft::gpu;
  auto bits = [](float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
  };
  const float one = 1.0f, inf = std::numeric_limits<float>::infinity();
  CHECK(g::to_tf32(one) == bits(one));
  CHECK(g::to_tf32(std::ldexp(1.0f, 0) + std::ldexp(1.0f, -12)) == bits(one));                // below half: down
  CHECK(g::to_tf32(1.0f + std::ldexp(1.0f, -11)) == bits(1.0f + std::ldexp(1.0f, -10)));      // tie: away from 0
  CHECK(g::to_tf32(-1.0f - std::ldexp(1.0f, -11)) == bits(-1.0f - std::ldexp(1.0f, -10)));    // on both signs
  CHECK(g::to_tf32(1.0f + 3 * std::ldexp(1.0f, -12)) == bits(1.0f + std::ldexp(1.0f, -10)));  // above half: up
  CHECK(g::to_tf32(std::numeric_limits<float>::max()) == bits(inf));                          // overflows
  CHECK(g::to_tf32(inf) == bits(inf));
  CHECK((g::to_tf32(std::numeric_limits<float>::quiet_NaN()) & 0x7fffffffu) > 0x7f800000u);  // stays NaN
  CHECK(g::to_tf32(std::numeric_limits<float>::denorm_min()) == 0u);

  using E = weft::DefaultExecutionSpace;
  using M = E::memory_space;
  const long m = 130, n = 67, k = 45;
  std::vector<float> a, b, e;
  auto A = random_matrix<float, weft::LayoutRight, M>("A", m, k, 91, a);
  auto B = random_matrix<float, weft::LayoutLeft, M>("B", k, n, 92, b);
  auto C = random_matrix<float, weft::LayoutRight, M>("C", m, n, 93, e);
  std::vector<long double> ab, mag;
  reference_product(a, false, b, false, m, n, k, 0.5L, ab, mag);
  // Rounding A and B to 10 mantissa bits costs up to 2^-11 relative each: the bound is TF32's, not float's.
  const long double bound = 1.1L * std::ldexp(1.0L, -10) + 2.0L * (k + 2) * std::numeric_limits<float>::epsilon();
  std::vector<la::Impl> impls{la::Impl::native};
#if WEFT_HAS_CUDA
  impls.push_back(la::Impl::vendor);  // cuBLAS in its TF32 math mode
#endif
  REQUIRE(!la::tf32_allowed());
  la::allow_tf32(true);
  for (la::Impl impl : impls) {
    INFO("impl ", static_cast<int>(impl));
    weft::View<float**, weft::LayoutLeft, M> D("D", m, n);
    la::matrix_product(E(), la::scaled(0.5f, A), B, C, D, impl);
    auto h = weft_test::on_host(D);
    long bad = 0;
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j)
        bad += !(std::fabs(h(i, j) - (e[i * n + j] + ab[i * n + j])) <=
                 bound * mag[i * n + j] + 2 * std::numeric_limits<float>::epsilon() * std::fabs(e[i * n + j]));
    CHECK(bad == 0);
  }
  la::allow_tf32(false);
  // Values with low mantissa bits set: the TF32 layer must round them (its products differ from float's), and the
  // default (TF32 not allowed) must not.
  weft::View<float**, weft::LayoutRight, M> X("X", 16, 16), Y("Y", 16, 16), Z("Z", 16, 16);
  weft::deep_copy(X, 1.0f + std::ldexp(1.0f, -12) * 3);  // 1 + 3 * 2^-12: TF32 rounds it to 1 + 2^-10
  weft::deep_copy(Y, 1.0f);
  la::matrix_product(E(), X, Y, Z);
  CHECK(weft_test::on_host(Z)(3, 5) == 16 * (1.0f + std::ldexp(1.0f, -12) * 3));
  la::impl::gpu_gemm::run(E(), X, false, Y, false, Z, static_cast<const decltype(Z)*>(nullptr), 1.0f, true);
  CHECK(weft_test::on_host(Z)(3, 5) == 16 * (1.0f + std::ldexp(1.0f, -10)));
}
#endif

/// half_t / bhalf_t A and B with a float C: the reference multiplies the 16-bit values (exact in long double);
/// the bound is float accumulation's, 2 (k + 2) eps_float sum |a b|.
template <class In, class E>
void check_float16_product(long m, long n, long k, std::uint64_t seed) {
  using M = typename E::memory_space;
  weft::View<In**, weft::LayoutRight, M> A("A16", m, k);
  weft::View<In**, weft::LayoutLeft, M> Bt("B16t", n, k);  // B = Bt^T: transposed operand
  auto ha = weft::create_mirror_view(A);
  auto hb = weft::create_mirror_view(Bt);
  const auto va = weft_test::random_values<float>(static_cast<std::size_t>(m * k), seed),
             vb = weft_test::random_values<float>(static_cast<std::size_t>(n * k), seed + 1),
             ve = weft_test::random_values<float>(static_cast<std::size_t>(m * n), seed + 2);
  std::vector<float> a(m * k), bt(n * k), e(ve);
  for (long i = 0; i < m * k; ++i) a[i] = float(ha(i / k, i % k) = In(va[i]));
  for (long i = 0; i < n * k; ++i) bt[i] = float(hb(i / k, i % k) = In(vb[i]));
  weft::deep_copy(A, ha);
  weft::deep_copy(Bt, hb);
  std::vector<la::Impl> impls{la::Impl::native, la::Impl::automatic};
#if WEFT_HAS_CUDA
  if constexpr (std::is_same_v<E, weft::Cuda>) impls.push_back(la::Impl::vendor);  // cublasGemmEx
#endif
  for (la::Impl impl : impls) {
    INFO("impl ", static_cast<int>(impl));
    weft::View<float**, weft::LayoutRight, M> C("C", m, n);
    weft_test::upload(weft::View<float*, M, weft::MemoryUnmanaged>(C.data(), m * n), ve);
    la::matrix_product(E(), la::scaled(0.5f, A), la::transposed(Bt), C, C, impl);  // C = C + 0.5 A B
    check_product<float>(C, a, false, bt, true, m, n, k, 0.5, &e);
  }
#if WEFT_IMPL_LINALG_GPU
  if constexpr (!E::impl_is_host_space) {  // the SIMT layer on 16-bit inputs too
    weft::View<float**, weft::LayoutLeft, M> D("D", m, n);
    la::impl::gpu_gemm::run(E(), A, false, Bt, true, D, static_cast<const decltype(D)*>(nullptr), 1.0f, false);
    check_product<float>(D, a, false, bt, true, m, n, k, 1.0, nullptr);
  }
#endif
}

TEST_CASE_TEMPLATE("matrix_product with half_t and bhalf_t A and B into float C (16-bit tensor-core tiles on GPUs)", E,
                   WEFT_TEST_EXEC_SPACES) {
  for (const auto& shape : {std::array<long, 3>{131, 67, 45}, std::array<long, 3>{128, 64, 32},
                            std::array<long, 3>{1, 9, 100}, std::array<long, 3>{17, 3, 0}}) {
    const long m = shape[0], n = shape[1], k = shape[2];  // no structured bindings: clang 15 (HIP) cannot capture them
    INFO(m, " x ", n, " x ", k);
    check_float16_product<weft::half_t, E>(m, n, k, 51);
    check_float16_product<weft::bhalf_t, E>(m, n, k, 61);
  }
  weft::View<weft::half_t**, typename E::memory_space> X("X", 2, 3), Y("Y", 3, 2);
  weft::View<float**, typename E::memory_space> Z("Z", 2, 2);
#if WEFT_HAS_CUDA
  if constexpr (!std::is_same_v<E, weft::Cuda>)  // cuBLAS takes them
#endif
    CHECK_THROWS_WITH_AS(la::matrix_product(E(), X, Y, Z, la::Impl::vendor), doctest::Contains("16-bit"), weft::Error);
}

TEST_CASE_TEMPLATE("matrix_product epilogues: bias + ReLU, f(ab, E) with E = C and E apart, 16-bit inputs", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  std::vector<la::Impl> impls{la::Impl::native, la::Impl::automatic};
  if (la::has_vendor_blas() && weft_test::is_host_space_v<E>) impls.push_back(la::Impl::vendor);
#if WEFT_HAS_CUDA
  if constexpr (std::is_same_v<E, weft::Cuda>) impls.push_back(la::Impl::vendor);  // cuBLAS, then one pass
#endif
  const double eps = std::numeric_limits<double>::epsilon();
  // 150 x 70 x 300: k spans two of the host kernel's k-blocks, so the epilogue must wait for the last one.
  for (const auto& shape : {std::array<long, 3>{257, 131, 67}, std::array<long, 3>{150, 70, 300},
                            std::array<long, 3>{7, 9, 0}, std::array<long, 3>{1, 33, 5}}) {
    const long m = shape[0], n = shape[1], k = shape[2];
    for (la::Impl impl : impls) {
      INFO("shape ", m, " x ", n, " x ", k, ", impl ", static_cast<int>(impl));
      std::vector<double> a, b, bias, e, e3;
      auto A = random_matrix<double, weft::LayoutLeft, M>("A", m, k, 71, a);
      auto B = random_matrix<double, weft::LayoutRight, M>("B", k, n, 72, b);
      auto Bias = random_matrix<double, weft::LayoutRight, M>("bias", 1, n, 73, bias);
      std::vector<long double> ab, mag;
      reference_product(a, false, b, false, m, n, k, 0.5L, ab, mag);
      // C = max(0, 0.5 A B + bias(j) - i / 16), into a C full of NaN
      weft::View<double**, weft::LayoutLeft, M> C("C", m, n);
      weft::deep_copy(C, std::numeric_limits<double>::quiet_NaN());
      la::matrix_product(E(), A, la::scaled(0.5, B), C, la::epilogue(WEFT_LAMBDA(long i, long j, double x) {
                           const double v = x + Bias(0, j) - double(i) / 16;
                           return v > 0 ? v : 0.0;
                         }),
                         impl);
      auto h = weft_test::on_host(C);
      long bad = 0;
      for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
          const long double v = ab[i * n + j] + bias[j] - (long double)i / 16;
          const long double tol = 2.0L * (k + 4) * eps * (mag[i * n + j] + std::fabs((long double)bias[j]) + i);
          bad += !(std::fabs(h(i, j) - (v > 0 ? v : 0.0L)) <= tol);
        }
      CHECK(bad == 0);
      // C = 0.25 C - A B: the E operand is C itself, and f sees its old value
      auto C2 = random_matrix<double, weft::LayoutRight, M>("C2", m, n, 74, e);
      la::matrix_product(E(), A, la::scaled(0.5, B), C2, C2,
                         la::epilogue(WEFT_LAMBDA(long, long, double x, double old) { return 0.25 * old - x; }), impl);
      auto h2 = weft_test::on_host(C2);
      bad = 0;
      for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
          const long double want = 0.25L * e[i * n + j] - ab[i * n + j];
          bad += !(std::fabs(h2(i, j) - want) <= 2.0L * (k + 4) * eps * (mag[i * n + j] + std::fabs(e[i * n + j])));
        }
      CHECK(bad == 0);
      // C = (A B) * E with E a different View: not linear in E, so no BLAS beta can stand in for it
      auto E3 = random_matrix<double, weft::LayoutLeft, M>("E3", m, n, 75, e3);
      weft::View<double**, weft::LayoutRight, M> C3("C3", m, n);
      weft::deep_copy(C3, std::numeric_limits<double>::quiet_NaN());
      la::matrix_product(E(), A, la::scaled(0.5, B), E3, C3,
                         la::epilogue(WEFT_LAMBDA(long, long, double x, double f) { return x * f; }), impl);
      auto h3 = weft_test::on_host(C3);
      bad = 0;
      for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
          const long double want = ab[i * n + j] * e3[i * n + j];
          bad += !(std::fabs(h3(i, j) - want) <= 2.0L * (k + 4) * eps * mag[i * n + j] + 1e-300L);
        }
      CHECK(bad == 0);
    }
  }
  // 16-bit inputs into float C with an epilogue (tensor-core tiles on GPUs, float copies on the host)
  const long m = 70, n = 45, k = 40;
  weft::View<weft::bhalf_t**, weft::LayoutRight, M> A16("A16", m, k), B16("B16", k, n);
  auto ha = weft::create_mirror_view(A16);
  auto hb = weft::create_mirror_view(B16);
  const auto va = weft_test::random_values<float>(static_cast<std::size_t>(m * k), 81),
             vb = weft_test::random_values<float>(static_cast<std::size_t>(k * n), 82);
  std::vector<float> af(m * k), bf(k * n);
  for (long i = 0; i < m * k; ++i) af[i] = float(ha(i / k, i % k) = weft::bhalf_t(va[i]));
  for (long i = 0; i < k * n; ++i) bf[i] = float(hb(i / n, i % n) = weft::bhalf_t(vb[i]));
  weft::deep_copy(A16, ha);
  weft::deep_copy(B16, hb);
  weft::View<float**, weft::LayoutRight, M> C16("C16", m, n);
  la::matrix_product(E(), A16, B16, C16, la::epilogue(WEFT_LAMBDA(long, long j, float x) { return 2 * x + float(j); }));
  std::vector<long double> ab, mag;
  reference_product(af, false, bf, false, m, n, k, 1.0L, ab, mag);
  auto h16 = weft_test::on_host(C16);
  long bad = 0;
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j)
      bad += !(std::fabs(h16(i, j) - (2 * ab[i * n + j] + j)) <=
               4.0L * (k + 4) * std::numeric_limits<float>::epsilon() * (mag[i * n + j] + j));
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("matrix_product on complex<double> (host spaces)", E, WEFT_TEST_HOST_SPACES) {
  using C = std::complex<double>;
  const long m = 33, n = 17, k = 41;
  weft::View<C**, weft::HostSpace> A("cA", m, k), B("cB", k, n), R("cC", m, n);
  const auto re = weft_test::random_values<double>(m * k + k * n, 3),
             im = weft_test::random_values<double>(m * k + k * n, 4);
  for (long i = 0; i < m * k; ++i) A(i / k, i % k) = C(re[i], im[i]);
  for (long i = 0; i < k * n; ++i) B(i / n, i % n) = C(re[m * k + i], im[m * k + i]);
  std::vector<la::Impl> impls{la::Impl::native};
  if (la::has_vendor_blas()) impls.push_back(la::Impl::vendor);
  for (la::Impl impl : impls) {
    la::matrix_product(E(), A, B, R, impl);
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) {
        std::complex<long double> s = 0;
        for (long p = 0; p < k; ++p) s += std::complex<long double>(A(i, p)) * std::complex<long double>(B(p, j));
        REQUIRE(std::abs(std::complex<long double>(R(i, j)) - s) <= 1e-13L);
      }
  }
}

TEST_CASE_TEMPLATE("matrix_vector_product: layouts, transposed, scaled, y = z + A x with z aliasing y", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  std::vector<la::Impl> impls = {la::Impl::native, la::Impl::automatic};
  if (E::impl_is_host_space && la::has_vendor_blas()) impls.push_back(la::Impl::vendor);
#if WEFT_HAS_CUDA
  if constexpr (std::is_same_v<E, weft::Cuda>) impls.push_back(la::Impl::vendor);  // cuBLAS
#endif
  for (la::Impl impl : impls)
    for (const auto& shape : {std::pair<long, long>{257, 131}, {1, 40}, {33, 1}, {0, 5}, {6, 0}}) {
      const long m = shape.first, n = shape.second;  // not a structured binding: the lambda below captures them
      INFO(m, " x ", n, " impl ", static_cast<int>(impl));
      std::vector<double> a, xs, ys, ar;
      auto A = random_matrix<double, weft::LayoutLeft, M>("A", m, n, 31, a);
      auto AR = random_matrix<double, weft::LayoutRight, M>("AR", n, m, 32, xs);  // its transpose is m x n
      const auto xv = weft_test::random_values<double>(n, 33), yv = weft_test::random_values<double>(m, 34);
      weft::View<double*, M> x("x", n), y("y", m);
      weft_test::upload(x, xv);
      weft_test::upload(y, yv);
      auto check = [&](const std::vector<double>& mat, bool trans, double alpha, bool plus_y) {
        auto h = weft_test::on_host(y);
        for (long i = 0; i < m; ++i) {
          long double s = 0, mag = 0;
          for (long j = 0; j < n; ++j) {
            const long double e = trans ? mat[j * m + i] : mat[i * n + j];
            s += e * xv[j];
            mag += std::fabs(e * xv[j]);
          }
          const long double want = alpha * s + (plus_y ? yv[i] : 0.0L);
          REQUIRE(std::fabs(h(i) - want) <=
                  2.0L * (n + 2) * std::numeric_limits<double>::epsilon() * (mag + std::fabs((long double)yv[i])) +
                      1e-300L);
        }
      };
      la::matrix_vector_product(E(), A, x, y, y, impl);  // y = y + A x (LayoutLeft: the host column sweep)
      check(a, false, 1.0, true);
      la::matrix_vector_product(E(), la::scaled(-2.0, la::transposed(AR)), x, y, impl);
      check(xs, true, -2.0, false);
      auto ARow = random_matrix<double, weft::LayoutRight, M>("ARow", m, n, 35, ar);  // a dot product per row
      la::matrix_vector_product(E(), ARow, x, y, impl);
      check(ar, false, 1.0, false);
    }
  weft::View<double**, M> A("A", 3, 4);
  weft::View<double*, M> x("x", 5), y("y", 3);
  CHECK_THROWS_WITH_AS(la::matrix_vector_product(E(), A, x, y), doctest::Contains("A \"A\" is 3 x 4, x \"x\" has 5"),
                       weft::Error);
}

TEST_CASE_TEMPLATE("matrix_rank_1_update: A += x y^T, scaled x, LayoutLeft and LayoutRight", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const long m = 37, n = 23;
  std::vector<double> a0;
  auto A = random_matrix<double, weft::LayoutLeft, M>("A", m, n, 41, a0);
  const auto xv = weft_test::random_values<double>(m, 42), yv = weft_test::random_values<double>(n, 43);
  weft::View<double*, M> x("x", m), y("y", n);
  weft_test::upload(x, xv);
  weft_test::upload(y, yv);
  la::matrix_rank_1_update(E(), la::scaled(0.5, x), y, A);
  auto h = weft_test::on_host(A);
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      const double t = (0.5 * xv[i]) * yv[j];  // a fused multiply-add on a GPU may round once instead of twice
      REQUIRE(std::fabs(h(i, j) - (a0[i * n + j] + t)) <=
              4 * std::numeric_limits<double>::epsilon() * (std::fabs(a0[i * n + j]) + std::fabs(t)));
    }
  weft::View<double**, weft::LayoutRight, M> B("B", m, n + 1);
  CHECK_THROWS_WITH_AS(la::matrix_rank_1_update(E(), x, y, B), doctest::Contains("A \"B\" is 37 x 24"), weft::Error);
}

namespace {
/// A well-conditioned triangular matrix in a full n x n array (row-major): the other triangle holds garbage
/// (large values) that a solve must not read; the diagonal is 2 + |r|.
std::vector<double> triangular_values(long n, bool lower, std::uint64_t seed) {
  auto v = weft_test::random_values<double>(static_cast<std::size_t>(n * n), seed);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double& a = v[i * n + j];
      if (i == j)
        a = 2.0 + std::fabs(a);
      else if ((j < i) != lower)
        a = 1e6 * (1 + a);  // outside the triangle
      else
        a /= std::sqrt(double(n));
    }
  return v;
}
/// Solves op(A) x = b in long double on the host; op(A)(i, j) = at ? a[j][i] : a[i][j].
std::vector<long double> reference_solve(const std::vector<double>& a, long n, bool at, bool lower, bool unit,
                                         std::vector<long double> x) {
  auto el = [&](long i, long j) -> long double { return at ? a[j * n + i] : a[i * n + j]; };
  for (long s = 0; s < n; ++s) {
    const long i = lower ? s : n - 1 - s;
    long double r = x[i];
    for (long j = 0; j < n; ++j)
      if (j != i && ((j < i) == lower)) r -= el(i, j) * x[j];
    x[i] = unit ? r : r / el(i, i);
  }
  return x;
}
}  // namespace

TEST_CASE_TEMPLATE("triangular solves: vector and matrix, left and right, upper/lower, unit/explicit, transposed", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  std::vector<la::Impl> impls = {la::Impl::native, la::Impl::automatic};
  if (E::impl_is_host_space && la::has_vendor_blas()) impls.push_back(la::Impl::vendor);
#if WEFT_HAS_CUDA
  if constexpr (std::is_same_v<E, weft::Cuda>) impls.push_back(la::Impl::vendor);  // cuBLAS
#endif
  for (long n : {0L, 1L, 2L, 17L, 130L, 300L})  // 300: three of the host vector solve's 128-row blocks
    for (la::Impl impl : impls) {
      INFO("impl ", static_cast<int>(impl));
      for (bool lower : {true, false})
        for (bool unit : {false, true})
          for (bool trans : {false, true}) {
            INFO("n = ", n, " lower ", lower, " unit ", unit, " transposed ", trans);
            // op(A) is lower when `lower`; stored transposed when `trans`
            const bool stored_lower = lower != trans;
            const auto a = triangular_values(n, stored_lower, 500 + n);
            weft::View<double**, weft::LayoutLeft, M> A("A", n, n);
            {
              auto h = weft::create_mirror_view(A);
              for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j) h(i, j) = a[i * n + j];
              weft::deep_copy(A, h);
            }
            const auto bv = weft_test::random_values<double>(static_cast<std::size_t>(n), 600 + n);
            auto b = make_vector<weft::View<double*, M>>("b", bv);
            weft::View<double*, M> x("x", n);
            auto solve = [&](const auto& tri, const auto& diag, const auto& bb, const auto& xx) {
              if (trans)
                la::triangular_matrix_vector_solve(E(), la::transposed(A), tri, diag, bb, xx, impl);
              else
                la::triangular_matrix_vector_solve(E(), A, tri, diag, bb, xx, impl);
            };
            auto dispatch = [&](const auto& bb, const auto& xx) {
              if (lower && unit) solve(la::lower_triangle, la::implicit_unit_diagonal, bb, xx);
              if (lower && !unit) solve(la::lower_triangle, la::explicit_diagonal, bb, xx);
              if (!lower && unit) solve(la::upper_triangle, la::implicit_unit_diagonal, bb, xx);
              if (!lower && !unit) solve(la::upper_triangle, la::explicit_diagonal, bb, xx);
            };
            dispatch(b, x);
            const auto want = reference_solve(a, n, trans, lower, unit, std::vector<long double>(bv.begin(), bv.end()));
            auto check = [&](const auto& got_view) {
              auto got = weft_test::on_host(got_view);
              for (long i = 0; i < n; ++i)
                REQUIRE(std::fabs(got(i) - want[i]) <= 1e-12L * (1 + std::fabs(want[i])) * (n + 1));
            };
            check(x);
            dispatch(b, b);  // in place
            check(b);
          }
      // Matrix right-hand sides: A X = B (left) and X A = B (right), LayoutRight B, explicit lower / unit upper;
      // one right-hand side (the host's blocked vector solve) and three.
      for (const long k : {1L, 3L}) {
        const auto a = triangular_values(n, true, 700 + n);
        weft::View<double**, weft::LayoutRight, M> A("A", n, n), B("B", n, k), X("X", n, k), BR("BR", k, n),
            XR("XR", k, n);
        const auto bv = weft_test::random_values<double>(static_cast<std::size_t>(n * k), 800 + n);
        {
          auto ha = weft::create_mirror_view(A);
          auto hb = weft::create_mirror_view(B);
          auto hbr = weft::create_mirror_view(BR);
          for (long i = 0; i < n; ++i)
            for (long j = 0; j < n; ++j) ha(i, j) = a[i * n + j];
          for (long i = 0; i < n; ++i)
            for (long r = 0; r < k; ++r) hb(i, r) = hbr(r, i) = bv[i * k + r];
          weft::deep_copy(A, ha);
          weft::deep_copy(B, hb);
          weft::deep_copy(BR, hbr);
        }
        la::triangular_matrix_matrix_left_solve(E(), A, la::lower_triangle, la::explicit_diagonal, B, X, impl);
        // X A = B with A lower  <=>  A^T x^T = b^T, A^T upper: the reference solves with op = transpose
        la::triangular_matrix_matrix_right_solve(E(), A, la::lower_triangle, la::explicit_diagonal, BR, XR, impl);
        auto hx = weft_test::on_host(X);
        auto hxr = weft_test::on_host(XR);
        for (long r = 0; r < k; ++r) {
          std::vector<long double> col(n);
          for (long i = 0; i < n; ++i) col[i] = bv[i * k + r];
          const auto left = reference_solve(a, n, false, true, false, col);
          const auto right = reference_solve(a, n, true, false, false, col);
          for (long i = 0; i < n; ++i) {
            REQUIRE(std::fabs(hx(i, r) - left[i]) <= 1e-12L * (1 + std::fabs(left[i])) * (n + 1));
            REQUIRE(std::fabs(hxr(r, i) - right[i]) <= 1e-12L * (1 + std::fabs(right[i])) * (n + 1));
          }
        }
        la::triangular_matrix_matrix_solve(E(), A, la::lower_triangle, la::explicit_diagonal, B, B, impl);  // in place
        auto hb = weft_test::on_host(B);
        for (long i = 0; i < n; ++i)
          for (long r = 0; r < k; ++r) REQUIRE(hb(i, r) == hx(i, r));
      }
    }
  // The blocked (level-3) native solve: n > 256 and at least 8 right-hand sides; left and right, lower and
  // upper, plain and transposed A, LayoutLeft X (a thread per right-hand side in the diagonal blocks on the host)
  // and LayoutRight X (threads over groups of 32 right-hand sides, rows in order; also the right solve's X^T).
  {
    const long n = 300, k = 40;
    for (bool lower : {true, false})
      for (bool trans : {false, true}) {
        INFO("blocked: lower ", lower, " transposed ", trans);
        const auto a = triangular_values(n, lower != trans, 950 + lower + 2 * trans);
        weft::View<double**, weft::LayoutRight, M> A("A", n, n);
        weft::View<double**, weft::LayoutLeft, M> X("X", n, k), XR("XR", k, n);
        weft::View<double**, weft::LayoutRight, M> XRow("XRow", n, k);
        const auto bv = weft_test::random_values<double>(static_cast<std::size_t>(n * k), 960);
        {
          auto ha = weft::create_mirror_view(A);
          auto hx = weft::create_mirror_view(X);
          auto hxr = weft::create_mirror_view(XR);
          for (long i = 0; i < n; ++i)
            for (long j = 0; j < n; ++j) ha(i, j) = a[i * n + j];
          for (long i = 0; i < n; ++i)
            for (long r = 0; r < k; ++r) hx(i, r) = hxr(r, i) = bv[i * k + r];
          weft::deep_copy(A, ha);
          weft::deep_copy(X, hx);
          weft::deep_copy(XR, hxr);
          weft::deep_copy(XRow, X);
        }
        auto run = [&](const auto& tri) {
          if (trans) {
            la::triangular_matrix_matrix_left_solve(E(), la::transposed(A), tri, la::explicit_diagonal, X, X,
                                                    la::Impl::native);
            la::triangular_matrix_matrix_left_solve(E(), la::transposed(A), tri, la::explicit_diagonal, XRow, XRow,
                                                    la::Impl::native);
            la::triangular_matrix_matrix_right_solve(E(), la::transposed(A), tri, la::explicit_diagonal, XR, XR,
                                                     la::Impl::native);
          } else {
            la::triangular_matrix_matrix_left_solve(E(), A, tri, la::explicit_diagonal, X, X, la::Impl::native);
            la::triangular_matrix_matrix_left_solve(E(), A, tri, la::explicit_diagonal, XRow, XRow, la::Impl::native);
            la::triangular_matrix_matrix_right_solve(E(), A, tri, la::explicit_diagonal, XR, XR, la::Impl::native);
          }
        };
        if (lower)
          run(la::lower_triangle);
        else
          run(la::upper_triangle);
        auto hx = weft_test::on_host(X);
        auto hxr = weft_test::on_host(XR);
        auto hxrow = weft_test::on_host(XRow);
        for (long r = 0; r < k; ++r) {
          std::vector<long double> col(n);
          for (long i = 0; i < n; ++i) col[i] = bv[i * k + r];
          const auto left = reference_solve(a, n, trans, lower, false, col);
          for (long i = 0; i < n; ++i) REQUIRE(std::fabs(hxrow(i, r) - left[i]) <= 1e-11L * (1 + std::fabs(left[i])));
          // X op(A) = B  <=>  op(A)^T x = b: transposition flips, and so does the triangle
          const auto right = reference_solve(a, n, !trans, !lower, false, col);
          for (long i = 0; i < n; ++i) {
            REQUIRE(std::fabs(hx(i, r) - left[i]) <= 1e-11L * (1 + std::fabs(left[i])));
            REQUIRE(std::fabs(hxr(r, i) - right[i]) <= 1e-11L * (1 + std::fabs(right[i])));
          }
        }
      }
  }
  if (!E::impl_is_host_space || !la::has_vendor_blas()) {
    weft::View<double**, M> T("T", 4, 4);
    weft::View<double*, M> v("v", 4);
    CHECK_THROWS_WITH_AS(
        la::triangular_matrix_vector_solve(E(), T, la::upper_triangle, la::explicit_diagonal, v, la::Impl::vendor),
        doctest::Contains("Impl::vendor asked for"), weft::Error);
  }
  weft::View<double**, M> A("A", 3, 4);
  weft::View<double*, M> b("b", 3);
  CHECK_THROWS_WITH_AS(la::triangular_matrix_vector_solve(E(), A, la::upper_triangle, la::explicit_diagonal, b),
                       doctest::Contains("A \"A\" is 3 x 4; a triangular solve needs a square A"), weft::Error);
}

TEST_CASE_TEMPLATE("triangular_matrix_vector_solve on complex<double> and float (host spaces)", E,
                   WEFT_TEST_HOST_SPACES) {
  using C = std::complex<double>;
  const long n = 40;
  const auto re = triangular_values(n, false, 901), im = weft_test::random_values<double>(n * n, 902);
  weft::View<C**, E> A("A", n, n);
  weft::View<float**, E> Af("Af", n, n);
  weft::View<C*, E> x("x", n);
  weft::View<float*, E> xf("xf", n);
  const auto bv = weft_test::random_values<double>(n, 903);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j) {
      A(i, j) = C(re[i * n + j], j > i ? 0.1 * im[i * n + j] : 0.0);
      Af(i, j) = static_cast<float>(re[i * n + j]);
    }
    x(i) = C(bv[i], -bv[i]);
    xf(i) = static_cast<float>(bv[i]);
  }
  la::triangular_matrix_vector_solve(E(), A, la::upper_triangle, la::explicit_diagonal, x);
  la::triangular_matrix_vector_solve(E(), Af, la::upper_triangle, la::explicit_diagonal, xf);
  // residual check in long double: A x - b
  for (long i = 0; i < n; ++i) {
    std::complex<long double> r = -std::complex<long double>(bv[i], -bv[i]);
    long double rf = -bv[i];
    for (long j = i; j < n; ++j) {
      r += std::complex<long double>(A(i, j)) * std::complex<long double>(x(j));
      rf += static_cast<long double>(Af(i, j)) * xf(j);
    }
    CHECK(std::abs(r) <= 1e-13L);
    CHECK(std::fabs(rf) <= 1e-5L);
  }
}

TEST_CASE_TEMPLATE("batched matrix_product: small (one kernel) and large (per batch), scaled, E + A B, NaN in C", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  struct Shape {
    long nb, m, n, k;
  };
  for (Shape s : {Shape{5, 7, 5, 3}, Shape{3, 1, 9, 0}, Shape{0, 4, 4, 4}, Shape{2, 67, 70, 61}}) {
    INFO(s.nb, " x ", s.m, " x ", s.n, " x ", s.k);
    for (auto impl : {la::Impl::native, la::Impl::automatic}) {
      const auto av = weft_test::random_values<double>(static_cast<std::size_t>(s.nb * s.m * s.k), 31),
                 bv = weft_test::random_values<double>(static_cast<std::size_t>(s.nb * s.k * s.n), 32),
                 ev = weft_test::random_values<double>(static_cast<std::size_t>(s.nb * s.m * s.n), 33);
      weft::View<double***, weft::LayoutRight, M> A("A", s.nb, s.m, s.k), C("C", s.nb, s.m, s.n);
      weft::View<double***, weft::LayoutLeft, M> B("B", s.nb, s.k, s.n), Ev("Ev", s.nb, s.m, s.n);
      {
        auto ha = weft::create_mirror_view(A);
        auto hb = weft::create_mirror_view(B);
        auto he = weft::create_mirror_view(Ev);
        for (long q = 0; q < s.nb; ++q) {
          for (long i = 0; i < s.m; ++i)
            for (long p = 0; p < s.k; ++p) ha(q, i, p) = av[(q * s.m + i) * s.k + p];
          for (long p = 0; p < s.k; ++p)
            for (long j = 0; j < s.n; ++j) hb(q, p, j) = bv[(q * s.k + p) * s.n + j];
          for (long i = 0; i < s.m; ++i)
            for (long j = 0; j < s.n; ++j) he(q, i, j) = ev[(q * s.m + i) * s.n + j];
        }
        weft::deep_copy(A, ha);
        weft::deep_copy(B, hb);
        weft::deep_copy(Ev, he);
      }
      weft::deep_copy(C, std::numeric_limits<double>::quiet_NaN());
      auto check = [&](double alpha, bool plus_e, const auto& got_view) {
        auto h = weft_test::on_host(got_view);
        for (long q = 0; q < s.nb; ++q)
          for (long i = 0; i < s.m; ++i)
            for (long j = 0; j < s.n; ++j) {
              long double acc = 0, mag = 0;
              for (long p = 0; p < s.k; ++p) {
                const long double t = (long double)av[(q * s.m + i) * s.k + p] * bv[(q * s.k + p) * s.n + j];
                acc += t;
                mag += std::fabs(t);
              }
              const long double e = plus_e ? ev[(q * s.m + i) * s.n + j] : 0.0L;
              const long double want = alpha * acc + e;
              REQUIRE(std::fabs(h(q, i, j) - want) <=
                      2.0L * (s.k + 2) * eps<double>() * (mag + std::fabs(e)) + 1e-300L);
            }
      };
      la::matrix_product(E(), A, B, C, impl);
      check(1.0, false, C);
      la::matrix_product(E(), la::scaled(0.5, A), B, C, impl);
      check(0.5, false, C);
      la::matrix_product(E(), A, B, Ev, Ev, impl);  // E aliasing C
      check(1.0, true, Ev);
    }
  }
  weft::View<double***, M> A("A", 2, 3, 4), B("B", 2, 5, 6), C("C", 2, 3, 6);
  CHECK_THROWS_WITH_AS(la::matrix_product(E(), A, B, C), doctest::Contains("B \"B\" 2 x 5 x 6"), weft::Error);
}
