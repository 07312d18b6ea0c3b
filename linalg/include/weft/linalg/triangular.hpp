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

#include <complex>
#include <string>
#include <type_traits>

#include <weft/linalg/blas2.hpp>
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

/// op(A)[r0:r1, c0:c1] as a matrix operand (a block of A, or of A's transpose), scaled by alpha.
template <class AV>
auto op_block(const MatOp<AV>& A, long r0, long r1, long c0, long c1, typename AV::non_const_value_type alpha) {
  auto v = A.trans ? subview(A.view, pair<long, long>(c0, c1), pair<long, long>(r0, r1))
                   : subview(A.view, pair<long, long>(r0, r1), pair<long, long>(c0, c1));
  return MatOp<decltype(v)>{v, A.trans, alpha};
}

/// Solves the rows [b0, b1) of op(A) X = X for k right-hand sides, one thread per right-hand side, each row a
/// dot product with the rows solved before it within [b0, b1) (the ones outside are already eliminated).
template <class T, class Exec, class AV, class XV>
void rhs_thread_solve(const Exec& exec, const char* label, const MatOp<AV>& A, bool lower, bool unit, const XV& X,
                      long k, long b0, long b1) {
  const auto av = A.view;
  const bool at = A.trans;
  parallel_for(
      label, RangePolicy<Exec, IndexType<long>>(exec, 0, k), WEFT_LAMBDA(long r) {
        for (long t = 0; t < b1 - b0; ++t) {
          const long i = lower ? b0 + t : b1 - 1 - t;
          const long j0 = lower ? b0 : i + 1, j1 = lower ? i : b1;
          // four partial sums: one running sum is a chain of dependent adds the compiler may not reorder
          T s0{}, s1{}, s2{}, s3{};
          long j = j0;
          for (; j + 4 <= j1; j += 4) {
            s0 += (at ? av(j, i) : av(i, j)) * X(j, r);
            s1 += (at ? av(j + 1, i) : av(i, j + 1)) * X(j + 1, r);
            s2 += (at ? av(j + 2, i) : av(i, j + 2)) * X(j + 2, r);
            s3 += (at ? av(j + 3, i) : av(i, j + 3)) * X(j + 3, r);
          }
          for (; j < j1; ++j) s0 += (at ? av(j, i) : av(i, j)) * X(j, r);
          const T acc = X(i, r) - ((s0 + s2) + (s1 + s3));
          X(i, r) = unit ? acc : acc / av(i, i);
        }
      });
}

/// The same on host threads when the rows of X are contiguous: each thread takes 16 right-hand sides and walks
/// the rows of the block, updating its 16 values of a row from each row before it (contiguous, vectorized),
/// where a thread per right-hand side would stride through X.
template <class T, class Exec, class AV, class XV>
void rows_solve(const Exec& exec, const char* label, const MatOp<AV>& A, bool lower, bool unit, const XV& X, long k,
                long b0, long b1) {
  const auto av = A.view;
  const bool at = A.trans;
  T* const x0 = X.data();
  const long ld = static_cast<long>(X.stride(0));
  constexpr long cw = 16;  // 32 held in registers ran at 0.6 of 16 (spilled)
  parallel_for(label, RangePolicy<Exec, IndexType<long>>(exec, 0, (k + cw - 1) / cw), [=](long c) {
    const long r0 = c * cw, r1 = r0 + cw < k ? r0 + cw : k;
    // The chunk's w values of row i are held in registers across the rows before it (xi and xj both point into
    // X, so updating xi in place made the compiler reload and store it for every j); w is a constant in full chunks.
    const auto solve = [&](auto w) {
      for (long t = 0; t < b1 - b0; ++t) {
        const long i = lower ? b0 + t : b1 - 1 - t;
        T* xi = x0 + i * ld + r0;
        const long j0 = lower ? b0 : i + 1, j1 = lower ? i : b1;
        T acc[cw];
        for (long r = 0; r < w; ++r) acc[r] = xi[r];
        for (long j = j0; j < j1; ++j) {
          const T a = at ? av(j, i) : av(i, j);
          const T* xj = x0 + j * ld + r0;
          for (long r = 0; r < w; ++r) acc[r] -= a * xj[r];
        }
        if (!unit) {
          const T d = av(i, i);
          for (long r = 0; r < w; ++r) acc[r] /= d;
        }
        for (long r = 0; r < w; ++r) xi[r] = acc[r];
      }
    };
    if (r1 - r0 == cw)
      solve(std::integral_constant<long, cw>{});
    else
      solve(r1 - r0);
  });
}
/// A vector seen as the one column of an n x 1 matrix.
template <class V>
struct VectorAsColumn {
  V v;
  WEFT_INLINE_FUNCTION typename V::reference_type operator()(long i, long) const { return v(i); }
};

/// Solves op(A) x = x in place for one right-hand side on host threads, in blocks of nb rows, so that the O(n^2)
/// work runs on every thread at gemv speed (one thread walking the triangle ran at 0.66 of OpenBLAS at n = 2048).
/// Where op(A)'s rows are contiguous, each block first subtracts op(A)[block, solved rows] x[solved rows] (row dots
/// across the threads) and is then solved by one thread; where its columns are, the block is solved first and the
/// rows still open are updated (a column sweep), so that A is read along its storage either way.
template <class Exec, class AV, class XV>
void blocked_vector_solve(const Exec& exec, const char* label, const MatOp<AV>& A, bool lower, bool unit, const XV& x) {
  using T = typename XV::non_const_value_type;
  const long n = static_cast<long>(A.rows());
  constexpr long nb = 128;
  const bool left_looking = (A.trans ? stride_of(A.view, 0) : stride_of(A.view, 1)) == 1;
  for (long s = 0; s < n; s += nb) {
    const long b0 = lower ? s : (n - s - nb > 0 ? n - s - nb : 0), b1 = lower ? (s + nb < n ? s + nb : n) : n - s;
    auto xb = subview(x, pair<long, long>(b0, b1));
    if (left_looking) {
      const long d0 = lower ? 0 : b1, d1 = lower ? b0 : n;  // the rows solved before this block
      if (d1 > d0)
        matrix_vector_impl(exec, op_block(A, b0, b1, d0, d1, T(-1)), subview(x, pair<long, long>(d0, d1)), xb, &xb,
                           Impl::native);
    }
    rhs_thread_solve<T>(exec, label, A, lower, unit, VectorAsColumn<XV>{x}, 1, b0, b1);
    if (!left_looking) {
      const long o0 = lower ? b1 : 0, o1 = lower ? n : b0;  // the rows still open
      if (o1 > o0) {
        auto xo = subview(x, pair<long, long>(o0, o1));
        matrix_vector_impl(exec, op_block(A, o0, o1, b0, b1, T(-1)), xb, xo, &xo, Impl::native);
      }
    }
  }
}

/// Solves the rows [b0, b1) of op(A) X = X for many right-hand sides (level 3), the rows outside already
/// eliminated, recursively: the first half of the rows (in solve order), then the second half less the first's
/// contribution with one matrix_product, X2 -= op(A)21 X1, then the second half. The products carry the O(n^2 k)
/// work with inner dimensions of n/2, n/4, ... (a loop over 64-row blocks gave every product an inner dimension
/// of 64: 0.55-0.65 of OpenBLAS's dtrsm at 2048 x 256, against 0.80 or so); blocks of up to 64 rows are solved with
/// 16 right-hand sides per host thread (one per thread on devices).
template <class Exec, class AV, class XV>
void blocked_left_solve(const Exec& exec, const MatOp<AV>& A, bool lower, bool unit, const XV& X, long b0, long b1) {
  using T = typename XV::non_const_value_type;
  constexpr long nb = 64;
  const long k = static_cast<long>(X.extent(1));
  if (b1 - b0 <= nb) {
    const char* label = "weft::linalg::triangular solve (diagonal block)";
    if constexpr (Exec::impl_is_host_space) {
      if (X.stride(1) == 1) {
        rows_solve<T>(exec, label, A, lower, unit, X, k, b0, b1);
        return;
      }
    }
    rhs_thread_solve<T>(exec, label, A, lower, unit, X, k, b0, b1);
    return;
  }
  const long mid = b0 + ((b1 - b0) / 2 + nb - 1) / nb * nb;  // the halves split on a block boundary
  // [f0, f1) is solved first and [s0, s1) second: top-down for a lower triangle, bottom-up for an upper one
  const long f0 = lower ? b0 : mid, f1 = lower ? mid : b1, s0 = lower ? mid : b0, s1 = lower ? b1 : mid;
  blocked_left_solve(exec, A, lower, unit, X, f0, f1);
  auto x_second = subview(X, pair<long, long>(s0, s1), ALL);
  auto x_first = subview(X, pair<long, long>(f0, f1), ALL);
  const MatOp<decltype(x_first)> x1{x_first, false, T(1)};
  matrix_product_impl(exec, op_block(A, s0, s1, f0, f1, T(-1)), x1, x_second, &x_second, Impl::native);
  blocked_left_solve(exec, A, lower, unit, X, s0, s1);
}
template <class Exec, class AV, class XV>
void blocked_left_solve(const Exec& exec, const MatOp<AV>& A, bool lower, bool unit, const XV& X) {
  blocked_left_solve(exec, A, lower, unit, X, 0, static_cast<long>(A.rows()));
}

template <class T>
constexpr bool lower_v = std::is_same_v<T, lower_triangle_t>;

// The vendor paths: ?trsm on X (m x n) in place; false when the operands do not suit it (no unit stride along rows
// or columns). CBLAS (linalg/src/vendor_blas.cpp) and, on weft::Cuda, cuBLAS (linalg/src/vendor_cublas.cpp,
// stream-ordered).
#define WEFT_IMPL_TRSM_DECL(T)                                                                                        \
  bool vendor_trsm(bool left, bool lower, bool unit, bool at, long m, long n, const T* a, long a_rs, long a_cs, T* x, \
                   long x_rs, long x_cs);
WEFT_IMPL_FOR_BLAS_TYPES(WEFT_IMPL_TRSM_DECL)
#undef WEFT_IMPL_TRSM_DECL

/// The vendor trsm of exec's space: cuBLAS on weft::Cuda; CBLAS, which is synchronous, after the instance's work.
template <class Exec, class... Args>
bool space_vendor_trsm(const Exec& exec, const Args&... args) {
  if constexpr (DeviceVendorBlas<Exec>::available) {
    return DeviceVendorBlas<Exec>::trsm(exec, args...);
  } else {
    exec.fence();
    return vendor_trsm(args...);
  }
}

/// Tries the vendor solve op(A) X = X (left) or X op(A) = X (right) on host operands; false when Weft's own
/// kernel must run. Impl::vendor without a usable vendor path raises.
template <class Exec, class AV, class XV>
bool try_vendor_trsm(const Exec& exec, const char* who, Impl impl, bool left, bool lower, bool unit, const MatOp<AV>& A,
                     typename XV::non_const_value_type* x, long m, long n, long x_rs, long x_cs) {
  using T = typename XV::non_const_value_type;
  if (impl == Impl::automatic) impl = default_impl();
  if (impl == Impl::native) return false;
  // CBLAS on host spaces, cuBLAS on Cuda (automatic follows each space's table)
  constexpr bool on_cuda = DeviceVendorBlas<Exec>::available;
  if constexpr ((Exec::impl_is_host_space || on_cuda) && vendor_type_v<T> &&
                std::is_same_v<typename AV::non_const_value_type, T>) {
    const double na = double(left ? m : n), nrhs = double(left ? n : m);
    // one right-hand side has points of its own ("trsv"): Weft's blocked vector solve and the vendor's differ
    // most there (3-4x apart at n = 2048), which square solves of the same flops do not tell
    if ((on_cuda || has_vendor_blas()) && wants_vendor<T>(impl, nrhs == 1 ? "trsv" : "trsm", na * na * nrhs, on_cuda)) {
      if (m == 0 || n == 0) {
        if constexpr (!on_cuda) exec.fence();
        return true;
      }
      const T* a = A.view.data();
      if (space_vendor_trsm(exec, left, lower, unit, A.trans, m, n, a, stride_of(A.view, 0), stride_of(A.view, 1), x,
                            x_rs, x_cs))
        return true;
    }
  }
  if (impl == Impl::vendor)
    vendor_unavailable(who,
                       "float, double or complex in host memory (CBLAS) or on Cuda (cuBLAS), with unit stride along "
                       "rows or columns");
  return false;
}

}  // namespace impl

/// x = A^-1 b for a triangular A (std::linalg::triangular_matrix_vector_solve); x may be b itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>&& is_view_v<X>) void triangular_matrix_vector_solve(
    const Exec& exec, const A& a, Tri, Diag, const B& b, const X& x, Impl impl = Impl::automatic) {
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
  constexpr bool lower = impl::lower_v<Tri>, unit = std::is_same_v<Diag, implicit_unit_diagonal_t>;
  const long n = static_cast<long>(x.extent(0));
  if (impl::try_vendor_trsm<Exec, decltype(m.view), X>(exec, "triangular_matrix_vector_solve", impl, true, lower, unit,
                                                       m, x.data(), n, 1, impl::stride_of(x, 0), 1))
    return;
  // Host threads: blocks of rows, their gemv across the threads (team barriers per column cost more than they
  // share); device: one team.
  if constexpr (Exec::impl_is_host_space)
    impl::blocked_vector_solve(exec, "weft::linalg::triangular_matrix_vector_solve", m, lower, unit, x);
  else
    impl::triangular_solve_teams<typename X::non_const_value_type>(exec, "weft::linalg::triangular_matrix_vector_solve",
                                                                   m, lower, unit, impl::VectorAsColumn<X>{x}, true, 1);
}
/// b = A^-1 b in place.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_vector_solve(
    const Exec& exec, const A& a, Tri t, Diag d, const B& b, Impl impl = Impl::automatic) {
  triangular_matrix_vector_solve(exec, a, t, d, b, b, impl);
}

namespace impl {
/// The left (A X = B) and right (X A = B) matrix solves.
template <class Exec, class A, class Tri, class Diag, class B, class X>
void triangular_matrix_matrix(const Exec& exec, bool left, const A& a, const B& b, const X& x, Impl impl) {
  const char* who = left ? "triangular_matrix_matrix_left_solve" : "triangular_matrix_matrix_right_solve";
  static_assert(is_view_v<B> && B::R == 2 && is_view_v<X> && X::R == 2,
                "weft::linalg::triangular_matrix_matrix_*_solve: B and X are rank-2 Views");
  auto m = triangular_operand(a, who);
  if ((left ? b.extent(0) : b.extent(1)) != m.rows() || x.extent(0) != b.extent(0) || x.extent(1) != b.extent(1))
    throw Error(std::string("weft::linalg::") + who + ": A \"" + m.view.label() + "\" is " + std::to_string(m.rows()) +
                " x " + std::to_string(m.cols()) + ", B \"" + b.label() + "\" " + std::to_string(b.extent(0)) + " x " +
                std::to_string(b.extent(1)) + ", X \"" + x.label() + "\" " + std::to_string(x.extent(0)) + " x " +
                std::to_string(x.extent(1)) +
                (left ? "; A X = B needs A n x n, B and X n x k" : "; X A = B needs A n x n, B and X k x n"));
  if (static_cast<const void*>(b.data()) != static_cast<const void*>(x.data())) deep_copy(exec, x, b);
  constexpr bool lower = lower_v<Tri>, unit = std::is_same_v<Diag, implicit_unit_diagonal_t>;
  if (try_vendor_trsm<Exec, decltype(m.view), X>(exec, who, impl, left, lower, unit, m, x.data(),
                                                 static_cast<long>(x.extent(0)), static_cast<long>(x.extent(1)),
                                                 stride_of(x, 0), stride_of(x, 1)))
    return;
  const long n = static_cast<long>(m.rows()), k = static_cast<long>(left ? x.extent(1) : x.extent(0));
  // Many right-hand sides: the blocked (level-3) solve (on host spaces at any n: at n = 128 with 128 right-hand
  // sides a thread per right-hand side took 449 us, 16x OpenBLAS, and more than the blocked solve at n = 256); on
  // devices when A is large too; else one team per right-hand side.
  const bool blocked = k >= 8 && (Exec::impl_is_host_space || n > 128);
  // On host spaces a thread per right-hand side (no barriers); on devices a team per right-hand side.
  using T = typename X::non_const_value_type;
  if (left) {
    if (blocked)
      blocked_left_solve(exec, m, lower, unit, x);
    else if constexpr (Exec::impl_is_host_space) {
      if (k == 1)  // one right-hand side: the vector solve's blocks keep every thread busy
        blocked_vector_solve(exec, "weft::linalg::triangular_matrix_matrix_left_solve", m, lower, unit,
                             subview(x, ALL, 0));
      else
        rhs_thread_solve<T>(exec, "weft::linalg::triangular_matrix_matrix_left_solve", m, lower, unit, x, k, 0, n);
    } else
      triangular_solve_teams<T>(exec, "weft::linalg::triangular_matrix_matrix_left_solve", m, lower, unit, x, true, k);
  } else {
    // x_r A = b_r  <=>  A^T x_r^T = b_r^T: the rows of X against op(A)^T, whose triangle is the other one.
    m.trans = !m.trans;
    using XT = View<typename X::value_type**, LayoutStride, typename X::memory_space, MemoryUnmanaged>;
    const XT xt(x.data(), LayoutStride(x.extent(1), x.stride(1), x.extent(0), x.stride(0)));  // X^T
    if (blocked)
      blocked_left_solve(exec, m, !lower, unit, xt);
    else if constexpr (Exec::impl_is_host_space) {
      if (k == 1)
        blocked_vector_solve(exec, "weft::linalg::triangular_matrix_matrix_right_solve", m, !lower, unit,
                             subview(xt, ALL, 0));
      else
        rhs_thread_solve<T>(exec, "weft::linalg::triangular_matrix_matrix_right_solve", m, !lower, unit, xt, k, 0, n);
    } else
      triangular_solve_teams<T>(exec, "weft::linalg::triangular_matrix_matrix_right_solve", m, !lower, unit, x, false,
                                k);
  }
}
}  // namespace impl

/// X = A^-1 B: solves A X = B for a triangular A, one team per column of B; X may be B itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_left_solve(
    const Exec& exec, const A& a, Tri, Diag, const B& b, const X& x, Impl impl = Impl::automatic) {
  impl::triangular_matrix_matrix<Exec, A, Tri, Diag>(exec, true, a, b, x, impl);
}
/// X = B A^-1: solves X A = B for a triangular A, one team per row of B; X may be B itself.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_right_solve(
    const Exec& exec, const A& a, Tri, Diag, const B& b, const X& x, Impl impl = Impl::automatic) {
  impl::triangular_matrix_matrix<Exec, A, Tri, Diag>(exec, false, a, b, x, impl);
}
/// The name for the left solve: X = A^-1 B.
template <ExecutionSpace Exec, class A, class Tri, class Diag, class B, class X>
requires(impl::is_triangle_v<Tri>&& impl::is_diagonal_v<Diag>) void triangular_matrix_matrix_solve(
    const Exec& exec, const A& a, Tri t, Diag d, const B& b, const X& x, Impl impl = Impl::automatic) {
  triangular_matrix_matrix_left_solve(exec, a, t, d, b, x, impl);
}

}  // namespace weft::linalg
