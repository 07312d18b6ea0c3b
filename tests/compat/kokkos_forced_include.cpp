// A Kokkos program that never names Weft: built with -include weft/compat/kokkos.hpp.
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int n = 4096;
    Kokkos::Profiling::ScopedRegion region("kokkos-style region");
    Kokkos::Profiling::pushRegion("inner");
    Kokkos::View<double*> x("x", n);
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, n),
        KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * i; });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double& s) { s += x(i); }, sum);
    Kokkos::fence();
    Kokkos::Profiling::popRegion();
    if (sum != double(n) * (n - 1)) status = 1;
    std::printf("kokkos-style sum %.1f (%s)\n", sum, status ? "WRONG" : "ok");
  }
  Kokkos::finalize();
  return status;
}
