// Kokkos 4.6's SIMD types (<Kokkos_SIMD.hpp>) on weft::experimental's (weft/containers/simd.hpp): basic_simd,
// simd<T[, N]>, simd_mask, native_simd, the ABIs under their Kokkos names, where expressions, reductions across
// lanes and the math functions as Kokkos::f and Kokkos::Experimental::f.
#pragma once

#include <weft/containers/simd.hpp>

// The math functions Kokkos overloads for simd, beside the scalar and complex ones already in the namespace.
#define WEFT_KOKKOS_SIMD_MATH            \
  using ::weft::experimental::abs;       \
  using ::weft::experimental::acos;      \
  using ::weft::experimental::acosh;     \
  using ::weft::experimental::asin;      \
  using ::weft::experimental::asinh;     \
  using ::weft::experimental::atan;      \
  using ::weft::experimental::atan2;     \
  using ::weft::experimental::atanh;     \
  using ::weft::experimental::cbrt;      \
  using ::weft::experimental::ceil;      \
  using ::weft::experimental::copysign;  \
  using ::weft::experimental::cos;       \
  using ::weft::experimental::cosh;      \
  using ::weft::experimental::erf;       \
  using ::weft::experimental::erfc;      \
  using ::weft::experimental::exp;       \
  using ::weft::experimental::exp2;      \
  using ::weft::experimental::floor;     \
  using ::weft::experimental::fma;       \
  using ::weft::experimental::hypot;     \
  using ::weft::experimental::lgamma;    \
  using ::weft::experimental::log;       \
  using ::weft::experimental::log10;     \
  using ::weft::experimental::log2;      \
  using ::weft::experimental::max;       \
  using ::weft::experimental::min;       \
  using ::weft::experimental::nearbyint; \
  using ::weft::experimental::pow;       \
  using ::weft::experimental::round;     \
  using ::weft::experimental::sin;       \
  using ::weft::experimental::sinh;      \
  using ::weft::experimental::sqrt;      \
  using ::weft::experimental::tan;       \
  using ::weft::experimental::tanh;      \
  using ::weft::experimental::tgamma;    \
  using ::weft::experimental::trunc;

namespace Kokkos {
WEFT_KOKKOS_SIMD_MATH
namespace Experimental {
WEFT_KOKKOS_SIMD_MATH
using ::weft::experimental::all_of;
using ::weft::experimental::any_of;
using ::weft::experimental::basic_simd;
using ::weft::experimental::basic_simd_mask;
using ::weft::experimental::condition;
using ::weft::experimental::const_where_expression;
using ::weft::experimental::element_aligned_tag;
using ::weft::experimental::hmax;
using ::weft::experimental::hmin;
using ::weft::experimental::is_simd;
using ::weft::experimental::is_simd_mask;
using ::weft::experimental::is_simd_mask_v;
using ::weft::experimental::is_simd_v;
using ::weft::experimental::native_simd;
using ::weft::experimental::native_simd_mask;
using ::weft::experimental::none_of;
using ::weft::experimental::popcount;
using ::weft::experimental::reduce;
using ::weft::experimental::reduce_max;
using ::weft::experimental::reduce_min;
using ::weft::experimental::simd;
using ::weft::experimental::simd_alignment_vector_aligned;
using ::weft::experimental::simd_flag_aligned;
using ::weft::experimental::simd_flag_default;
using ::weft::experimental::simd_flags;
using ::weft::experimental::simd_mask;
using ::weft::experimental::vector_aligned_tag;
using ::weft::experimental::where;
using ::weft::experimental::where_expression;
namespace simd_abi {
using ::weft::experimental::simd_abi::fixed_size;
using ::weft::experimental::simd_abi::scalar;
/// Kokkos's names for the host ABIs: all are fixed_size<N> (a vector extension of N lanes).
template <int N>
using avx2_fixed_size = fixed_size<N>;
template <int N>
using avx512_fixed_size = fixed_size<N>;
template <int N>
using neon_fixed_size = fixed_size<N>;
template <int N>
using sve_fixed_size = fixed_size<N>;
template <class T>
using native = ::weft::experimental::simd_abi::native<T>;
/// Kokkos 4.6's deprecated ForSpace<Space> (one ABI for every T: Weft's has double's lane count, as Kokkos's).
template <class Space>
using ForSpace = ::weft::experimental::simd_abi::for_space<Space, double>;
}  // namespace simd_abi
}  // namespace Experimental
}  // namespace Kokkos
#undef WEFT_KOKKOS_SIMD_MATH
