// A Kokkos program (through the drop-in) that builds an invalid RangePolicy must end as under Kokkos: the message,
// naming Kokkos::RangePolicy, then abort() (Kokkos's death tests rely on it). weft::Error is not raised.
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  try {
    Kokkos::RangePolicy<> p(100, 90);
    std::printf("no abort: [%ld, %ld)\n", long(p.begin()), long(p.end()));
  } catch (const std::exception& e) {
    std::printf("raised instead of aborting: %s\n", e.what());
  }
  return 0;
}
