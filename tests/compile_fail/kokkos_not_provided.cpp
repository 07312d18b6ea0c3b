// A Kokkos name the drop-in does not provide stops the build with one line naming it.
#include <Kokkos_Core.hpp>

int main() {
  Kokkos::UnorderedMap<int, double> map(10);
  return 0;
}
