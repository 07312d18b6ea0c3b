// The vendor path of weft::linalg: a CBLAS (OpenBLAS on Debian) when one was found at configure time, and the
// process-wide implementation choice (WEFT_LINALG_IMPL).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <ostream>
#include <string>

#include <weft/impl/settings.hpp>
#include <weft/linalg.hpp>

#include "gemm_call.hpp"
#if WEFT_LINALG_HAS_CBLAS
#include <cblas.h>
#endif

namespace weft::linalg {

Impl default_impl() {
  static const Impl choice = [] {
    constexpr Impl impls[] = {Impl::automatic, Impl::native, Impl::vendor};  // the registry's order
    return impls[weft::impl::env_choice("WEFT_LINALG_IMPL", 0)];
  }();
  return choice;
}
bool has_vendor_blas() noexcept { return WEFT_LINALG_HAS_CBLAS != 0; }

namespace {
std::atomic<bool>& tf32_setting() {
  static std::atomic<bool> on{weft::impl::env_flag("WEFT_LINALG_TF32", false)};
  return on;
}
}  // namespace
void allow_tf32(bool on) { tf32_setting().store(on, std::memory_order_relaxed); }
bool tf32_allowed() { return tf32_setting().load(std::memory_order_relaxed); }

namespace impl {
namespace {
struct AutoPoint {
  const char* op;
  char type;
  double flops;
  bool vendor;  // the vendor BLAS won at this size
};
constexpr AutoPoint auto_points[] = {
#include "auto_table.inc"
    {nullptr, 0, 0, true}};
// weft::Cuda: Weft's GPU kernels against cuBLAS (written by weft-linalg-auto-table --device on a GPU).
constexpr AutoPoint auto_points_device[] = {
#include "auto_table_device.inc"
    {nullptr, 0, 0, true}};
/// The point of `table` nearest `flops` (log scale) for op and type decides; none: the vendor's.
template <std::size_t N>
bool prefers_vendor(const AutoPoint (&table)[N], const char* op, char type, double flops) noexcept {
  const double x = std::log(flops > 1 ? flops : 1);
  double best = 1e300;
  bool vendor = true;
  for (const AutoPoint& p : table)
    if (p.op && p.type == type && std::strcmp(p.op, op) == 0 && std::fabs(std::log(p.flops) - x) < best) {
      best = std::fabs(std::log(p.flops) - x);
      vendor = p.vendor;
    }
  return vendor;
}
}  // namespace
bool auto_prefers_vendor(const char* op, char type, double flops) noexcept {
  return prefers_vendor(auto_points, op, type, flops);
}
bool auto_prefers_device_vendor(const char* op, char type, double flops) noexcept {
  return prefers_vendor(auto_points_device, op, type, flops);
}
}  // namespace impl
const char* vendor_blas_name() noexcept { return WEFT_LINALG_HAS_CBLAS ? "CBLAS (OpenBLAS)" : "none"; }

const char* vendor_blas_threading() noexcept {
#if WEFT_LINALG_HAS_CBLAS
  switch (openblas_get_parallel()) {  // the library loaded, not the one configured
    case 0:
      return "sequential";
    case 1:
      return "pthreads";
    case 2:
      return "OpenMP";
    default:
      return "unknown";
  }
#else
  return "none";
#endif
}

namespace {
/// --weft-print-configuration's linalg lines: the vendor BLAS and its threading as loaded.
void print_linalg_configuration(std::ostream& os) {
  os << "  linalg: vendor BLAS " << vendor_blas_name();
#if WEFT_LINALG_HAS_CBLAS
  const std::string threading = vendor_blas_threading();
  os << " (" << openblas_get_config() << "), threading: " << threading << ", " << openblas_get_num_threads()
     << " threads";
  if (threading == "pthreads")
    os << " (its own thread pool: beside Weft's OpenMP threads they compete for the cores; "
          "libopenblas-openmp-dev gives the OpenMP build)";
  else if (threading == "OpenMP")
    os << " (the OpenMP runtime's threads, shared with Weft's OpenMP backend)";
#endif
  os << "\n";
}
const bool g_linalg_printer = (weft::impl::add_configuration_printer(&print_linalg_configuration), true);
}  // namespace

namespace impl {
#if WEFT_LINALG_HAS_CBLAS
#define WEFT_VENDOR_CALL(T, fn, scal)                                                                                 \
  bool vendor_gemm(bool at, bool bt, long m, long n, long k, T alpha, const T* a, long a_rs, long a_cs, const T* b,   \
                   long b_rs, long b_cs, T beta, T* c, long c_rs, long c_cs) {                                        \
    gemm_call::RowMajorGemm<T> g;                                                                                     \
    if (!gemm_call::as_row_major(at, bt, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, c_rs, c_cs, g)) return false;      \
    fn(CblasRowMajor, g.ta ? CblasTrans : CblasNoTrans, g.tb ? CblasTrans : CblasNoTrans, g.m, g.n, g.k, scal(alpha), \
       g.a, g.lda, g.b, g.ldb, scal(beta), g.c, g.ldc);                                                               \
    return true;                                                                                                      \
  }
#define WEFT_SCALAR(x) (x)
#define WEFT_POINTER(x) (&(x))
WEFT_VENDOR_CALL(double, cblas_dgemm, WEFT_SCALAR)
WEFT_VENDOR_CALL(float, cblas_sgemm, WEFT_SCALAR)
WEFT_VENDOR_CALL(std::complex<double>, cblas_zgemm, WEFT_POINTER)
WEFT_VENDOR_CALL(std::complex<float>, cblas_cgemm, WEFT_POINTER)

#define WEFT_VENDOR_TRSM(T, fn, one)                                                                                  \
  bool vendor_trsm(bool left, bool lower, bool unit, bool at, long m, long n, const T* a, long a_rs, long a_cs, T* x, \
                   long x_rs, long x_cs) {                                                                            \
    const gemm_call::Trsm c = gemm_call::describe_trsm(left, lower, at, m, n, a_rs, a_cs, x_rs, x_cs);                \
    if (!c.ok) return false;                                                                                          \
    const T alpha(1);                                                                                                 \
    fn(c.row ? CblasRowMajor : CblasColMajor, left ? CblasLeft : CblasRight, c.lower ? CblasLower : CblasUpper,       \
       c.trans ? CblasTrans : CblasNoTrans, unit ? CblasUnit : CblasNonUnit, m, n, one(alpha), a, c.lda, x, c.ldx);   \
    return true;                                                                                                      \
  }
/// y = alpha op(A) x + beta y: A row-major (cs == 1) or column-major (rs == 1).
#define WEFT_VENDOR_GEMV(T, fn, scal)                                                                                 \
  bool vendor_gemv(bool at, long m, long n, T alpha, const T* a, long a_rs, long a_cs, const T* x, long incx, T beta, \
                   T* y, long incy) {                                                                                 \
    const long rows = at ? n : m, cols = at ? m : n; /* A as stored */                                                \
    if (a_cs == 1 && (a_rs >= std::max(1L, cols) || rows <= 1)) {                                                     \
      fn(CblasRowMajor, at ? CblasTrans : CblasNoTrans, rows, cols, scal(alpha), a,                                   \
         std::max(a_rs, std::max(1L, cols)), x, incx, scal(beta), y, incy);                                           \
      return true;                                                                                                    \
    }                                                                                                                 \
    if (a_rs == 1 && (a_cs >= std::max(1L, rows) || cols <= 1)) {                                                     \
      fn(CblasColMajor, at ? CblasTrans : CblasNoTrans, rows, cols, scal(alpha), a,                                   \
         std::max(a_cs, std::max(1L, rows)), x, incx, scal(beta), y, incy);                                           \
      return true;                                                                                                    \
    }                                                                                                                 \
    return false;                                                                                                     \
  }
WEFT_VENDOR_GEMV(double, cblas_dgemv, WEFT_SCALAR)
WEFT_VENDOR_GEMV(float, cblas_sgemv, WEFT_SCALAR)
WEFT_VENDOR_GEMV(std::complex<double>, cblas_zgemv, WEFT_POINTER)
WEFT_VENDOR_GEMV(std::complex<float>, cblas_cgemv, WEFT_POINTER)
WEFT_VENDOR_TRSM(double, cblas_dtrsm, WEFT_SCALAR)
WEFT_VENDOR_TRSM(float, cblas_strsm, WEFT_SCALAR)
WEFT_VENDOR_TRSM(std::complex<double>, cblas_ztrsm, WEFT_POINTER)
WEFT_VENDOR_TRSM(std::complex<float>, cblas_ctrsm, WEFT_POINTER)
#else
#define WEFT_VENDOR_NONE(T)                                                                                          \
  bool vendor_gemm(bool, bool, long, long, long, T, const T*, long, long, const T*, long, long, T, T*, long, long) { \
    return false;                                                                                                    \
  }                                                                                                                  \
  bool vendor_trsm(bool, bool, bool, bool, long, long, const T*, long, long, T*, long, long) { return false; }       \
  bool vendor_gemv(bool, long, long, T, const T*, long, long, const T*, long, T, T*, long) { return false; }
WEFT_VENDOR_NONE(double)
WEFT_VENDOR_NONE(float)
WEFT_VENDOR_NONE(std::complex<double>)
WEFT_VENDOR_NONE(std::complex<float>)
#endif
}  // namespace impl
}  // namespace weft::linalg
