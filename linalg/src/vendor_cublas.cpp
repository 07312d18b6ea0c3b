// cuBLAS for weft::linalg on weft::Cuda (the vendor implementation of CUDA builds: matrix_product, matrix_vector_
// product, the triangular solves): one handle per process, created on first use and destroyed at weft::finalize,
// set to the instance's stream per call, so every call is stream-ordered and does not block.
#include <cublas_v2.h>

#include <climits>
#include <complex>
#include <initializer_list>
#include <mutex>
#include <string>

#include <weft/linalg.hpp>

#include "gemm_call.hpp"

namespace weft::linalg::impl {
namespace {
std::mutex g_mutex;
cublasHandle_t g_handle = nullptr;

cublasHandle_t handle_locked() {
  if (!g_handle) {
    const cublasStatus_t s = cublasCreate(&g_handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
      g_handle = nullptr;
      throw Error(std::string("weft::linalg: creating the cuBLAS handle failed (") + cublasGetStatusString(s) +
                  "); use Impl::native for Weft's own GPU GEMM");
    }
    push_finalize_hook([] {
      const std::lock_guard<std::mutex> g(g_mutex);
      if (g_handle) cublasDestroy(g_handle);
      g_handle = nullptr;
    });
  }
  return g_handle;
}

/// Runs `call(handle)` on the instance's stream under the handle's lock, in TF32 math mode when allowed (float and
/// complex<float> products); raises naming `who` when cuBLAS fails.
template <class Call>
void with_handle(const Cuda& exec, const char* who, const std::string& sizes, Call&& call) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  const cublasHandle_t h = handle_locked();
  cublasSetStream(h, exec.cuda_stream());
  cublasSetMathMode(h, tf32_allowed() ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
  const cublasStatus_t s = call(h);
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("weft::linalg::") + who + ": cuBLAS failed (" + cublasGetStatusString(s) + ") on " + sizes +
                "; Impl::native runs Weft's own kernel");
}
bool fits_int(std::initializer_list<long> v) {
  for (long x : v)
    if (x > INT_MAX || x < INT_MIN) return false;
  return true;
}
/// Runs `call(handle, op(B), op(A), n, m, k, B, ldb, A, lda, C, ldc)`: the row-major product as cuBLAS's
/// column-major one (C^T = op(B)^T op(A)^T). False when an operand has no unit stride or a size exceeds int.
template <class In, class T, class Call>
bool run(const Cuda& exec, bool at, bool bt, long m, long n, long k, const In* a, long a_rs, long a_cs, const In* b,
         long b_rs, long b_cs, T* c, long c_rs, long c_cs, Call&& call) {
  gemm_call::RowMajorGemm<In, T> g;
  if (!gemm_call::as_row_major(at, bt, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, g)) return false;
  if (!fits_int({g.m, g.n, g.k, g.lda, g.ldb, g.ldc})) return false;
  with_handle(exec, "matrix_product", std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k),
              [&](cublasHandle_t h) {
                return call(h, g.tb ? CUBLAS_OP_T : CUBLAS_OP_N, g.ta ? CUBLAS_OP_T : CUBLAS_OP_N, int(g.n), int(g.m),
                            int(g.k), g.b, int(g.ldb), g.a, int(g.lda), g.c, int(g.ldc));
              });
  return true;
}
template <class T>
auto* cu(T* p) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<double>>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const cuDoubleComplex, cuDoubleComplex>*>(p);
  else if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<float>>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const cuComplex, cuComplex>*>(p);
  else
    return p;
}
}  // namespace

#define WEFT_CUBLAS_GEMM(T, fn)                                                                                      \
  bool DeviceVendorBlas<Cuda>::gemm(const Cuda& exec, bool at, bool bt, long m, long n, long k, T alpha, const T* a, \
                                    long a_rs, long a_cs, const T* b, long b_rs, long b_cs, T beta, T* c, long c_rs, \
                                    long c_cs) {                                                                     \
    return run<T>(exec, at, bt, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs,                                \
                  [&](cublasHandle_t h, cublasOperation_t ob, cublasOperation_t oa, int nn, int mm, int kk,          \
                      const T* bb, int ldb, const T* aa, int lda, T* cc, int ldc) {                                  \
                    return fn(h, ob, oa, nn, mm, kk, cu(&alpha), cu(bb), ldb, cu(aa), lda, cu(&beta), cu(cc), ldc);  \
                  });                                                                                                \
  }
WEFT_CUBLAS_GEMM(double, cublasDgemm)
WEFT_CUBLAS_GEMM(float, cublasSgemm)
WEFT_CUBLAS_GEMM(std::complex<double>, cublasZgemm)
WEFT_CUBLAS_GEMM(std::complex<float>, cublasCgemm)
#undef WEFT_CUBLAS_GEMM

/// y = alpha op(A) x + beta y (A as stored, column-major for cuBLAS: a row-major A is its transpose there).
#define WEFT_CUBLAS_GEMV(T, fn)                                                                                        \
  bool DeviceVendorBlas<Cuda>::gemv(const Cuda& exec, bool at, long m, long n, T alpha, const T* a, long a_rs,         \
                                    long a_cs, const T* x, long incx, T beta, T* y, long incy) {                       \
    const gemm_call::Gemv g = gemm_call::describe_gemv_col_major(at, m, n, a_rs, a_cs);                                \
    if (!g.ok || !fits_int({g.rows, g.cols, g.ld, incx, incy})) return false;                                          \
    with_handle(exec, "matrix_vector_product", std::to_string(m) + " x " + std::to_string(n), [&](cublasHandle_t h) {  \
      return fn(h, g.trans ? CUBLAS_OP_T : CUBLAS_OP_N, int(g.rows), int(g.cols), cu(&alpha), cu(a), int(g.ld), cu(x), \
                int(incx), cu(&beta), cu(y), int(incy));                                                               \
    });                                                                                                                \
    return true;                                                                                                       \
  }
WEFT_CUBLAS_GEMV(double, cublasDgemv)
WEFT_CUBLAS_GEMV(float, cublasSgemv)
WEFT_CUBLAS_GEMV(std::complex<double>, cublasZgemv)
WEFT_CUBLAS_GEMV(std::complex<float>, cublasCgemv)
#undef WEFT_CUBLAS_GEMV

/// op(A) X = X (left) or X op(A) = X (right) in place. cuBLAS is column-major: a row-major X is solved as the
/// column-major transposed problem (the side and the triangle flip, m and n swap), as CBLAS does it.
#define WEFT_CUBLAS_TRSM(T, fn)                                                                                       \
  bool DeviceVendorBlas<Cuda>::trsm(const Cuda& exec, bool left, bool lower, bool unit, bool at, long m, long n,      \
                                    const T* a, long a_rs, long a_cs, T* x, long x_rs, long x_cs) {                   \
    const gemm_call::Trsm c = gemm_call::describe_trsm(left, lower, at, m, n, a_rs, a_cs, x_rs, x_cs);                \
    if (!c.ok || !fits_int({m, n, c.lda, c.ldx})) return false;                                                       \
    const bool side_left = c.row ? !left : left, fill_lower = c.row ? !c.lower : c.lower;                             \
    const long mm = c.row ? n : m, nn = c.row ? m : n;                                                                \
    const T one(1);                                                                                                   \
    with_handle(exec, "triangular solve", std::to_string(m) + " x " + std::to_string(n), [&](cublasHandle_t h) {      \
      return fn(h, side_left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,                                                  \
                fill_lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, c.trans ? CUBLAS_OP_T : CUBLAS_OP_N,    \
                unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, int(mm), int(nn), cu(&one), cu(a), int(c.lda), cu(x), \
                int(c.ldx));                                                                                          \
    });                                                                                                               \
    return true;                                                                                                      \
  }
WEFT_CUBLAS_TRSM(double, cublasDtrsm)
WEFT_CUBLAS_TRSM(float, cublasStrsm)
WEFT_CUBLAS_TRSM(std::complex<double>, cublasZtrsm)
WEFT_CUBLAS_TRSM(std::complex<float>, cublasCtrsm)
#undef WEFT_CUBLAS_TRSM

/// half_t / bhalf_t A and B into float C: cublasGemmEx with float accumulation (CUBLAS_COMPUTE_32F).
#define WEFT_CUBLAS_GEMM_EX(In, cuda_type)                                                                             \
  bool DeviceVendorBlas<Cuda>::gemm(const Cuda& exec, bool at, bool bt, long m, long n, long k, float alpha,           \
                                    const In* a, long a_rs, long a_cs, const In* b, long b_rs, long b_cs, float beta,  \
                                    float* c, long c_rs, long c_cs) {                                                  \
    return run<In, float>(exec, at, bt, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs,                          \
                          [&](cublasHandle_t h, cublasOperation_t ob, cublasOperation_t oa, int nn, int mm, int kk,    \
                              const In* bb, int ldb, const In* aa, int lda, float* cc, int ldc) {                      \
                            return cublasGemmEx(h, ob, oa, nn, mm, kk, &alpha, bb, cuda_type, ldb, aa, cuda_type, lda, \
                                                &beta, cc, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);  \
                          });                                                                                          \
  }
WEFT_CUBLAS_GEMM_EX(half_t, CUDA_R_16F)
WEFT_CUBLAS_GEMM_EX(bhalf_t, CUDA_R_16BF)
#undef WEFT_CUBLAS_GEMM_EX

}  // namespace weft::linalg::impl
