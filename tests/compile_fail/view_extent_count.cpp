// Must not compile: three extents for a rank-2 View with one runtime extent, wrapping a pointer (the constructors
// that device code may call check the count at compile time; allocating ones check it at run time, as Kokkos).
#include <weft/weft.hpp>

int main() {
  double storage[24];
  weft::View<double* [3], weft::HostSpace, weft::MemoryUnmanaged> v(storage, 4, 3, 2);
  return 0;
}
