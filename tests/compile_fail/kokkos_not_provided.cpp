// A Kokkos name the drop-in does not provide stops the build with one line naming it.
#include <Kokkos_Core.hpp>

int main() {
  Kokkos::complex<double> z(1.0, 2.0);
  return 0;
}
