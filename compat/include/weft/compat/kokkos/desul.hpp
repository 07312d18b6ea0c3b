// The few desul (Kokkos's atomics library) names that Kokkos programs and Kokkos's tests call directly:
// atomic_fetch_inc_mod / atomic_fetch_dec_mod with their memory-order and scope tags, on Weft's atomics.
#pragma once

#include <weft/atomics.hpp>

namespace desul {
struct MemoryOrderRelaxed {};
struct MemoryOrderAcquire {};
struct MemoryOrderRelease {};
struct MemoryOrderAcqRel {};
struct MemoryOrderSeqCst {};
struct MemoryScopeDevice {};
struct MemoryScopeCore {};
struct MemoryScopeNode {};
struct MemoryScopeSystem {};

/// *p = (*p >= wrap) ? 0 : *p + 1; returns the old value (unsigned counters that wrap at `wrap`).
template <class T, class Order, class Scope>
WEFT_INLINE_FUNCTION T atomic_fetch_inc_mod(T* p, T wrap, Order, Scope) {
  return ::weft::impl::atomic_fetch_op(p, [wrap](const T& o) { return o >= wrap ? T(0) : T(o + 1); });
}
/// *p = (*p == 0 || *p > wrap) ? wrap : *p - 1; returns the old value.
template <class T, class Order, class Scope>
WEFT_INLINE_FUNCTION T atomic_fetch_dec_mod(T* p, T wrap, Order, Scope) {
  return ::weft::impl::atomic_fetch_op(p, [wrap](const T& o) { return o == 0 || o > wrap ? wrap : T(o - 1); });
}
}  // namespace desul
