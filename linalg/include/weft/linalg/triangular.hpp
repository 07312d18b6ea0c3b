// weft::linalg triangular solves (std::linalg names and tags): triangular_matrix_vector_solve (A x = b),
// triangular_matrix_matrix_left_solve (A X = B; also spelled triangular_matrix_matrix_solve) and
// triangular_matrix_matrix_right_solve (X A = B), with upper_triangle / lower_triangle and
// implicit_unit_diagonal / explicit_diagonal. A may be transposed(...); any layout; x may be b itself.
//
// Weft's own kernel: one team per right-hand side, which walks the triangle column by column (the
// "axpy" form): x_j is final once the columns before it have been eliminated, then the team's threads
// subtract a_ij x_j from the rows still open, with two team barriers per column. The columns of A are read
// in order, so LayoutLeft streams; the work is O(n^2) per right-hand side and the span O(n).
#pragma once

#include <string>
#include <type_traits>

#include <weft/linalg/gemm.hpp>

namespace weft::linalg {

struct upper_triangle_t {
  explicit upper_triangle_t() = default;
};
struct lower_triangle_t {
  explicit lower_triangle_t() = default;
};
inline constexpr upper_triangle_t upper_triangle{};
inline constexpr lower_triangle_t lower_triangle{};
struct implicit_unit_diagonal_t {
  explicit implicit_unit_diagonal_t() = default;
};
struct explicit_diagonal_t {
  explicit explicit_diagonal_t() = default;
};
inline constexpr implicit_unit_diagonal_t implicit_unit_diagonal{};
inline constexpr explicit_diagonal_t explicit_diagonal{};

namespace impl {
template <class T>
inline constexpr bool is_triangle_v = std::is_same_v<T, upper_triangle_t> || std::is_same_v<T, lower_triangle_t>;
template <class T>
inline constexpr bool is_diagonal_v =
    std::is_same_v<T, implicit_unit_diagonal_t> || std::is_same_v<T, explicit_diagonal_t>;

template <class A>
auto triangular_operand(const A& a, const char* who) {
  static_assert(!is_scaled<A>::value,
                "weft::linalg: a triangular solve takes A or transposed(A), not scaled(...): "
                "scale the right-hand side instead");
  auto m = as_matop(a);
  if (m.rows() != m.cols())
    throw Error(std::string("weft::linalg::") + who + ": A \"" + m.view.label() + "\" is " + std::to_string(m.rows()) +
                " x " + std::to_string(m.cols()) + "; a triangular solve needs a square A");
  return m;
}

/// Solves op(A) x_r = x_r in place for every right-hand side r < nrhs, where x_r(i) = X(i, r) when
/// `columns`, else X(r, i) (the rows of X, for the right solve). `lower` is the triangle of op(A).
template <class T, class Exec, class AV, class XV>
void triangular_solve_teams(const Exec& exec, const char* label, const MatOp<AV>& A, bool lower, bool unit, const XV& X,
                            bool columns, long nrhs) {
  const long n = static_cast<long>(A.rows());
  if (n == 0 || nrhs == 0) return;
  const auto av = A.view;
  const bool at = A.trans;
  using member = typename TeamPolicy<Exec>::member_type;
  parallel_for(
      label, TeamPolicy<Exec>(exec, static_cast<int>(nrhs), AUTO), WEFT_LAMBDA(const member& m) {
        const long r = m.league_rank();
        for (long s = 0; s < n; ++s) {
          const long j = lower ? s : n - 1 - s;
          T xj = columns ? X(j, r) : X(r, j);
          if (!unit) xj /= av(j, j);
          m.team_barrier();  // every thread has read x_j before it is overwritten
          single(PerTeam(m), [&]() {
            if (columns)
              X(j, r) = xj;
            else
              X(r, j) = xj;
          });
          // the rows still open: j+1..n-1 below a lower triangle, 0..j-1 above an upper one
          const long b = lower ? j + 1 : 0, e = lower ? n : j;
          parallel_for(TeamThreadRange(m, b, e), [&](long i) {
            const T aij = at ? av(j, i) : av(i, j);
            if (columns)
              X(i, r) -= aij * xj;
            else
              X(r, i) -= aij * xj;
          });
          m.team_barrier();
        }
      });
}

template <class T>
constexpr bool lower_v = std::is_same_v<T, lower_triangle_t>;

/// A vector seen as the one column of an n x 1 matrix.
template <class V>
struct VectorAsColumn {
  V v;
  WEFT_INLINE_FUNCTION typename V::reference_type operator()(long i, long) const { return v(i); }
};
}  // namespace impl

/// x = A^-1 b for a triangular A (std::linalg::triangular_matrix_vector_solve); x may be b itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_vector_solve(const Exec& exec,
                                                                                                   const A& a, Tri,
                                                                                                   Diag, const B& b,
                                                                                                   const X& x) {
  impl::check_vector<B>("triangular_matrix_vector_solve");
  impl::check_vector<X>("triangular_matrix_vector_solve");
  const auto m = impl::triangular_operand(a, "triangular_matrix_vector_solve");
  if (b.extent(0) != m.rows() || x.extent(0) != m.rows())
    throw Error("weft::linalg::triangular_matrix_vector_solve: A \"" + m.view.label() + "\" is " +
                std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + " but b \"" + b.label() + "\" has " +
                std::to_string(b.extent(0)) + " and x \"" + x.label() + "\" " + std::to_string(x.extent(0)) +
                " elements; A x = b needs n x n, n and n");
  if (static_cast<const void*>(b.data()) != static_cast<const void*>(x.data())) deep_copy(exec, x, b);
  // Tri names the triangle of A as passed, i.e. of op(A) when A is transposed(...).
  impl::triangular_solve_teams<typename X::non_const_value_type>(
      exec, "weft::linalg::triangular_matrix_vector_solve", m, impl::lower_v<Tri>,
      std::is_same_v<Diag, implicit_unit_diagonal_t>, impl::VectorAsColumn<X>{x}, true, 1);
}
/// b = A^-1 b in place.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_vector_solve(const Exec& exec,
                                                                                                   const A& a, Tri t,
                                                                                                   Diag d, const B& b) {
  triangular_matrix_vector_solve(exec, a, t, d, b, b);
}

/// X = A^-1 B: solves A X = B for a triangular A, one team per column of B; X may be B itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_left_solve(
    const Exec& exec, const A& a, Tri, Diag, const B& b, const X& x) {
  static_assert(is_view_v<B> && B::R == 2 && is_view_v<X> && X::R == 2,
                "weft::linalg::triangular_matrix_matrix_left_solve: B and X are rank-2 Views");
  const auto m = impl::triangular_operand(a, "triangular_matrix_matrix_left_solve");
  if (b.extent(0) != m.rows() || x.extent(0) != b.extent(0) || x.extent(1) != b.extent(1))
    throw Error("weft::linalg::triangular_matrix_matrix_left_solve: A \"" + m.view.label() + "\" is " +
                std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + ", B \"" + b.label() + "\" " +
                std::to_string(b.extent(0)) + " x " + std::to_string(b.extent(1)) + ", X \"" + x.label() + "\" " +
                std::to_string(x.extent(0)) + " x " + std::to_string(x.extent(1)) +
                "; A X = B needs A n x n, B and X n x k");
  if (static_cast<const void*>(b.data()) != static_cast<const void*>(x.data())) deep_copy(exec, x, b);
  impl::triangular_solve_teams<typename X::non_const_value_type>(
      exec, "weft::linalg::triangular_matrix_matrix_left_solve", m, impl::lower_v<Tri>,
      std::is_same_v<Diag, implicit_unit_diagonal_t>, x, true, static_cast<long>(x.extent(1)));
}
/// X = B A^-1: solves X A = B for a triangular A, one team per row of B; X may be B itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_right_solve(
    const Exec& exec, const A& a, Tri, Diag, const B& b, const X& x) {
  static_assert(is_view_v<B> && B::R == 2 && is_view_v<X> && X::R == 2,
                "weft::linalg::triangular_matrix_matrix_right_solve: B and X are rank-2 Views");
  auto m = impl::triangular_operand(a, "triangular_matrix_matrix_right_solve");
  if (b.extent(1) != m.rows() || x.extent(0) != b.extent(0) || x.extent(1) != b.extent(1))
    throw Error("weft::linalg::triangular_matrix_matrix_right_solve: A \"" + m.view.label() + "\" is " +
                std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + ", B \"" + b.label() + "\" " +
                std::to_string(b.extent(0)) + " x " + std::to_string(b.extent(1)) + ", X \"" + x.label() + "\" " +
                std::to_string(x.extent(0)) + " x " + std::to_string(x.extent(1)) +
                "; X A = B needs A n x n, B and X k x n");
  if (static_cast<const void*>(b.data()) != static_cast<const void*>(x.data())) deep_copy(exec, x, b);
  // x_r A = b_r  <=>  A^T x_r^T = b_r^T: the rows of X against op(A)^T, whose triangle is the other one.
  m.trans = !m.trans;
  impl::triangular_solve_teams<typename X::non_const_value_type>(
      exec, "weft::linalg::triangular_matrix_matrix_right_solve", m, !impl::lower_v<Tri>,
      std::is_same_v<Diag, implicit_unit_diagonal_t>, x, false, static_cast<long>(x.extent(0)));
}
/// The name for the left solve: X = A^-1 B.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_solve(const Exec& exec,
                                                                                                   const A& a, Tri t,
                                                                                                   Diag d, const B& b,
                                                                                                   const X& x) {
  triangular_matrix_matrix_left_solve(exec, a, t, d, b, x);
}

}  // namespace weft::linalg
