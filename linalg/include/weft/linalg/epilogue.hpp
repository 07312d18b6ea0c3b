// Fused epilogues for weft::linalg::matrix_product: what is stored in C(i, j) once the product is known.
//   matrix_product(exec, A, B, C, epilogue(f))     C(i, j) = f(i, j, ab)
//   matrix_product(exec, A, B, E, C, epilogue(f))  C(i, j) = f(i, j, ab, E(i, j))   (E may be C itself)
// with ab = (op(A) op(B))(i, j), the scales of scaled(...) operands applied. f runs where the product runs (give a
// WEFT_LAMBDA for device spaces) and may read any View that space can reach: a bias, a mask, a second matrix.
// Weft's GPU kernel applies f as it stores each element of C, so a bias + activation costs no extra pass over C;
// the host kernel applies it as the last k-block is stored; a vendor BLAS call is followed by one pass over C.
#pragma once

#include <type_traits>

#include <weft/macros.hpp>

namespace weft::linalg {

/// A user epilogue for matrix_product (see epilogue()).
template <class F>
struct Epilogue {
  F f;
};
/// Wraps f as matrix_product's epilogue: f(i, j, ab) -> C(i, j), or f(i, j, ab, e) -> C(i, j) with an E operand.
template <class F>
Epilogue<F> epilogue(const F& f) {
  return {f};
}

namespace impl {
/// The epilogue of plain matrix_product: C(i, j) = E(i, j) + ab, or ab. `linear`: E may be added before the product
/// is complete (the host kernel then accumulates onto it, and a vendor BLAS takes it as beta = 1).
struct PlusE {
  static constexpr bool linear = true;
  template <class T, class EV>
  WEFT_INLINE_FUNCTION T operator()(long i, long j, const T& ab, const EV& e, bool has_e) const {
    return has_e ? T(e(i, j)) + ab : ab;
  }
};
/// A user epilogue; WithE: it takes E(i, j) as its fourth argument.
template <class F, bool WithE>
struct UserEpilogue {
  static constexpr bool linear = false;
  F f;
  template <class T, class EV>
  WEFT_INLINE_FUNCTION T operator()(long i, long j, const T& ab, const EV& e, bool) const {
    if constexpr (WithE)
      return static_cast<T>(f(i, j, ab, T(e(i, j))));
    else
      return static_cast<T>(f(i, j, ab));
  }
};
}  // namespace impl
}  // namespace weft::linalg
