// How a strided matrix product maps onto one BLAS GEMM call, shared by the CBLAS (vendor_blas.cpp) and cuBLAS
// (vendor_cublas.cpp) paths. A BLAS takes matrices with unit stride along one dimension; everything is
// expressed as one row-major call (a column-major operand is its own transpose in row-major terms, and a
// column-major C computes C^T = op(B)^T op(A)^T instead).
#pragma once

#include <algorithm>

namespace weft::linalg::impl::gemm_call {

struct Operand {
  bool ok, trans;
  long ld;
};
inline Operand describe(bool trans, long rows, long cols, long rs, long cs) {
  if (cs == 1 && (rs >= std::max(1L, cols) || rows <= 1)) return {true, trans, std::max(rs, std::max(1L, cols))};
  if (rs == 1 && (cs >= std::max(1L, rows) || cols <= 1)) return {true, !trans, std::max(cs, std::max(1L, rows))};
  return {false, false, 0};
}

/// C (m x n, row-major with leading dimension ldc) = op(A) op(B), op = transpose where ta / tb; A and B hold In,
/// C holds Out (16-bit inputs into float C, or all the same type).
template <class In, class Out = In>
struct RowMajorGemm {
  bool ta, tb;
  long m, n, k;
  const In* a;
  long lda;
  const In* b;
  long ldb;
  Out* c;
  long ldc;
};

/// The row-major call for C = op(A) op(B) on strided operands; false when one of them has no unit stride.
template <class In, class Out>
bool as_row_major(bool at, bool bt, long m, long n, long k, const In* a, long a_rs, long a_cs, const In* b, long b_rs,
                  long b_cs, Out* c, long c_rs, long c_cs, RowMajorGemm<In, Out>& g) {
  const Operand A = describe(at, at ? k : m, at ? m : k, a_rs, a_cs);
  const Operand B = describe(bt, bt ? n : k, bt ? k : n, b_rs, b_cs);
  if (!A.ok || !B.ok) return false;
  if (c_cs == 1 && (c_rs >= std::max(1L, n) || m <= 1)) {
    g = {A.trans, B.trans, m, n, k, a, A.ld, b, B.ld, c, std::max(c_rs, std::max(1L, n))};
    return true;
  }
  if (c_rs == 1 && (c_cs >= std::max(1L, m) || n <= 1)) {  // C^T = op(B)^T op(A)^T, row-major
    g = {!B.trans, !A.trans, n, m, k, b, B.ld, a, A.ld, c, std::max(c_cs, std::max(1L, m))};
    return true;
  }
  return false;
}

}  // namespace weft::linalg::impl::gemm_call
