// Atomic operations on any trivially copyable type, and AtomicRef (the Atomic memory trait's reference).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <weft/macros.hpp>

namespace weft {
namespace impl {

template <class T>
inline constexpr bool atomic_via_integer_v = std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8) &&
                                             !std::is_integral_v<T>;
template <class T>
using atomic_uint_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

inline void cpu_relax() {  // host only
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Striped spin locks for types without a native atomic of their size (complex<double>, structs).
inline int g_atomic_locks[4096];
struct AtomicLockGuard {
  int* lock;
  explicit AtomicLockGuard(const void* p) : lock(&g_atomic_locks[(reinterpret_cast<std::uintptr_t>(p) >> 4) & 4095]) {
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
      while (__atomic_load_n(lock, __ATOMIC_RELAXED)) cpu_relax();
    }
  }
  ~AtomicLockGuard() { __atomic_store_n(lock, 0, __ATOMIC_RELEASE); }
};

template <class T>
WEFT_INLINE_FUNCTION T bits_to(atomic_uint_t<T> u) {
  T t;
  std::memcpy(&t, &u, sizeof(T));
  return t;
}
template <class T>
WEFT_INLINE_FUNCTION atomic_uint_t<T> to_bits(const T& t) {
  atomic_uint_t<T> u;
  std::memcpy(&u, &t, sizeof(T));
  return u;
}

#if WEFT_IMPL_DEVICE_PASS
/// The device backend's compare-and-swap on a 4- or 8-byte word (backends/gpu/include/weft/gpu/atomics.hpp).
template <class U>
__device__ inline U device_compare_and_swap(U* p, U expected, U desired);
/// Never defined: a device atomic on a type that is neither 4 nor 8 bytes stops the build at this name (ptxas:
/// "Unresolved extern function ...weft_error_device_atomics_need_a_4_or_8_byte_type..."). Host code in the same
/// file may use such atomics (they take a lock there); only device code that does fails.
__device__ void weft_error_device_atomics_need_a_4_or_8_byte_type();
template <class T>
using device_word_t = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

/// Device: a compare-and-swap loop on the 32- or 64-bit word that holds the value.
template <class T, class Op>
__device__ inline T device_fetch_op(T* p, Op op) {
  if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
    weft_error_device_atomics_need_a_4_or_8_byte_type();
    return *p;
  } else {
    using U = device_word_t<T>;
    U* up = reinterpret_cast<U*>(p);
    U old = *reinterpret_cast<volatile U*>(up);
    while (true) {
      T o;
      memcpy(&o, &old, sizeof(T));
      const T n = op(o);
      U nu;
      memcpy(&nu, &n, sizeof(T));
      const U seen = device_compare_and_swap(up, old, nu);
      if (seen == old) return o;
      old = seen;
    }
  }
}
#endif

/// Applies `op(old)` atomically and returns the old value.
template <class T, class Op>
WEFT_INLINE_FUNCTION T atomic_fetch_op(T* p, Op op) {
#if WEFT_IMPL_DEVICE_PASS
  return device_fetch_op(p, op);
#else
  if constexpr (std::is_integral_v<T> || atomic_via_integer_v<T>) {
    using U = std::conditional_t<std::is_integral_v<T>, T, atomic_uint_t<T> >;
    U* up = reinterpret_cast<U*>(p);
    U old = __atomic_load_n(up, __ATOMIC_RELAXED);
    while (true) {
      T o;
      std::memcpy(&o, &old, sizeof(T));
      const T n = op(o);
      U nu;
      std::memcpy(&nu, &n, sizeof(T));
      if (__atomic_compare_exchange_n(up, &old, nu, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return o;
    }
  } else {
    AtomicLockGuard g(p);
    T o = *p;
    *p = op(o);
    return o;
  }
#endif
}
}  // namespace impl

template <class T>
WEFT_INLINE_FUNCTION T atomic_load(const T* p) {
#if WEFT_IMPL_DEVICE_PASS
  return *reinterpret_cast<const volatile T*>(p);
#else
  if constexpr (std::is_integral_v<T>) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
  } else if constexpr (impl::atomic_via_integer_v<T>) {
    return impl::bits_to<T>(__atomic_load_n(reinterpret_cast<const impl::atomic_uint_t<T>*>(p), __ATOMIC_RELAXED));
  } else {
    impl::AtomicLockGuard g(p);
    return *p;
  }
#endif
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_store(T* p, std::type_identity_t<T> v) {
#if WEFT_IMPL_DEVICE_PASS
  (void)impl::device_fetch_op(p, [v](const T&) { return v; });
#else
  if constexpr (std::is_integral_v<T>) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
  } else if constexpr (impl::atomic_via_integer_v<T>) {
    __atomic_store_n(reinterpret_cast<impl::atomic_uint_t<T>*>(p), impl::to_bits(v), __ATOMIC_RELAXED);
  } else {
    impl::AtomicLockGuard g(p);
    *p = v;
  }
#endif
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_exchange(T* p, std::type_identity_t<T> v) {
  return impl::atomic_fetch_op(p, [v](const T&) { return v; });
}
/// Stores `desired` if `*p == expected`; returns the old value (Kokkos semantics).
template <class T>
WEFT_INLINE_FUNCTION T atomic_compare_exchange(T* p, std::type_identity_t<T> expected,
                                               std::type_identity_t<T> desired) {
#if WEFT_IMPL_DEVICE_PASS
  if constexpr (sizeof(T) != 4 && sizeof(T) != 8) {
    impl::weft_error_device_atomics_need_a_4_or_8_byte_type();
    return *p;
  } else {
    using U = impl::device_word_t<T>;
    U e, d;
    memcpy(&e, &expected, sizeof(T));
    memcpy(&d, &desired, sizeof(T));
    const U r = impl::device_compare_and_swap(reinterpret_cast<U*>(p), e, d);
    T out;
    memcpy(&out, &r, sizeof(T));
    return out;
  }
#else
  if constexpr (std::is_integral_v<T> || impl::atomic_via_integer_v<T>) {
    using U = std::conditional_t<std::is_integral_v<T>, T, impl::atomic_uint_t<T> >;
    U e;
    U d;
    std::memcpy(&e, &expected, sizeof(T));
    std::memcpy(&d, &desired, sizeof(T));
    __atomic_compare_exchange_n(reinterpret_cast<U*>(p), &e, d, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    T r;
    std::memcpy(&r, &e, sizeof(T));
    return r;
  } else {
    impl::AtomicLockGuard g(p);
    T o = *p;
    if (std::memcmp(&o, &expected, sizeof(T)) == 0) *p = desired;
    return o;
  }
#endif
}

#if WEFT_IMPL_DEVICE_PASS
#define WEFT_IMPL_ATOMIC_FETCH(NAME, INTRINSIC, EXPR)                                  \
  template <class T>                                                                   \
  WEFT_INLINE_FUNCTION T atomic_fetch_##NAME(T* p, std::type_identity_t<T> v) {        \
    return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(EXPR); }); \
  }
#else
#define WEFT_IMPL_ATOMIC_FETCH(NAME, INTRINSIC, EXPR)                                    \
  template <class T>                                                                     \
  WEFT_INLINE_FUNCTION T atomic_fetch_##NAME(T* p, std::type_identity_t<T> v) {          \
    if constexpr (std::is_integral_v<T>) {                                               \
      return INTRINSIC(p, v, __ATOMIC_RELAXED);                                          \
    } else {                                                                             \
      return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(EXPR); }); \
    }                                                                                    \
  }
#endif
#if WEFT_IMPL_DEVICE_PASS
/// atomicAdd where the hardware has it; the others take the compare-and-swap loop.
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_add(T* p, std::type_identity_t<T> v) {
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, unsigned long long> ||
                std::is_same_v<T, float> || std::is_same_v<T, double>)
    return atomicAdd(p, v);
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
    return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  else
    return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(o + v); });
}
#else
WEFT_IMPL_ATOMIC_FETCH(add, __atomic_fetch_add, o + v)
#endif
WEFT_IMPL_ATOMIC_FETCH(sub, __atomic_fetch_sub, o - v)
WEFT_IMPL_ATOMIC_FETCH(and, __atomic_fetch_and, o& v)
WEFT_IMPL_ATOMIC_FETCH(or, __atomic_fetch_or, o | v)
WEFT_IMPL_ATOMIC_FETCH(xor, __atomic_fetch_xor, o ^ v)
#undef WEFT_IMPL_ATOMIC_FETCH

template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_mul(T* p, std::type_identity_t<T> v) {
  return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(o * v); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_div(T* p, std::type_identity_t<T> v) {
  return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(o / v); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_min(T* p, std::type_identity_t<T> v) {
#if WEFT_IMPL_DEVICE_PASS
  return impl::device_fetch_op(p, [v](const T& o) { return v < o ? v : o; });
#else
  T old = atomic_load(p);
  while (v < old) {  // no store when the value would not change
    const T seen = atomic_compare_exchange(p, old, v);
    if (std::memcmp(&seen, &old, sizeof(T)) == 0) break;
    old = seen;
  }
  return old;
#endif
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_max(T* p, std::type_identity_t<T> v) {
#if WEFT_IMPL_DEVICE_PASS
  return impl::device_fetch_op(p, [v](const T& o) { return o < v ? v : o; });
#else
  T old = atomic_load(p);
  while (old < v) {
    const T seen = atomic_compare_exchange(p, old, v);
    if (std::memcmp(&seen, &old, sizeof(T)) == 0) break;
    old = seen;
  }
  return old;
#endif
}

template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_mod(T* p, std::type_identity_t<T> v) {
  return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(o % v); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_nand(T* p, std::type_identity_t<T> v) {
  return impl::atomic_fetch_op(p, [v](const T& o) { return static_cast<T>(~(o & v)); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_lshift(T* p, unsigned shift) {
  return impl::atomic_fetch_op(p, [shift](const T& o) { return static_cast<T>(o << shift); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_rshift(T* p, unsigned shift) {
  return impl::atomic_fetch_op(p, [shift](const T& o) { return static_cast<T>(o >> shift); });
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_inc(T* p) {
  return atomic_fetch_add(p, T(1));
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_fetch_dec(T* p) {
  return atomic_fetch_sub(p, T(1));
}

// The op_fetch forms (the new value) and the void forms of each atomic_fetch_op above, as Kokkos names them.
#define WEFT_IMPL_ATOMIC_OP_FETCH(NAME, ARG, NEW)             \
  template <class T>                                          \
  WEFT_INLINE_FUNCTION T atomic_##NAME##_fetch(T* p, ARG v) { \
    const T o = atomic_fetch_##NAME(p, v);                    \
    return static_cast<T>(NEW);                               \
  }                                                           \
  template <class T>                                          \
  WEFT_INLINE_FUNCTION void atomic_##NAME(T* p, ARG v) {      \
    (void)atomic_fetch_##NAME(p, v);                          \
  }
WEFT_IMPL_ATOMIC_OP_FETCH(mul, std::type_identity_t<T>, o* v)
WEFT_IMPL_ATOMIC_OP_FETCH(div, std::type_identity_t<T>, o / v)
WEFT_IMPL_ATOMIC_OP_FETCH(mod, std::type_identity_t<T>, o % v)
WEFT_IMPL_ATOMIC_OP_FETCH(and, std::type_identity_t<T>, o& v)
WEFT_IMPL_ATOMIC_OP_FETCH(or, std::type_identity_t<T>, o | v)
WEFT_IMPL_ATOMIC_OP_FETCH(xor, std::type_identity_t<T>, o ^ v)
WEFT_IMPL_ATOMIC_OP_FETCH(nand, std::type_identity_t<T>, ~(o& v))
WEFT_IMPL_ATOMIC_OP_FETCH(lshift, unsigned, o << v)
WEFT_IMPL_ATOMIC_OP_FETCH(rshift, unsigned, o >> v)
#undef WEFT_IMPL_ATOMIC_OP_FETCH
template <class T>
WEFT_INLINE_FUNCTION T atomic_min_fetch(T* p, std::type_identity_t<T> v) {
  const T o = atomic_fetch_min(p, v);
  return v < o ? v : o;
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_max_fetch(T* p, std::type_identity_t<T> v) {
  const T o = atomic_fetch_max(p, v);
  return o < v ? v : o;
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_inc_fetch(T* p) {
  return static_cast<T>(atomic_fetch_add(p, T(1)) + T(1));
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_dec_fetch(T* p) {
  return static_cast<T>(atomic_fetch_sub(p, T(1)) - T(1));
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_inc(T* p) {
  (void)atomic_fetch_add(p, T(1));
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_dec(T* p) {
  (void)atomic_fetch_sub(p, T(1));
}

template <class T>
WEFT_INLINE_FUNCTION T atomic_add_fetch(T* p, std::type_identity_t<T> v) {
  return static_cast<T>(atomic_fetch_add(p, v) + v);
}
template <class T>
WEFT_INLINE_FUNCTION T atomic_sub_fetch(T* p, std::type_identity_t<T> v) {
  return static_cast<T>(atomic_fetch_sub(p, v) - v);
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_add(T* p, std::type_identity_t<T> v) {
  (void)atomic_fetch_add(p, v);
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_sub(T* p, std::type_identity_t<T> v) {
  (void)atomic_fetch_sub(p, v);
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_min(T* p, std::type_identity_t<T> v) {
  (void)atomic_fetch_min(p, v);
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_max(T* p, std::type_identity_t<T> v) {
  (void)atomic_fetch_max(p, v);
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_increment(T* p) {
  (void)atomic_fetch_add(p, T(1));
}
template <class T>
WEFT_INLINE_FUNCTION void atomic_decrement(T* p) {
  (void)atomic_fetch_sub(p, T(1));
}

/// A full memory fence for the calling thread (sequentially consistent): on a GPU, __threadfence (device scope).
WEFT_INLINE_FUNCTION void memory_fence() {
#if WEFT_IMPL_DEVICE_PASS
  __threadfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/// std::atomic_ref-style wrapper; also what a View with the Atomic trait returns from operator().
template <class T>
class AtomicRef {
 public:
  using value_type = std::remove_cv_t<T>;
  WEFT_INLINE_FUNCTION explicit AtomicRef(T& r) : p_(&r) {}
  WEFT_INLINE_FUNCTION operator value_type() const { return atomic_load(p_); }
  WEFT_INLINE_FUNCTION value_type load() const { return atomic_load(p_); }
  WEFT_INLINE_FUNCTION void store(value_type v) const { atomic_store(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator=(value_type v) const {
    atomic_store(p_, v);
    return v;
  }
  WEFT_INLINE_FUNCTION value_type exchange(value_type v) const { return atomic_exchange(p_, v); }
  WEFT_INLINE_FUNCTION value_type fetch_add(value_type v) const { return atomic_fetch_add(p_, v); }
  WEFT_INLINE_FUNCTION value_type fetch_sub(value_type v) const { return atomic_fetch_sub(p_, v); }
  WEFT_INLINE_FUNCTION value_type fetch_min(value_type v) const { return atomic_fetch_min(p_, v); }
  WEFT_INLINE_FUNCTION value_type fetch_max(value_type v) const { return atomic_fetch_max(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator+=(value_type v) const { return atomic_add_fetch(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator-=(value_type v) const { return atomic_sub_fetch(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator*=(value_type v) const { return atomic_fetch_mul(p_, v) * v; }
  WEFT_INLINE_FUNCTION value_type operator/=(value_type v) const { return atomic_fetch_div(p_, v) / v; }
  WEFT_INLINE_FUNCTION value_type operator&=(value_type v) const { return atomic_fetch_and(p_, v) & v; }
  WEFT_INLINE_FUNCTION value_type operator|=(value_type v) const { return atomic_fetch_or(p_, v) | v; }
  WEFT_INLINE_FUNCTION value_type operator^=(value_type v) const { return atomic_fetch_xor(p_, v) ^ v; }
  WEFT_INLINE_FUNCTION value_type operator%=(value_type v) const { return atomic_mod_fetch(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator<<=(unsigned v) const { return atomic_lshift_fetch(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator>>=(unsigned v) const { return atomic_rshift_fetch(p_, v); }
  WEFT_INLINE_FUNCTION value_type operator++() const { return atomic_add_fetch(p_, value_type(1)); }
  WEFT_INLINE_FUNCTION value_type operator++(int) const { return atomic_fetch_add(p_, value_type(1)); }
  WEFT_INLINE_FUNCTION value_type operator--() const { return atomic_sub_fetch(p_, value_type(1)); }
  WEFT_INLINE_FUNCTION value_type operator--(int) const { return atomic_fetch_sub(p_, value_type(1)); }

 private:
  T* p_;
};
template <class T>
using atomic_ref = AtomicRef<T>;

}  // namespace weft
