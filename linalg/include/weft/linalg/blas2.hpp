// weft::linalg BLAS 2: matrix_vector_product (y = op(A) x and y = z + op(A) x, std::linalg names), with
// transposed(...) and scaled(...) matrix operands and any layout. Weft's own kernels: one thread per row of op(A)
// (a dot product each), or, on host spaces when the rows of op(A) are strided (op(A) stored column by column),
// one thread per block of up to 2048 rows that walks the columns (contiguous reads). The vendor path: cblas_?gemv.
#pragma once

#include <complex>
#include <string>

#include <weft/linalg/gemm.hpp>

namespace weft::linalg {
namespace impl {
// The vendor paths: y = alpha op(A) x + beta y; false when A has no unit stride. CBLAS (linalg/src/vendor_blas.cpp)
// and, on weft::Cuda, cuBLAS (linalg/src/vendor_cublas.cpp, stream-ordered).
#define WEFT_IMPL_GEMV_DECL(T)                                                                                        \
  bool vendor_gemv(bool at, long m, long n, T alpha, const T* a, long a_rs, long a_cs, const T* x, long incx, T beta, \
                   T* y, long incy);
WEFT_IMPL_FOR_BLAS_TYPES(WEFT_IMPL_GEMV_DECL)
#undef WEFT_IMPL_GEMV_DECL

/// The vendor gemv of exec's space: cuBLAS on weft::Cuda; CBLAS, which is synchronous, after the instance's work.
template <class Exec, class... Args>
bool space_vendor_gemv(const Exec& exec, const Args&... args) {
  if constexpr (DeviceVendorBlas<Exec>::available) {
    return DeviceVendorBlas<Exec>::gemv(exec, args...);
  } else {
    exec.fence();
    return vendor_gemv(args...);
  }
}

template <class Exec, class AV, class X, class Y, class Z>
void matrix_vector_impl(const Exec& exec, const MatOp<AV>& A, const X& x, const Y& y, const Z* z, Impl impl) {
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
  const long m = static_cast<long>(A.rows()), n = static_cast<long>(A.cols());
  if (impl == Impl::automatic) impl = default_impl();
  // y = z + A x with no columns is y = z; BLAS's quick return would leave y untouched instead of zeroing it.
  if ((m == 0 || n == 0) && impl == Impl::vendor) impl = Impl::native;
  // CBLAS on host spaces, cuBLAS on Cuda (automatic follows each space's table)
  constexpr bool on_cuda = DeviceVendorBlas<Exec>::available;
  if constexpr ((Exec::impl_is_host_space || on_cuda) && vendor_type_v<T> &&
                std::is_same_v<typename AV::non_const_value_type, T> &&
                std::is_same_v<typename X::non_const_value_type, T>) {
    if ((on_cuda || has_vendor_blas()) && m > 0 && n > 0 && x.stride(0) > 0 && y.stride(0) > 0 &&
        wants_vendor<T>(impl, "gemv", 2.0 * double(m) * double(n), on_cuda)) {
      if (z && static_cast<const void*>(z->data()) != static_cast<const void*>(y.data())) deep_copy(exec, y, *z);
      const T* a = av.data();
      if (space_vendor_gemv(exec, at, m, n, alpha, a, stride_of(av, 0), stride_of(av, 1), x.data(), stride_of(x, 0),
                            z ? T(1) : T(0), y.data(), stride_of(y, 0)))
        return;  // refused: the native kernel below still reads z, which the copy left as it was
    }
  }
  if (impl == Impl::vendor)
    vendor_unavailable("matrix_vector_product",
                       "float, double or complex in host memory (CBLAS) or on Cuda (cuBLAS), A with unit stride along "
                       "rows or columns");
  Z zz = z ? *z : Z();
  // Host threads and op(A) stored by columns: each thread takes a block of rows and walks the columns, so A is
  // read contiguously (a thread per row would stride through memory).
  const long row_stride = at ? stride_of(av, 1) : stride_of(av, 0);
  if constexpr (Exec::impl_is_host_space) {
    if (row_stride == 1 && n > 1 && m >= 64) {
      // Rows per thread and sweep: up to 2048 (16 KiB of each column: long runs for the prefetcher; 512 measured
      // 0.72-0.78 of OpenBLAS's column-major dgemv at 4096^2, 2048 0.83-0.92), fewer when m is small, so that every
      // thread gets a block.
      constexpr long rb_max = 2048;
      const long per_thread = (m + exec.concurrency() - 1) / exec.concurrency();
      const long rb = per_thread >= rb_max ? rb_max : (per_thread < 64 ? 64 : (per_thread + 7) / 8 * 8);
      const long blocks = (m + rb - 1) / rb;
      const auto* a0 = av.data();
      const long cs = at ? stride_of(av, 0) : stride_of(av, 1);  // op(A)(i, j) = a0[i + j cs]
      parallel_for("weft::linalg::matrix_vector_product (column sweep)",
                   RangePolicy<Exec, IndexType<long>>(exec, 0, blocks), [=](long blk) {
                     const long i0 = blk * rb, len = (i0 + rb < m ? i0 + rb : m) - i0;
                     T acc[rb_max] = {};
                     long j = 0;
                     constexpr int C = 8;  // columns per sweep: an eighth of the accumulator traffic
                     for (; j + C <= n; j += C) {
                       T xs[C];
                       decltype(a0) c[C];
                       for (int q = 0; q < C; ++q) {
                         xs[q] = x(j + q);
                         c[q] = a0 + i0 + (j + q) * cs;
                       }
                       for (long i = 0; i < len; ++i) {
                         T s0 = c[0][i] * xs[0];
                         for (int q = 1; q < C; ++q) s0 += c[q][i] * xs[q];
                         acc[i] += s0;
                       }
                     }
                     for (; j < n; ++j) {
                       const T xj = x(j);
                       const auto* c = a0 + i0 + j * cs;
                       for (long i = 0; i < len; ++i) acc[i] += c[i] * xj;
                     }
                     for (long i = 0; i < len; ++i) y(i0 + i) = (has_z ? T(zz(i0 + i)) : T(0)) + alpha * acc[i];
                   });
      return;
    }
    // Host threads and rows of op(A) contiguous, x too: dot products of 4 rows at a time over raw pointers, each
    // with 4 partial sums (kept in vector registers: one running sum is a dependency chain the compiler may not
    // reorder), so that each load of x serves 4 rows; each row is prefetched 2 KiB ahead (measured on the 2-core
    // EPYC: 44 GB/s against 36 without, the hand-written OpenMP loop's figure).
    const long col_stride = at ? stride_of(av, 0) : stride_of(av, 1);
    if (col_stride == 1 && stride_of(x, 0) == 1 && n >= 16) {
      const auto* a0 = av.data();
      const auto* xp = x.data();
      constexpr int R = 4, Q = 4;
      parallel_for("weft::linalg::matrix_vector_product (row dots)",
                   RangePolicy<Exec, IndexType<long>>(exec, 0, (m + R - 1) / R), [=](long g) {
                     const long i0 = g * R, rows = m - i0 < R ? m - i0 : R;
                     const decltype(a0) r[R] = {a0 + i0 * row_stride, a0 + (i0 + (rows > 1)) * row_stride,
                                                a0 + (i0 + (rows > 2) * 2) * row_stride,
                                                a0 + (i0 + (rows > 3) * 3) * row_stride};
                     T s[R][Q] = {};
                     long j = 0;
                     constexpr long ahead = 2048 / long(sizeof(T)),
                                    line = 64 / long(sizeof(T)) > 0 ? 64 / sizeof(T) : 1;
                     for (; j + Q <= n; j += Q) {
                       if (j % line == 0)
                         for (int k = 0; k < R; ++k) __builtin_prefetch(r[k] + j + ahead);
                       for (int q = 0; q < Q; ++q) {
                         const T xv = xp[j + q];
                         for (int k = 0; k < R; ++k) s[k][q] += r[k][j + q] * xv;
                       }
                     }
                     for (int k = 0; k < rows; ++k) {
                       T t = (s[k][0] + s[k][2]) + (s[k][1] + s[k][3]);
                       for (long jj = j; jj < n; ++jj) t += r[k][jj] * xp[jj];
                       y(i0 + k) = (has_z ? T(zz(i0 + k)) : T(0)) + alpha * t;
                     }
                   });
      return;
    }
  }
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
void matrix_vector_product(const Exec& exec, const A& a, const X& x, const Y& y, Impl impl = Impl::automatic) {
  impl::matrix_vector_impl(exec, impl::as_matop(a), x, y, static_cast<const Y*>(nullptr), impl);
}
/// y = z + A x (z may be y itself).
template <ExecutionSpace Exec, class A, class X, class Z, class Y>
requires(is_view_v<Z>&& is_view_v<Y>) void matrix_vector_product(const Exec& exec, const A& a, const X& x, const Z& z,
                                                                 const Y& y, Impl impl = Impl::automatic) {
  impl::matrix_vector_impl(exec, impl::as_matop(a), x, y, &z, impl);
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
