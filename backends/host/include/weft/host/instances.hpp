// The host backends' instances (backends/host/src/host.cpp): a space's default instance, created at its
// backend's initialize.
#pragma once

#include <weft/spaces.hpp>

namespace weft::impl {
/// The default instance of a host space, created on first use and resized to `nthreads` at each initialize.
HostInstance* host_default_instance(HostInstance*& slot, const char* space_name, int nthreads);
}  // namespace weft::impl
