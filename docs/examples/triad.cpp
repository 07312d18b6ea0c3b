// The kernel that docs/how-it-runs.md follows from source to the GPU (and to the OpenMP loop).
#include <cstdio>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  const long n = 1 << 24;
  weft::View<double*> a("a", n), b("b", n), c("c", n);
  weft::deep_copy(b, 1.0);
  weft::deep_copy(c, 2.0);
  const double s = 0.4;
  weft::parallel_for(
      "triad", weft::RangePolicy<>(0, n), WEFT_LAMBDA(long i) { a(i) = b(i) + s * c(i); });
  weft::fence();
  double check = 0;
  weft::parallel_reduce(
      "check", n, WEFT_LAMBDA(long i, double& acc) { acc += a(i); }, check);
  std::printf("%s: sum %.1f (expected %.1f)\n", weft::DefaultExecutionSpace::name(), check, 1.8 * n);
  return check == 1.8 * n ? 0 : 1;
}
