// The Serial backend's runtime: its default instance and its entry in core's backend registry.
#include <ostream>

#include <weft/host/instances.hpp>
#include <weft/impl/backend_registry.hpp>
#include <weft/serial/space.hpp>

namespace weft::impl {
HostInstance* g_serial_default_instance = nullptr;

void register_backend_serial() {
  BackendEntry e;
  e.name = "Serial";
  e.uses_device = false;
  e.initialize = [](const BackendSettings&) { host_default_instance(g_serial_default_instance, "Serial", 1); };
  e.finalize = [] {};  // the default instance outlives finalize (Serial objects may still exist); initialize reuses it
  e.fence_all = nullptr;
  e.print_configuration = [](std::ostream& os) { os << "  Serial: 1 thread\n"; };
  register_backend(e);
}
}  // namespace weft::impl
