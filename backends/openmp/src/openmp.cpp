// The OpenMP backend's runtime: its default instance, thread count and partition_space.
#include <omp.h>

#include <cstdlib>
#include <ostream>

#include <weft/openmp/space.hpp>

namespace weft::impl {
HostInstance* g_openmp_default_instance = nullptr;
HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads);

void openmp_initialize(int nthreads) {
  // Nested parallelism stays off: a dispatch inside a kernel runs inline in its thread.
  omp_set_max_active_levels(1);
  omp_set_dynamic(0);
  const int n = nthreads > 0 ? nthreads : omp_get_max_threads();
  host_default_instance(g_openmp_default_instance, "OpenMP", n);
}
// The default instance outlives finalize (OpenMP objects may still exist); initialize reuses it.
void openmp_finalize() {}
void openmp_print_configuration(std::ostream& os) {
#ifdef _OPENMP
  const long openmp_version = _OPENMP;
#else
  const long openmp_version = 0;  // hip-clang's device pass parses this host code without -fopenmp
#endif
  const char* bind = std::getenv("OMP_PROC_BIND");
  const char* places = std::getenv("OMP_PLACES");
  os << "  OpenMP: " << (g_openmp_default_instance ? g_openmp_default_instance->nthreads : omp_get_max_threads())
     << " threads (" << omp_get_num_procs() << " processors), OMP_PROC_BIND=" << (bind ? bind : "unset")
     << ", OMP_PLACES=" << (places ? places : "unset") << ", OpenMP " << openmp_version << "\n";
}
}  // namespace weft::impl
