// A Kokkos header the drop-in does not provide stops the build with one line naming what it lacks.
#include <Kokkos_Core.hpp>
#include <Kokkos_TaskScheduler.hpp>

int main() { return 0; }
