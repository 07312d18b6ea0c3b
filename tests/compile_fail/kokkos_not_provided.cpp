// A Kokkos name the drop-in does not provide stops the build with one line naming it.
#include <Kokkos_Core.hpp>

int main() {
  Kokkos::DynRankView<double> v("v", 3, 4);
  return 0;
}
