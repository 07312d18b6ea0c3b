// kokkos_malloc / kokkos_realloc / kokkos_free in the default memory space, wrapped in unmanaged Views, and the
// memory spaces' execution_space / device_type as generic code reads them.
#include <Kokkos_Core.hpp>

template <class MemorySpace>
int run(const char* name) {
  using exec = typename MemorySpace::execution_space;
  using device = typename MemorySpace::device_type;
  static_assert(std::is_same_v<typename device::memory_space, MemorySpace>);
  const int n = 5000;
  auto* p = static_cast<int*>(Kokkos::kokkos_malloc<MemorySpace>("block", n * sizeof(int)));
  Kokkos::View<int*, device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> v(p, n);
  Kokkos::parallel_for(
      "iota", Kokkos::RangePolicy<exec>(0, n), KOKKOS_LAMBDA(int i) { v(i) = 3 * i; });
  Kokkos::fence();
  p = static_cast<int*>(Kokkos::kokkos_realloc<MemorySpace>(p, 2 * n * sizeof(int)));
  Kokkos::View<int*, device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> w(p, 2 * n);
  long sum = 0;
  Kokkos::parallel_reduce(
      "sum", Kokkos::RangePolicy<exec>(0, n), KOKKOS_LAMBDA(int i, long& s) { s += w(i); }, sum);
  Kokkos::kokkos_free<MemorySpace>(p);
  const long expected = 3L * n * (n - 1) / 2;
  std::printf("%s: kept %ld of %ld after kokkos_realloc %s\n", name, sum, expected,
              sum == expected ? "PASSED" : "FAILED");
  return sum == expected ? 0 : 1;
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = run<Kokkos::HostSpace>("HostSpace");
  status |= run<Kokkos::DefaultExecutionSpace::memory_space>(Kokkos::DefaultExecutionSpace::memory_space::name());
  Kokkos::finalize();
  return status;
}
