// perf/linalg blas_threads: a loop that alternates a Weft kernel (a triad over 2^20 doubles on the OpenMP
// backend) and a vendor dgemv (2048 x 2048 through weft::linalg::matrix_vector_product, Impl::vendor), as an
// application that mixes its own kernels with BLAS calls does. With OpenBLAS's pthreads build its threads and
// Weft's OpenMP threads are two pools on the same cores (each spins for a while after its work); with the OpenMP
// build both are the OpenMP runtime's. Prints the BLAS threading loaded and medians per step over rounds.
// usage: weft-perf-blas-threads [--rounds R (200)]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <weft/linalg.hpp>

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  int rounds = 200;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--rounds") rounds = std::atoi(argv[i + 1]);
  using Exec = weft::DefaultHostExecutionSpace;
  const long n = 1L << 20, m = 2048;
  weft::View<double*, weft::HostSpace> a("a", n), b("b", n), c("c", n), x("x", m), y("y", m);
  weft::View<double**, weft::LayoutRight, weft::HostSpace> A("A", m, m);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> d(-1, 1);
  for (long i = 0; i < n; ++i) b(i) = d(gen), c(i) = d(gen);
  for (long i = 0; i < m; ++i) {
    x(i) = d(gen);
    for (long j = 0; j < m; ++j) A(i, j) = d(gen);
  }
  std::vector<double> t_kernel, t_gemv, t_round;
  for (int r = 0; r < rounds + 5; ++r) {
    const double t0 = omp_get_wtime();
    weft::parallel_for(
        "triad", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(long i) { a(i) = b(i) + 0.5 * c(i); });
    const double t1 = omp_get_wtime();
    weft::linalg::matrix_vector_product(Exec(), A, x, y, weft::linalg::Impl::vendor);
    const double t2 = omp_get_wtime();
    if (r >= 5) {  // the first rounds start the thread pools
      t_kernel.push_back(t1 - t0);
      t_gemv.push_back(t2 - t1);
      t_round.push_back(t2 - t0);
    }
  }
  // check one row of the gemv and one triad element against serial loops
  double y0 = 0;
  for (long j = 0; j < m; ++j) y0 += A(0, j) * x(j);
  if (std::abs(y(0) - y0) > 1e-9 * m || a(n - 1) != b(n - 1) + 0.5 * c(n - 1)) {
    std::fprintf(stderr, "blas_threads: wrong results\n");
    return 1;
  }
  std::printf(
      "blas_threads: %s, %d threads, vendor BLAS threading %s, %d rounds: triad %.3f ms, dgemv %.3f ms, "
      "round %.3f ms (medians)\n",
      Exec::name(), Exec().concurrency(), weft::linalg::vendor_blas_threading(), rounds, median(t_kernel) * 1e3,
      median(t_gemv) * 1e3, median(t_round) * 1e3);
  return 0;
}
