// A Kokkos name the drop-in does not provide stops the build with one line naming it.
#include <Kokkos_Core.hpp>

int main() {
  Kokkos::MemoryPool<Kokkos::DefaultExecutionSpace> pool(3);
  return 0;
}
