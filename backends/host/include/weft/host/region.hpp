// Exceptions thrown by functors on the host backends. A thread that throws inside a parallel region records the
// first exception and leaves; the threads waiting for it at a barrier (the scan's phase barrier, a team barrier)
// see the region failed and leave too (HostRegionAborted), so that nobody waits forever; the dispatch then
// rethrows in the caller as a weft::Error naming the kernel, with the functor's exception nested
// (std::rethrow_if_nested recovers it); through the Kokkos drop-in, the functor's exception itself, as Kokkos does.
// Serial and OpenMP behave the same.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>

#include <weft/error.hpp>

namespace weft::impl {

/// The state the threads of one host parallel region share.
struct HostRegion {
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // the first exception a thread threw
  std::mutex m;
  std::atomic<int> arrived{0}, generation{0};  // the region's barrier
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> g(m);
    if (!error) error = std::move(e);
    failed.store(true, std::memory_order_release);
  }
};
/// Spins (then yields) until the region's barrier generation leaves `gen`; throws HostRegionAborted when the
/// region failed first (backends/host/src/host.cpp).
void host_region_wait(HostRegion* r, int gen);
/// The region the calling thread runs in (null outside one, and in a dispatch that runs inline).
inline thread_local HostRegion* t_host_region = nullptr;
/// Thrown out of a barrier of a region another thread has failed; caught at the region's edge.
struct HostRegionAborted {};

inline bool host_region_failed() {
  const HostRegion* r = t_host_region;
  return r && r->failed.load(std::memory_order_acquire);
}

/// Called in the catch block of a host dispatch: rethrows the exception in flight as a weft::Error naming the
/// kernel, the original nested (through the Kokkos drop-in, the exception itself), or HostRegionAborted as it is.
/// Out of line (backends/host/src/host.cpp), so that each kernel's dispatch does not compile the messages anew.
[[noreturn]] void host_dispatch_failed(std::string_view label);

/// Runs a host dispatch; an exception from its functor comes back as a weft::Error naming the kernel, with the
/// original nested.
template <class Run>
void host_dispatch(std::string_view label, const Run& run) {
  try {
    run();
  } catch (...) {
    host_dispatch_failed(label);
  }
}

}  // namespace weft::impl
