// The Serial backend's runtime: its default instance.
#include <ostream>

#include <weft/serial/space.hpp>

namespace weft::impl {
HostInstance* g_serial_default_instance = nullptr;

void serial_initialize(int) { g_serial_default_instance = host_instance_create("Serial", 1); }
void serial_finalize() {
  host_instance_release(g_serial_default_instance);
  g_serial_default_instance = nullptr;
}
void serial_print_configuration(std::ostream& os) { os << "  Serial: 1 thread\n"; }
}  // namespace weft::impl
