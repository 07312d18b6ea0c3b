// weft::experimental::simd: data-parallel values (Kokkos 4.6's Kokkos::Experimental::basic_simd, simd, simd_mask,
// after the C++ Parallelism TS 2): size() lanes of T with lane-wise arithmetic, comparisons into masks, masked
// assignment (where), loads and stores, gathers and scatters, reductions across the lanes and math.
//
// ABIs:
//  - simd_abi::scalar: one lane, callable in host and device code on every backend;
//  - simd_abi::fixed_size<N>: N lanes (a power of two). Built by g++ or clang it is a GCC vector extension, so the
//    compiler emits the instructions the translation unit targets (SSE2 by default on x86-64, AVX2 with -mavx2 or
//    -march=native, AVX-512 with -mavx512f, NEON on AArch64); built by nvcc or hipcc it is an array of N lanes that
//    device code may use as well.
//  - simd_abi::for_space<Space, T>: the native ABI of an execution space: fixed_size with the widest register the
//    build targets on host backends, scalar on GPU backends (a GPU's SIMD is its warp: one lane per thread), as in
//    Kokkos. simd_abi::native<T> is for_space<DefaultExecutionSpace, T>.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>

#include <weft/backend_spaces.hpp>  // generated from backends/backend_spaces.hpp.in: the enabled backends
#include <weft/macros.hpp>
#include <weft/reducers.hpp>

// 1: fixed_size<N> is a GCC vector extension (g++, clang); 0: an array of N lanes (nvcc, hipcc; the GpuEmu tests
// define it to 0 to run that storage on the host).
#ifndef WEFT_SIMD_GNU_VECTORS
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define WEFT_SIMD_GNU_VECTORS 1
#else
#define WEFT_SIMD_GNU_VECTORS 0
#endif
#endif

// Vectors wider than the target's registers (fixed_size<16> of double without AVX-512) are passed in memory, and
// g++ notes that the ABI would differ under other -m flags: every function here is inline, but translation units
// built for different instruction sets must not pass simd values to each other (as with std::experimental::simd).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace weft::experimental {

namespace simd_abi {
/// One lane: a plain value, in host and device code.
struct scalar {};
/// N lanes (N a power of two).
template <int N>
struct fixed_size {};
}  // namespace simd_abi

template <class T, class Abi>
class basic_simd;
template <class T, class Abi>
class basic_simd_mask;

/// Load/store flags: simd_flag_default (element_aligned_tag) needs only the element's alignment,
/// simd_flag_aligned (vector_aligned_tag) promises the address is aligned to the whole vector.
struct simd_alignment_vector_aligned {};
template <class... Flags>
struct simd_flags {};
inline constexpr simd_flags<> simd_flag_default{};
inline constexpr simd_flags<simd_alignment_vector_aligned> simd_flag_aligned{};
using element_aligned_tag = simd_flags<>;
using vector_aligned_tag = simd_flags<simd_alignment_vector_aligned>;

namespace simd_detail {

#if defined(__AVX512F__)
inline constexpr std::size_t host_register_bytes = 64;
#elif defined(__AVX__)
inline constexpr std::size_t host_register_bytes = 32;
#elif defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__VSX__)
inline constexpr std::size_t host_register_bytes = 16;
#else
inline constexpr std::size_t host_register_bytes = 0;
#endif

template <class T>
using host_native_abi =
    std::conditional_t<(host_register_bytes >= 2 * sizeof(T)),
                       simd_abi::fixed_size<int(host_register_bytes / sizeof(T))>, simd_abi::scalar>;

template <std::size_t S>
struct int_of_size;
template <>
struct int_of_size<1> {
  using type = std::int8_t;
};
template <>
struct int_of_size<2> {
  using type = std::int16_t;
};
template <>
struct int_of_size<4> {
  using type = std::int32_t;
};
template <>
struct int_of_size<8> {
  using type = std::int64_t;
};
/// The lane type of a mask over T: a signed integer of T's size holding -1 (true) or 0 (false).
template <class T>
using mask_int = typename int_of_size<sizeof(T)>::type;

template <class T>
inline constexpr bool is_vectorizable_v =
    std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool> && !std::is_const_v<T>;

#if WEFT_SIMD_GNU_VECTORS
template <class T, int N>
struct storage {
  typedef T type __attribute__((vector_size(N * sizeof(T))));
};
template <class T, int N>
using storage_t = typename storage<T, N>::type;
#else
/// N lanes in an array, with the lane-wise operators GCC's vector extension has (nvcc and hipcc builds).
template <class T, int N>
struct lanes {
  T v[N];
  WEFT_INLINE_FUNCTION T& operator[](int i) { return v[i]; }
  WEFT_INLINE_FUNCTION const T& operator[](int i) const { return v[i]; }
#define WEFT_SIMD_LANES_BINARY(OP)                                                \
  WEFT_INLINE_FUNCTION friend lanes operator OP(const lanes& a, const lanes& b) { \
    lanes r;                                                                      \
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(a.v[i] OP b.v[i]);        \
    return r;                                                                     \
  }
  WEFT_SIMD_LANES_BINARY(+)
  WEFT_SIMD_LANES_BINARY(-)
  WEFT_SIMD_LANES_BINARY(*)
  WEFT_SIMD_LANES_BINARY(/)
#undef WEFT_SIMD_LANES_BINARY
  WEFT_INLINE_FUNCTION lanes operator-() const {
    lanes r;
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(-v[i]);
    return r;
  }
};
template <class T, int N>
using storage_t = lanes<T, N>;
#endif

/// Sets lane i of s to f(i) (s is filled in place: a raw vector is never a return value or a by-value argument,
/// whose ABI depends on the -m flags).
template <class S, class F, std::size_t... I>
WEFT_INLINE_FUNCTION void fill_lanes(S& s, F&& f, std::index_sequence<I...>) {
  ((s[I] = f(std::integral_constant<std::size_t, I>())), ...);
}

template <class G, class T>
inline constexpr bool is_generator_v = std::is_invocable_r_v<T, G, std::integral_constant<std::size_t, 0>>;

template <class Flags>
inline constexpr bool is_aligned_flag_v = std::is_same_v<Flags, simd_flags<simd_alignment_vector_aligned>>;

}  // namespace simd_detail

// ---- scalar ABI ----------------------------------------------------------------------------------------------

template <class T>
class basic_simd_mask<T, simd_abi::scalar> {
  bool m_value = false;

 public:
  using value_type = bool;
  using simd_type = basic_simd<T, simd_abi::scalar>;
  using abi_type = simd_abi::scalar;

  WEFT_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return 1; }
  basic_simd_mask() = default;
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd_mask(bool v) : m_value(v) {}
  template <class G, std::enable_if_t<simd_detail::is_generator_v<G, bool>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd_mask(G&& gen)
      : m_value(static_cast<bool>(gen(std::integral_constant<std::size_t, 0>()))) {}
  template <class U>
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd_mask(const basic_simd_mask<U, simd_abi::scalar>& other)
      : m_value(other[0]) {}
  WEFT_FORCEINLINE_FUNCTION constexpr bool operator[](std::size_t) const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION constexpr explicit operator bool() const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION constexpr basic_simd_mask operator!() const { return basic_simd_mask(!m_value); }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator&&(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value && b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator||(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value || b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator&(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value && b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator|(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value || b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator^(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value != b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator==(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value == b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd_mask operator!=(basic_simd_mask a, basic_simd_mask b) {
    return basic_simd_mask(a.m_value != b.m_value);
  }
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator&=(basic_simd_mask b) { return *this = *this & b; }
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator|=(basic_simd_mask b) { return *this = *this | b; }
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator^=(basic_simd_mask b) { return *this = *this ^ b; }
};

template <class T>
class basic_simd<T, simd_abi::scalar> {
  static_assert(simd_detail::is_vectorizable_v<T>,
                "weft::experimental::basic_simd<T, Abi>: T must be a non-const arithmetic type other than bool");
  T m_value = T();

 public:
  using value_type = T;
  using abi_type = simd_abi::scalar;
  using mask_type = basic_simd_mask<T, abi_type>;

  WEFT_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return 1; }
  basic_simd() = default;
  /// Broadcast.
  template <class U, std::enable_if_t<std::is_convertible_v<U, T>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION constexpr basic_simd(U&& value) : m_value(static_cast<T>(value)) {}
  /// Lane-wise conversion.
  template <class U>
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd(const basic_simd<U, simd_abi::scalar>& other)
      : m_value(static_cast<T>(other[0])) {}
  /// Generator: lane i is gen(std::integral_constant<std::size_t, i>()).
  template <class G, std::enable_if_t<simd_detail::is_generator_v<G, T> && !std::is_convertible_v<G, T>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd(G&& gen)
      : m_value(static_cast<T>(gen(std::integral_constant<std::size_t, 0>()))) {}
  template <class Flags = simd_flags<>>
  WEFT_FORCEINLINE_FUNCTION constexpr explicit basic_simd(const T* ptr, Flags = {}) : m_value(*ptr) {}

  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_from(const T* ptr, Flags) {
    m_value = *ptr;
  }
  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_to(T* ptr, Flags) const {
    *ptr = m_value;
  }
  WEFT_FORCEINLINE_FUNCTION constexpr T operator[](std::size_t) const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION constexpr explicit operator T() const { return m_value; }

  WEFT_FORCEINLINE_FUNCTION constexpr basic_simd operator-() const { return basic_simd(T(-m_value)); }
  WEFT_FORCEINLINE_FUNCTION constexpr basic_simd operator+() const { return *this; }
#define WEFT_SIMD_SCALAR_BINARY(OP)                                                                             \
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd operator OP(const basic_simd& a, const basic_simd& b) { \
    return basic_simd(static_cast<T>(a.m_value OP b.m_value));                                                  \
  }                                                                                                             \
  WEFT_FORCEINLINE_FUNCTION basic_simd& operator OP##=(const basic_simd& b) {                                   \
    m_value = static_cast<T>(m_value OP b.m_value);                                                             \
    return *this;                                                                                               \
  }
  WEFT_SIMD_SCALAR_BINARY(+)
  WEFT_SIMD_SCALAR_BINARY(-)
  WEFT_SIMD_SCALAR_BINARY(*)
  WEFT_SIMD_SCALAR_BINARY(/)
#undef WEFT_SIMD_SCALAR_BINARY
#define WEFT_SIMD_SCALAR_INTEGRAL(OP)                                                                           \
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>                                 \
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd operator OP(const basic_simd& a, const basic_simd& b) { \
    return basic_simd(static_cast<T>(a.m_value OP b.m_value));                                                  \
  }                                                                                                             \
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>                                 \
  WEFT_FORCEINLINE_FUNCTION basic_simd& operator OP##=(const basic_simd& b) {                                   \
    m_value = static_cast<T>(m_value OP b.m_value);                                                             \
    return *this;                                                                                               \
  }
  WEFT_SIMD_SCALAR_INTEGRAL(%)
  WEFT_SIMD_SCALAR_INTEGRAL(&)
  WEFT_SIMD_SCALAR_INTEGRAL(|)
  WEFT_SIMD_SCALAR_INTEGRAL(^)
  WEFT_SIMD_SCALAR_INTEGRAL(<<)
  WEFT_SIMD_SCALAR_INTEGRAL(>>)
#undef WEFT_SIMD_SCALAR_INTEGRAL
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd operator<<(const basic_simd& a, int s) {
    return basic_simd(static_cast<T>(a.m_value << s));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION friend constexpr basic_simd operator>>(const basic_simd& a, int s) {
    return basic_simd(static_cast<T>(a.m_value >> s));
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION constexpr basic_simd operator~() const {
    return basic_simd(static_cast<T>(~m_value));
  }
#define WEFT_SIMD_SCALAR_COMPARE(OP)                                                                           \
  WEFT_FORCEINLINE_FUNCTION friend constexpr mask_type operator OP(const basic_simd& a, const basic_simd& b) { \
    return mask_type(a.m_value OP b.m_value);                                                                  \
  }
  WEFT_SIMD_SCALAR_COMPARE(==)
  WEFT_SIMD_SCALAR_COMPARE(!=)
  WEFT_SIMD_SCALAR_COMPARE(<)
  WEFT_SIMD_SCALAR_COMPARE(<=)
  WEFT_SIMD_SCALAR_COMPARE(>)
  WEFT_SIMD_SCALAR_COMPARE(>=)
#undef WEFT_SIMD_SCALAR_COMPARE

  /// a where m, else b (where expressions and condition use it).
  WEFT_FORCEINLINE_FUNCTION static constexpr basic_simd impl_blend(const mask_type& m, const basic_simd& a,
                                                                   const basic_simd& b) {
    return static_cast<bool>(m) ? a : b;
  }
};

// ---- fixed_size<N> ABI ---------------------------------------------------------------------------------------

template <class T, int N>
class basic_simd_mask<T, simd_abi::fixed_size<N>> {
  static_assert(N >= 1 && (N & (N - 1)) == 0, "weft::experimental::simd_abi::fixed_size<N>: N must be a power of two");
  using I = simd_detail::mask_int<T>;

 public:
  using storage_type = simd_detail::storage_t<I, N>;
  using value_type = bool;
  using simd_type = basic_simd<T, simd_abi::fixed_size<N>>;
  using abi_type = simd_abi::fixed_size<N>;

  WEFT_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return N; }
  basic_simd_mask() = default;
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd_mask(bool v) {
    simd_detail::fill_lanes(
        m_bits, [v](auto) { return I(v ? -1 : 0); }, std::make_index_sequence<N>());
  }
  template <class G, std::enable_if_t<simd_detail::is_generator_v<G, bool>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd_mask(G&& gen) {
    simd_detail::fill_lanes(
        m_bits, [&gen](auto i) { return I(static_cast<bool>(gen(i)) ? -1 : 0); }, std::make_index_sequence<N>());
  }
  template <class U>
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd_mask(const basic_simd_mask<U, simd_abi::fixed_size<N>>& other)
      : basic_simd_mask([&other](auto i) { return other[i]; }) {}
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd_mask(const storage_type& bits) : m_bits(bits) {}

  WEFT_FORCEINLINE_FUNCTION bool operator[](std::size_t i) const { return m_bits[int(i)] != 0; }
  WEFT_FORCEINLINE_FUNCTION const storage_type& impl_bits() const { return m_bits; }

  WEFT_FORCEINLINE_FUNCTION basic_simd_mask operator!() const {
    return basic_simd_mask([this](auto i) { return !(*this)[i]; });
  }
#if WEFT_SIMD_GNU_VECTORS
#define WEFT_SIMD_MASK_BINARY(OP, EXPR)                                                                              \
  WEFT_FORCEINLINE_FUNCTION friend basic_simd_mask operator OP(const basic_simd_mask& a, const basic_simd_mask& b) { \
    const storage_type x = a.m_bits, y = b.m_bits;                                                                   \
    return basic_simd_mask(storage_type(EXPR));                                                                      \
  }
  WEFT_SIMD_MASK_BINARY(&&, x& y)
  WEFT_SIMD_MASK_BINARY(||, x | y)
  WEFT_SIMD_MASK_BINARY(&, x& y)
  WEFT_SIMD_MASK_BINARY(|, x | y)
  WEFT_SIMD_MASK_BINARY(^, x ^ y)
  WEFT_SIMD_MASK_BINARY(==, ~(x ^ y))
  WEFT_SIMD_MASK_BINARY(!=, x ^ y)
#undef WEFT_SIMD_MASK_BINARY
#else
// (loops, not generator lambdas: nvcc's front end loses the class's template parameters in lambdas of friends)
#define WEFT_SIMD_MASK_BINARY(OP, EXPR)                                                                              \
  WEFT_FORCEINLINE_FUNCTION friend basic_simd_mask operator OP(const basic_simd_mask& a, const basic_simd_mask& b) { \
    storage_type r;                                                                                                  \
    for (int i = 0; i < N; ++i) {                                                                                    \
      const bool x = a[i], y = b[i];                                                                                 \
      r[i] = (EXPR) ? -1 : 0;                                                                                        \
    }                                                                                                                \
    return basic_simd_mask(r);                                                                                       \
  }
  WEFT_SIMD_MASK_BINARY(&&, x&& y)
  WEFT_SIMD_MASK_BINARY(||, x || y)
  WEFT_SIMD_MASK_BINARY(&, x&& y)
  WEFT_SIMD_MASK_BINARY(|, x || y)
  WEFT_SIMD_MASK_BINARY(^, x != y)
  WEFT_SIMD_MASK_BINARY(==, x == y)
  WEFT_SIMD_MASK_BINARY(!=, x != y)
#undef WEFT_SIMD_MASK_BINARY
#endif
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator&=(const basic_simd_mask& b) { return *this = *this & b; }
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator|=(const basic_simd_mask& b) { return *this = *this | b; }
  WEFT_FORCEINLINE_FUNCTION basic_simd_mask& operator^=(const basic_simd_mask& b) { return *this = *this ^ b; }

 private:
  storage_type m_bits;
};

template <class T, int N>
class basic_simd<T, simd_abi::fixed_size<N>> {
  static_assert(simd_detail::is_vectorizable_v<T>,
                "weft::experimental::basic_simd<T, Abi>: T must be a non-const arithmetic type other than bool");
  static_assert(N >= 1 && (N & (N - 1)) == 0, "weft::experimental::simd_abi::fixed_size<N>: N must be a power of two");

 public:
  using value_type = T;
  using abi_type = simd_abi::fixed_size<N>;
  using mask_type = basic_simd_mask<T, abi_type>;
  using storage_type = simd_detail::storage_t<T, N>;

  WEFT_FORCEINLINE_FUNCTION static constexpr std::size_t size() { return N; }
  basic_simd() = default;
  /// Broadcast.
  template <class U, std::enable_if_t<std::is_convertible_v<U, T>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION basic_simd(U&& value) {
    simd_detail::fill_lanes(
        m_v, [x = static_cast<T>(value)](auto) { return x; }, std::make_index_sequence<N>());
  }
  /// Lane-wise conversion.
  template <class U>
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd(const basic_simd<U, abi_type>& other)
      : basic_simd([&other](auto i) { return static_cast<T>(other[i]); }) {}
  /// Generator: lane i is gen(std::integral_constant<std::size_t, i>()).
  template <class G, std::enable_if_t<simd_detail::is_generator_v<G, T> && !std::is_convertible_v<G, T>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd(G&& gen) {
    simd_detail::fill_lanes(
        m_v, [&gen](auto i) { return static_cast<T>(gen(i)); }, std::make_index_sequence<N>());
  }
  template <class Flags = simd_flags<>>
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd(const T* ptr, Flags f = {}) {
    copy_from(ptr, f);
  }
  WEFT_FORCEINLINE_FUNCTION explicit basic_simd(const storage_type& v) : m_v(v) {}

  /// Loads size() values from ptr (aligned to the whole vector with simd_flag_aligned / vector_aligned_tag).
  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_from(const T* ptr, Flags) {
    if constexpr (simd_detail::is_aligned_flag_v<Flags>)
      ptr = static_cast<const T*>(__builtin_assume_aligned(ptr, sizeof(storage_type)));
#if WEFT_SIMD_GNU_VECTORS
    std::memcpy(&m_v, ptr, sizeof(storage_type));
#else
    for (int i = 0; i < N; ++i) m_v[i] = ptr[i];
#endif
  }
  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_to(T* ptr, Flags) const {
    if constexpr (simd_detail::is_aligned_flag_v<Flags>)
      ptr = static_cast<T*>(__builtin_assume_aligned(ptr, sizeof(storage_type)));
#if WEFT_SIMD_GNU_VECTORS
    std::memcpy(ptr, &m_v, sizeof(storage_type));
#else
    for (int i = 0; i < N; ++i) ptr[i] = m_v[i];
#endif
  }
  WEFT_FORCEINLINE_FUNCTION T operator[](std::size_t i) const { return m_v[int(i)]; }

  WEFT_FORCEINLINE_FUNCTION basic_simd operator-() const { return basic_simd(storage_type(-m_v)); }
  WEFT_FORCEINLINE_FUNCTION basic_simd operator+() const { return *this; }
#define WEFT_SIMD_FIXED_BINARY(OP)                                                                    \
  WEFT_FORCEINLINE_FUNCTION friend basic_simd operator OP(const basic_simd& a, const basic_simd& b) { \
    return basic_simd(storage_type(a.m_v OP b.m_v));                                                  \
  }                                                                                                   \
  WEFT_FORCEINLINE_FUNCTION basic_simd& operator OP##=(const basic_simd& b) {                         \
    m_v = m_v OP b.m_v;                                                                               \
    return *this;                                                                                     \
  }
  WEFT_SIMD_FIXED_BINARY(+)
  WEFT_SIMD_FIXED_BINARY(-)
  WEFT_SIMD_FIXED_BINARY(*)
  WEFT_SIMD_FIXED_BINARY(/)
#undef WEFT_SIMD_FIXED_BINARY
  // Integer operators, shifts and comparisons lane by lane (the compiler vectorizes them where the target can;
  // loops, not generator lambdas: nvcc's front end loses the class's template parameters in lambdas of friends).
#define WEFT_SIMD_FIXED_INTEGRAL(OP)                                                                  \
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>                       \
  WEFT_FORCEINLINE_FUNCTION friend basic_simd operator OP(const basic_simd& a, const basic_simd& b) { \
    basic_simd r;                                                                                     \
    for (int i = 0; i < N; ++i) r.m_v[i] = static_cast<U>(a.m_v[i] OP b.m_v[i]);                      \
    return r;                                                                                         \
  }                                                                                                   \
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>                       \
  WEFT_FORCEINLINE_FUNCTION basic_simd& operator OP##=(const basic_simd& b) {                         \
    return *this = *this OP b;                                                                        \
  }
  WEFT_SIMD_FIXED_INTEGRAL(%)
  WEFT_SIMD_FIXED_INTEGRAL(&)
  WEFT_SIMD_FIXED_INTEGRAL(|)
  WEFT_SIMD_FIXED_INTEGRAL(^)
  WEFT_SIMD_FIXED_INTEGRAL(<<)
  WEFT_SIMD_FIXED_INTEGRAL(>>)
#undef WEFT_SIMD_FIXED_INTEGRAL
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION friend basic_simd operator<<(const basic_simd& a, int s) {
    basic_simd r;
    for (int i = 0; i < N; ++i) r.m_v[i] = static_cast<U>(a.m_v[i] << s);
    return r;
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION friend basic_simd operator>>(const basic_simd& a, int s) {
    basic_simd r;
    for (int i = 0; i < N; ++i) r.m_v[i] = static_cast<U>(a.m_v[i] >> s);
    return r;
  }
  template <class U = T, std::enable_if_t<std::is_integral_v<U>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION basic_simd operator~() const {
    basic_simd r;
    for (int i = 0; i < N; ++i) r.m_v[i] = static_cast<U>(~m_v[i]);
    return r;
  }
#if WEFT_SIMD_GNU_VECTORS
#define WEFT_SIMD_FIXED_COMPARE(OP)                                                                  \
  WEFT_FORCEINLINE_FUNCTION friend mask_type operator OP(const basic_simd& a, const basic_simd& b) { \
    return mask_type(typename mask_type::storage_type(a.m_v OP b.m_v));                              \
  }
#else
#define WEFT_SIMD_FIXED_COMPARE(OP)                                                                  \
  WEFT_FORCEINLINE_FUNCTION friend mask_type operator OP(const basic_simd& a, const basic_simd& b) { \
    typename mask_type::storage_type r;                                                              \
    for (int i = 0; i < N; ++i) r[i] = a.m_v[i] OP b.m_v[i] ? -1 : 0;                                \
    return mask_type(r);                                                                             \
  }
#endif
  WEFT_SIMD_FIXED_COMPARE(==)
  WEFT_SIMD_FIXED_COMPARE(!=)
  WEFT_SIMD_FIXED_COMPARE(<)
  WEFT_SIMD_FIXED_COMPARE(<=)
  WEFT_SIMD_FIXED_COMPARE(>)
  WEFT_SIMD_FIXED_COMPARE(>=)
#undef WEFT_SIMD_FIXED_COMPARE

  /// a where m, else b, lane by lane (bitwise on the vector extension: no branch).
  WEFT_FORCEINLINE_FUNCTION static basic_simd impl_blend(const mask_type& m, const basic_simd& a, const basic_simd& b) {
#if WEFT_SIMD_GNU_VECTORS
    using bits = typename mask_type::storage_type;
    const bits k = m.impl_bits();
    return basic_simd(storage_type(((bits)a.m_v & k) | ((bits)b.m_v & ~k)));
#else
    return basic_simd([&](auto i) { return m[i] ? a[i] : b[i]; });
#endif
  }

 private:
  storage_type m_v;
};

// ---- traits and the native ABIs ----------------------------------------------------------------------------

template <class T>
struct is_simd : std::false_type {};
template <class T, class Abi>
struct is_simd<basic_simd<T, Abi>> : std::true_type {};
template <class T>
inline constexpr bool is_simd_v = is_simd<T>::value;
template <class T>
struct is_simd_mask : std::false_type {};
template <class T, class Abi>
struct is_simd_mask<basic_simd_mask<T, Abi>> : std::true_type {};
template <class T>
inline constexpr bool is_simd_mask_v = is_simd_mask<T>::value;

namespace simd_abi {
/// The native ABI of an execution space: the widest host register the build targets on host backends, one lane
/// on GPU backends.
template <class Space, class T>
using for_space =
    std::conditional_t<Space::execution_space::impl_is_host_space, simd_detail::host_native_abi<T>, scalar>;
/// The native ABI of DefaultExecutionSpace.
template <class T>
using native = for_space<DefaultExecutionSpace, T>;
}  // namespace simd_abi

/// simd<T> is the native simd of DefaultExecutionSpace; simd<T, N> has N lanes on host backends (one on GPUs).
template <class T, int N = 0>
using simd =
    basic_simd<T, std::conditional_t<(N == 0), simd_abi::native<T>,
                                     std::conditional_t<DefaultExecutionSpace::impl_is_host_space,
                                                        simd_abi::fixed_size<(N > 0 ? N : 1)>, simd_abi::scalar>>>;
template <class T, int N = 0>
using simd_mask = typename simd<T, N>::mask_type;
template <class T>
using native_simd = basic_simd<T, simd_abi::native<T>>;
template <class T>
using native_simd_mask = basic_simd_mask<T, simd_abi::native<T>>;

// ---- where expressions -------------------------------------------------------------------------------------

/// where(mask, const value): the lanes of value the mask selects, to store or scatter.
template <class M, class V>
class const_where_expression {
 protected:
  V& m_value;
  const M& m_mask;

 public:
  using value_type = typename V::value_type;
  WEFT_FORCEINLINE_FUNCTION const_where_expression(const M& mask, const V& value)
      : m_value(const_cast<V&>(value)), m_mask(mask) {}
  WEFT_FORCEINLINE_FUNCTION const V& value() const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION const V& impl_get_value() const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION const M& impl_get_mask() const { return m_mask; }
  /// Stores the selected lanes to ptr[i] (the others are not touched).
  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_to(value_type* ptr, Flags) const {
    for (std::size_t i = 0; i < V::size(); ++i)
      if (m_mask[i]) ptr[i] = m_value[i];
  }
  /// Stores the selected lanes to ptr[index[i]].
  template <class Integral>
  WEFT_FORCEINLINE_FUNCTION void scatter_to(value_type* ptr,
                                            const basic_simd<Integral, typename V::abi_type>& index) const {
    static_assert(std::is_integral_v<Integral>,
                  "weft::experimental::where(...).scatter_to: the index must be integral");
    for (std::size_t i = 0; i < V::size(); ++i)
      if (m_mask[i]) ptr[index[i]] = m_value[i];
  }
};

/// where(mask, value): assigns, loads and gathers into the lanes the mask selects only.
template <class M, class V>
class where_expression : public const_where_expression<M, V> {
  using base = const_where_expression<M, V>;

 public:
  using typename base::value_type;
  WEFT_FORCEINLINE_FUNCTION where_expression(const M& mask, V& value) : base(mask, value) {}
  WEFT_FORCEINLINE_FUNCTION V& value() { return this->m_value; }
  template <class U, std::enable_if_t<std::is_convertible_v<U, V>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION void operator=(U&& x) {
    this->m_value = V::impl_blend(this->m_mask, static_cast<V>(std::forward<U>(x)), this->m_value);
  }
  /// Loads ptr[i] into the selected lanes (unselected lanes' addresses are not read).
  template <class Flags>
  WEFT_FORCEINLINE_FUNCTION void copy_from(const value_type* ptr, Flags) {
    const V& v = this->m_value;
    const M& m = this->m_mask;
    this->m_value = V([&](auto i) { return m[i] ? ptr[i] : v[i]; });
  }
  /// Loads ptr[index[i]] into the selected lanes.
  template <class Integral>
  WEFT_FORCEINLINE_FUNCTION void gather_from(const value_type* ptr,
                                             const basic_simd<Integral, typename V::abi_type>& index) {
    static_assert(std::is_integral_v<Integral>,
                  "weft::experimental::where(...).gather_from: the index must be integral");
    const V& v = this->m_value;
    const M& m = this->m_mask;
    this->m_value = V([&](auto i) { return m[i] ? ptr[index[i]] : v[i]; });
  }
#define WEFT_SIMD_WHERE_COMPOUND(OP)                                  \
  template <class U>                                                  \
  WEFT_FORCEINLINE_FUNCTION where_expression& operator OP##=(U&& x) { \
    *this = this->m_value OP static_cast<V>(std::forward<U>(x));      \
    return *this;                                                     \
  }
  WEFT_SIMD_WHERE_COMPOUND(+)
  WEFT_SIMD_WHERE_COMPOUND(-)
  WEFT_SIMD_WHERE_COMPOUND(*)
  WEFT_SIMD_WHERE_COMPOUND(/)
#undef WEFT_SIMD_WHERE_COMPOUND
};

/// where(b, x) on plain values (code written for both simd and scalars).
template <class T>
class const_where_expression<bool, T> {
 protected:
  T& m_value;
  bool m_mask;

 public:
  WEFT_FORCEINLINE_FUNCTION const_where_expression(bool mask, const T& value)
      : m_value(const_cast<T&>(value)), m_mask(mask) {}
  WEFT_FORCEINLINE_FUNCTION const T& value() const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION const T& impl_get_value() const { return m_value; }
  WEFT_FORCEINLINE_FUNCTION bool impl_get_mask() const { return m_mask; }
};
template <class T>
class where_expression<bool, T> : public const_where_expression<bool, T> {
 public:
  WEFT_FORCEINLINE_FUNCTION where_expression(bool mask, T& value) : const_where_expression<bool, T>(mask, value) {}
  WEFT_FORCEINLINE_FUNCTION T& value() { return this->m_value; }
  template <class U, std::enable_if_t<std::is_convertible_v<U, T>, bool> = false>
  WEFT_FORCEINLINE_FUNCTION void operator=(const U& x) {
    if (this->m_mask) this->m_value = x;
  }
};

template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> where(
    const typename basic_simd<T, Abi>::mask_type& mask, basic_simd<T, Abi>& value) {
  return {mask, value};
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>> where(
    const typename basic_simd<T, Abi>::mask_type& mask, const basic_simd<T, Abi>& value) {
  return {mask, value};
}
template <class T>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION where_expression<bool, T> where(bool mask, T& value) {
  return {mask, value};
}
template <class T>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION const_where_expression<bool, T> where(bool mask, const T& value) {
  return {mask, value};
}

/// condition(m, a, b): a where m, else b (Kokkos's select).
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION basic_simd<T, Abi> condition(const typename basic_simd<T, Abi>::mask_type& m,
                                                                     const basic_simd<T, Abi>& a,
                                                                     const basic_simd<T, Abi>& b) {
  return basic_simd<T, Abi>::impl_blend(m, a, b);
}

// ---- mask reductions ---------------------------------------------------------------------------------------

template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION bool all_of(const basic_simd_mask<T, Abi>& m) {
  bool r = true;
  for (std::size_t i = 0; i < m.size(); ++i) r = r && m[i];
  return r;
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION bool any_of(const basic_simd_mask<T, Abi>& m) {
  bool r = false;
  for (std::size_t i = 0; i < m.size(); ++i) r = r || m[i];
  return r;
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION bool none_of(const basic_simd_mask<T, Abi>& m) {
  return !any_of(m);
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION int popcount(const basic_simd_mask<T, Abi>& m) {
  int r = 0;
  for (std::size_t i = 0; i < m.size(); ++i) r += m[i] ? 1 : 0;
  return r;
}
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION constexpr bool all_of(bool b) { return b; }
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION constexpr bool any_of(bool b) { return b; }
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION constexpr bool none_of(bool b) { return !b; }

// ---- reductions across the lanes ---------------------------------------------------------------------------

/// The lanes mask selects, combined with op (identity when none is selected).
template <class T, class Abi, class BinaryOperation = std::plus<>>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce(const basic_simd<T, Abi>& x,
                                                 const typename basic_simd<T, Abi>::mask_type& mask, T identity,
                                                 BinaryOperation op = {}) {
  T r = identity;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (mask[i]) r = op(r, x[i]);
  return r;
}
/// Every lane combined with op (std::plus<> by default; std::multiplies<>, bit_and/or/xor, or any associative op).
template <class T, class Abi, class BinaryOperation = std::plus<>>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce(const basic_simd<T, Abi>& x, BinaryOperation op = {}) {
  T r = x[0];
  for (std::size_t i = 1; i < x.size(); ++i) r = op(r, x[i]);
  return r;
}
/// The older spelling: reduce(where(mask, x), identity, op).
template <class T, class Abi, class BinaryOperation>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T
reduce(const const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>& w, T identity, BinaryOperation op) {
  return reduce(w.impl_get_value(), w.impl_get_mask(), identity, op);
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce_min(const basic_simd<T, Abi>& x,
                                                     const typename basic_simd<T, Abi>::mask_type& mask) {
  T r = reduction_identity<T>::min();
  for (std::size_t i = 0; i < x.size(); ++i)
    if (mask[i] && x[i] < r) r = x[i];
  return r;
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce_max(const basic_simd<T, Abi>& x,
                                                     const typename basic_simd<T, Abi>::mask_type& mask) {
  T r = reduction_identity<T>::max();
  for (std::size_t i = 0; i < x.size(); ++i)
    if (mask[i] && r < x[i]) r = x[i];
  return r;
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce_min(const basic_simd<T, Abi>& x) {
  return reduce_min(x, typename basic_simd<T, Abi>::mask_type(true));
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T reduce_max(const basic_simd<T, Abi>& x) {
  return reduce_max(x, typename basic_simd<T, Abi>::mask_type(true));
}
/// Kokkos 4.0-4.5's hmin/hmax(where(mask, x)).
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T
hmin(const const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>& w) {
  return reduce_min(w.impl_get_value(), w.impl_get_mask());
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION T
hmax(const const_where_expression<basic_simd_mask<T, Abi>, basic_simd<T, Abi>>& w) {
  return reduce_max(w.impl_get_value(), w.impl_get_mask());
}

// ---- math ---------------------------------------------------------------------------------------------------
// Lane by lane with <cmath> (device code included); min, max, abs and fma with the vector operators. Integer
// lanes compute in double where <cmath> would (sqrt of an int simd is a double simd), as Kokkos's do.

namespace simd_detail {
template <class T>
using math_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;
}

#define WEFT_SIMD_MATH_1(F)                                                                                   \
  template <class T, class Abi>                                                                               \
  [[nodiscard]] WEFT_INLINE_FUNCTION basic_simd<simd_detail::math_t<T>, Abi> F(const basic_simd<T, Abi>& x) { \
    using R = simd_detail::math_t<T>;                                                                         \
    return basic_simd<R, Abi>([&](auto i) {                                                                   \
      using std::F;                                                                                           \
      return static_cast<R>(F(static_cast<R>(x[i])));                                                         \
    });                                                                                                       \
  }
#define WEFT_SIMD_MATH_2(F)                                                                                   \
  template <class T, class Abi>                                                                               \
  [[nodiscard]] WEFT_INLINE_FUNCTION basic_simd<simd_detail::math_t<T>, Abi> F(const basic_simd<T, Abi>& x,   \
                                                                               const basic_simd<T, Abi>& y) { \
    using R = simd_detail::math_t<T>;                                                                         \
    return basic_simd<R, Abi>([&](auto i) {                                                                   \
      using std::F;                                                                                           \
      return static_cast<R>(F(static_cast<R>(x[i]), static_cast<R>(y[i])));                                   \
    });                                                                                                       \
  }
WEFT_SIMD_MATH_1(sqrt)
WEFT_SIMD_MATH_1(cbrt)
WEFT_SIMD_MATH_1(exp)
WEFT_SIMD_MATH_1(exp2)
WEFT_SIMD_MATH_1(log)
WEFT_SIMD_MATH_1(log10)
WEFT_SIMD_MATH_1(log2)
WEFT_SIMD_MATH_1(sin)
WEFT_SIMD_MATH_1(cos)
WEFT_SIMD_MATH_1(tan)
WEFT_SIMD_MATH_1(asin)
WEFT_SIMD_MATH_1(acos)
WEFT_SIMD_MATH_1(atan)
WEFT_SIMD_MATH_1(sinh)
WEFT_SIMD_MATH_1(cosh)
WEFT_SIMD_MATH_1(tanh)
WEFT_SIMD_MATH_1(asinh)
WEFT_SIMD_MATH_1(acosh)
WEFT_SIMD_MATH_1(atanh)
WEFT_SIMD_MATH_1(erf)
WEFT_SIMD_MATH_1(erfc)
WEFT_SIMD_MATH_1(tgamma)
WEFT_SIMD_MATH_1(lgamma)
WEFT_SIMD_MATH_1(floor)
WEFT_SIMD_MATH_1(ceil)
WEFT_SIMD_MATH_1(trunc)
WEFT_SIMD_MATH_1(nearbyint)
WEFT_SIMD_MATH_2(pow)
WEFT_SIMD_MATH_2(hypot)
WEFT_SIMD_MATH_2(atan2)
WEFT_SIMD_MATH_2(copysign)
#undef WEFT_SIMD_MATH_1
#undef WEFT_SIMD_MATH_2

/// Round half to even (the current rounding mode's nearbyint), as Kokkos's simd round does.
template <class T, class Abi>
[[nodiscard]] WEFT_INLINE_FUNCTION basic_simd<simd_detail::math_t<T>, Abi> round(const basic_simd<T, Abi>& x) {
  return nearbyint(x);
}
template <class T, class Abi>
[[nodiscard]] WEFT_INLINE_FUNCTION basic_simd<T, Abi> hypot(const basic_simd<T, Abi>& x, const basic_simd<T, Abi>& y,
                                                            const basic_simd<T, Abi>& z) {
  return basic_simd<T, Abi>([&](auto i) {
    using std::hypot;
    return static_cast<T>(hypot(x[i], y[i], z[i]));
  });
}
/// x * y + z (contracted to a fused multiply-add where the target has one and the build allows it).
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION basic_simd<T, Abi> fma(const basic_simd<T, Abi>& x, const basic_simd<T, Abi>& y,
                                                               const basic_simd<T, Abi>& z) {
  return x * y + z;
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION basic_simd<T, Abi> abs(const basic_simd<T, Abi>& x) {
  if constexpr (std::is_floating_point_v<T>) {
    return basic_simd<T, Abi>([&](auto i) {
      using std::fabs;
      return fabs(x[i]);
    });
  } else if constexpr (std::is_signed_v<T>) {
    return condition(x < basic_simd<T, Abi>(T(0)), -x, x);
  } else {
    return x;
  }
}
/// Lane-wise min/max: b where b < a, else a (as std::min on each lane).
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION basic_simd<T, Abi> min(const basic_simd<T, Abi>& a,
                                                               const basic_simd<T, Abi>& b) {
  return condition(b < a, b, a);
}
template <class T, class Abi>
[[nodiscard]] WEFT_FORCEINLINE_FUNCTION basic_simd<T, Abi> max(const basic_simd<T, Abi>& a,
                                                               const basic_simd<T, Abi>& b) {
  return condition(a < b, b, a);
}

}  // namespace weft::experimental

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
