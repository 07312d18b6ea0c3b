// y^T A x on SharedSpace Views, timed with Kokkos::Timer (the shape of the Kokkos tutorials' exercise 2).
#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  const int N = 1 << 10, M = 1 << 8, nrepeat = 20;
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    using ViewVectorType = Kokkos::View<double*, Kokkos::SharedSpace>;
    using ViewMatrixType = Kokkos::View<double**, Kokkos::SharedSpace>;
    ViewVectorType y("y", N), x("x", M);
    ViewMatrixType A("A", N, M);
    for (int i = 0; i < N; ++i) y(i) = 1 + i % 3;
    for (int j = 0; j < M; ++j) x(j) = 1 + j % 5;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j) A(i, j) = (i + 2 * j) % 7;
    Kokkos::Timer timer;
    double result = 0;
    for (int repeat = 0; repeat < nrepeat; repeat++) {
      result = 0;
      Kokkos::parallel_reduce(
          "yAx", N,
          KOKKOS_LAMBDA(int j, double& update) {
            double temp2 = 0;
            for (int i = 0; i < M; ++i) temp2 += A(j, i) * x(i);
            update += y(j) * temp2;
          },
          result);
    }
    const double time = timer.seconds();
    double expected = 0;  // the same sum in a serial loop (integers: exact in double)
    for (int i = 0; i < N; ++i) {
      double row = 0;
      for (int j = 0; j < M; ++j) row += double((i + 2 * j) % 7) * (1 + j % 5);
      expected += (1 + i % 3) * row;
    }
    if (result != expected) {
      std::printf("  Error: result( %lf ) != solution( %lf )\n", result, expected);
      status = 1;
    }
    std::printf("  N( %d ) M( %d ) nrepeat ( %d ) problem( %g MB ) time( %g s ) %s\n", N, M, nrepeat,
                1.0e-6 * ((N * M + M + N) * sizeof(double)), time, status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
