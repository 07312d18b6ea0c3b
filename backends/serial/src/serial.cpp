// The Serial backend's runtime: its default instance.
#include <ostream>

#include <weft/serial/space.hpp>

namespace weft::impl {
HostInstance* g_serial_default_instance = nullptr;

HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads);

void serial_initialize(int) { host_default_instance(g_serial_default_instance, "Serial", 1); }
// The default instance outlives finalize (Serial objects may still exist); initialize reuses it.
void serial_finalize() {}
void serial_print_configuration(std::ostream& os) { os << "  Serial: 1 thread\n"; }
}  // namespace weft::impl
