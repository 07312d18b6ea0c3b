// The OpenMP backend's runtime: its default instance and thread count, and its entry in core's backend registry.
#include <omp.h>

#include <cstdlib>
#include <ostream>

#include <weft/host/instances.hpp>
#include <weft/impl/backend_registry.hpp>
#include <weft/openmp/space.hpp>

namespace weft::impl {
HostInstance* g_openmp_default_instance = nullptr;

namespace {
void openmp_initialize(const BackendSettings& s) {
  // Nested parallelism stays off: a dispatch inside a kernel runs inline in its thread.
  omp_set_max_active_levels(1);
  omp_set_dynamic(0);
  const int n = s.num_threads > 0 ? s.num_threads : omp_get_max_threads();
  host_default_instance(g_openmp_default_instance, "OpenMP", n);
}
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
}  // namespace

void register_backend_openmp() {
  BackendEntry e;
  e.name = "OpenMP";
  e.uses_device = false;
  e.initialize = openmp_initialize;
  e.finalize = [] {};  // the default instance outlives finalize (OpenMP objects may still exist); initialize reuses it
  e.fence_all = nullptr;
  e.print_configuration = openmp_print_configuration;
  register_backend(e);
}
}  // namespace weft::impl
