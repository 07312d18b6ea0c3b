// Exceptions thrown by functors on the host backends. A thread that throws inside a parallel region records the
// first exception and leaves; the threads waiting for it at a barrier (the scan's phase barrier, a team barrier)
// see the region failed and leave too (HostRegionAborted), so that nobody waits forever; the dispatch then
// rethrows in the caller as a weft::Error naming the kernel, with the functor's exception nested
// (std::rethrow_if_nested recovers it); through the Kokkos drop-in, the functor's exception itself, as Kokkos does.
// Serial and OpenMP behave the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>

#include <weft/error.hpp>
#include <weft/spaces.hpp>

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

/// Waits (spinning, then yielding) until the instance is free and takes it for `self` (backends/host/src/host.cpp).
void host_instance_wait_turn(HostInstance* p, std::uintptr_t self) noexcept;
/// An instance runs the kernels given to it one after the other, as Kokkos's do: two threads that dispatch to one
/// instance at once (the threads of the program's own `omp parallel` region, or std::threads sharing a space) take
/// turns, the second waiting until the first's kernel has finished (Kokkos's ExecSpaceThreadSafety test). A dispatch
/// nested in a kernel runs inline in the kernel's thread and takes no turn, nor does one the thread that holds the turn
/// starts outside the region (a reducer's final step, say). Uncontended: one compare-exchange.
class HostInstanceTurn {
 public:
  explicit HostInstanceTurn(HostInstance* p) : p_(p && !t_in_host_parallel ? p : nullptr) {
    if (!p_) return;
    const std::uintptr_t self = host_turn_token();
    std::uintptr_t seen = 0;
    if (__atomic_compare_exchange_n(&p_->busy, &seen, self, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    if (seen == self) {
      p_ = nullptr;  // this thread's own turn, taken further up
      return;
    }
    host_instance_wait_turn(p_, self);
  }
  ~HostInstanceTurn() {
    if (p_) __atomic_store_n(&p_->busy, 0, __ATOMIC_RELEASE);
  }
  HostInstanceTurn(const HostInstanceTurn&) = delete;
  HostInstanceTurn& operator=(const HostInstanceTurn&) = delete;

 private:
  HostInstance* p_;
};

/// Runs a host dispatch on `instance` (its turn); an exception from its functor comes back as a weft::Error naming
/// the kernel, with the original nested.
template <class Run>
void host_dispatch(std::string_view label, HostInstance* instance, const Run& run) {
  HostInstanceTurn turn(instance);
  try {
    run();
  } catch (...) {
    host_dispatch_failed(label);
  }
}

}  // namespace weft::impl
