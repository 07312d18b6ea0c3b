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

/// A triangular solve on X (m x n) in place as one BLAS call: X's order (row-major or column-major), then A in that
/// order (a matrix stored the other way round is its own transpose there, so the transposition and the triangle
/// flip): `lower` and `trans` are the triangle and transposition the BLAS reads. ok is false when X or A has no unit
/// stride.
struct Trsm {
  bool ok = false, row = true, lower = true, trans = false;
  long lda = 1, ldx = 1;
};
inline Trsm describe_trsm(bool left, bool lower, bool at, long m, long n, long a_rs, long a_cs, long x_rs, long x_cs) {
  Trsm c;
  const long na = left ? m : n;
  if (x_cs == 1 && (x_rs >= std::max(1L, n) || m <= 1)) {
    c.row = true;
    c.ldx = std::max(x_rs, std::max(1L, n));
  } else if (x_rs == 1 && (x_cs >= std::max(1L, m) || n <= 1)) {
    c.row = false;
    c.ldx = std::max(x_cs, std::max(1L, m));
  } else {
    return c;
  }
  const long along = c.row ? a_cs : a_rs, across = c.row ? a_rs : a_cs;  // unit stride wanted along `along`
  if (along == 1 && (across >= std::max(1L, na) || na <= 1)) {
    c.trans = at;
    c.lda = std::max(across, std::max(1L, na));
  } else if (across == 1 && (along >= std::max(1L, na) || na <= 1)) {
    c.trans = !at;
    c.lda = std::max(along, std::max(1L, na));
  } else {
    return c;
  }
  c.ok = true;
  c.lower = lower != c.trans;
  return c;
}

/// y = alpha op(A) x + beta y as one column-major GEMV on A as stored (rows x cols, leading dimension ld):
/// trans says whether to transpose it. A row-major A is its own transpose in column-major terms. ok is false when
/// A has no unit stride.
struct Gemv {
  bool ok = false, trans = false;
  long rows = 0, cols = 0, ld = 1;
};
inline Gemv describe_gemv_col_major(bool at, long m, long n, long a_rs, long a_cs) {
  const long rows = at ? n : m, cols = at ? m : n;  // A as stored
  if (a_rs == 1 && (a_cs >= std::max(1L, rows) || cols <= 1))
    return {true, at, rows, cols, std::max(a_cs, std::max(1L, rows))};
  if (a_cs == 1 && (a_rs >= std::max(1L, cols) || rows <= 1))
    return {true, !at, cols, rows, std::max(a_rs, std::max(1L, cols))};
  return {};
}

}  // namespace weft::linalg::impl::gemm_call
