// weft::linalg BLAS 2: matrix_vector_product (y = op(A) x and y = z + op(A) x, std::linalg names), with
// transposed(...) and scaled(...) matrix operands and any layout. Weft's own kernel: one thread per row of op(A).
#pragma once

#include <string>

#include <weft/linalg/gemm.hpp>

namespace weft::linalg {
namespace impl {
template <class Exec, class AV, class X, class Y, class Z>
void matrix_vector_impl(const Exec& exec, const MatOp<AV>& A, const X& x, const Y& y, const Z* z) {
  using T = typename Y::non_const_value_type;
  check_vector<X>("matrix_vector_product");
  check_vector<Y>("matrix_vector_product");
  if (A.cols() != x.extent(0) || A.rows() != y.extent(0) || (z && z->extent(0) != y.extent(0)))
    throw Error("weft::linalg::matrix_vector_product: shapes do not match: A \"" + A.view.label() + "\" is " +
                std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + (A.trans ? " (transposed)" : "") +
                ", x \"" + x.label() + "\" has " + std::to_string(x.extent(0)) + ", y \"" + y.label() + "\" " +
                std::to_string(y.extent(0)) + (z ? ", z " + std::to_string(z->extent(0)) : std::string()) +
                "; y = A x needs A m x n, x n, y m");
  const auto av = A.view;
  const bool at = A.trans, has_z = z != nullptr;
  const T alpha = A.alpha;
  const long n = static_cast<long>(A.cols());
  Z zz = z ? *z : Z();
  parallel_for(
      "weft::linalg::matrix_vector_product",
      RangePolicy<Exec, IndexType<long>>(exec, 0, static_cast<long>(y.extent(0))), WEFT_LAMBDA(long i) {
        T s{};
        for (long j = 0; j < n; ++j) s += (at ? av(j, i) : av(i, j)) * x(j);
        y(i) = (has_z ? T(zz(i)) : T(0)) + alpha * s;
      });
}
}  // namespace impl

/// y = A x (A may be transposed(...) and/or scaled(...)).
template <ExecutionSpace Exec, class A, class X, class Y>
requires is_view_v<Y>
void matrix_vector_product(const Exec& exec, const A& a, const X& x, const Y& y) {
  impl::matrix_vector_impl(exec, impl::as_matop(a), x, y, static_cast<const Y*>(nullptr));
}
/// y = z + A x (z may be y itself).
template <ExecutionSpace Exec, class A, class X, class Z, class Y>
requires(is_view_v<Z>&& is_view_v<Y>) void matrix_vector_product(const Exec& exec, const A& a, const X& x, const Z& z,
                                                                 const Y& y) {
  impl::matrix_vector_impl(exec, impl::as_matop(a), x, y, &z);
}
/// A = A + x y^T (std::linalg::matrix_rank_1_update; x or y may be scaled(alpha, v)), any layout of A.
template <ExecutionSpace Exec, class X, class Y, class A>
void matrix_rank_1_update(const Exec& exec, const X& x, const Y& y, const A& a) {
  impl::check_vector<X>("matrix_rank_1_update");
  impl::check_vector<Y>("matrix_rank_1_update");
  static_assert(is_view_v<A> && A::R == 2, "weft::linalg::matrix_rank_1_update: A must be a rank-2 View");
  if (x.extent(0) != a.extent(0) || y.extent(0) != a.extent(1))
    throw Error("weft::linalg::matrix_rank_1_update: A \"" + a.label() + "\" is " + std::to_string(a.extent(0)) +
                " x " + std::to_string(a.extent(1)) + " but x \"" + x.label() + "\" has " +
                std::to_string(x.extent(0)) + " and y \"" + y.label() + "\" " + std::to_string(y.extent(0)) +
                " elements; A += x y^T needs A m x n, x m, y n");
  const long n = static_cast<long>(a.extent(1));
  parallel_for(
      "weft::linalg::matrix_rank_1_update", RangePolicy<Exec, IndexType<long>>(exec, 0, static_cast<long>(a.extent(0))),
      WEFT_LAMBDA(long i) {
        const auto xi = x(i);
        for (long j = 0; j < n; ++j) a(i, j) += xi * y(j);
      });
}
}  // namespace weft::linalg
