// A Kokkos name the drop-in does not provide stops the build with one line naming it.
#include <Kokkos_Core.hpp>

int main() {
  Kokkos::DualView<double*> dv("dv", 10);
  return 0;
}
