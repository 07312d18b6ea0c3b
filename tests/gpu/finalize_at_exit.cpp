// weft::finalize from an atexit handler registered before the first device allocation, as CloverLeaf's Kokkos model
// registers Kokkos::finalize: the device pools (function-local statics) are created after that handler and so
// destroyed before it runs. finalize must still end the program (it hung on the freed pool's mutex).
#include <cstdio>
#include <cstdlib>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::initialize(argc, argv);
  std::atexit([] { weft::finalize(); });
  {
    weft::View<double*, weft::DefaultExecutionSpace::memory_space> v("v", 1000);  // the pool's first allocation
    weft::deep_copy(v, 1.5);
    double sum = 0;
    weft::parallel_reduce(
        "sum", weft::RangePolicy<>(0, 1000), WEFT_LAMBDA(int i, double& s) { s += v(i); }, sum);
    if (sum != 1500.0) {
      std::printf("finalize_at_exit: sum %g, expected 1500\n", sum);
      return 1;
    }
  }
  std::printf("finalize_at_exit: returning from main; weft::finalize runs at exit\n");
  return 0;
}
