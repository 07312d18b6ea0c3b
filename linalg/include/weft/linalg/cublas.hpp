// cuBLAS as weft::Cuda's device vendor BLAS (linalg/src/vendor_cublas.cpp): stream-ordered on the instance's
// stream; each entry returns false when the operands do not suit it (no unit stride, sizes beyond int).
#pragma once

#include <complex>

#include <weft/linalg/device_vendor.hpp>

namespace weft::linalg::impl {
template <>
struct DeviceVendorBlas<Cuda> {
  static constexpr bool available = true;
  static constexpr const char* name = "cuBLAS";
#define WEFT_IMPL_CUBLAS_DECLS(T)                                                                                      \
  static bool gemm(const Cuda& exec, bool at, bool bt, long m, long n, long k, T alpha, const T* a, long a_rs,         \
                   long a_cs, const T* b, long b_rs, long b_cs, T beta, T* c, long c_rs, long c_cs);                   \
  static bool gemv(const Cuda& exec, bool at, long m, long n, T alpha, const T* a, long a_rs, long a_cs, const T* x,   \
                   long incx, T beta, T* y, long incy);                                                                \
  static bool trsm(const Cuda& exec, bool left, bool lower, bool unit, bool at, long m, long n, const T* a, long a_rs, \
                   long a_cs, T* x, long x_rs, long x_cs);
  WEFT_IMPL_CUBLAS_DECLS(double)
  WEFT_IMPL_CUBLAS_DECLS(float)
  WEFT_IMPL_CUBLAS_DECLS(std::complex<double>)
  WEFT_IMPL_CUBLAS_DECLS(std::complex<float>)
#undef WEFT_IMPL_CUBLAS_DECLS
  /// half_t / bhalf_t A and B into a float C (cublasGemmEx, float accumulation).
  static bool gemm(const Cuda& exec, bool at, bool bt, long m, long n, long k, float alpha, const half_t* a, long a_rs,
                   long a_cs, const half_t* b, long b_rs, long b_cs, float beta, float* c, long c_rs, long c_cs);
  static bool gemm(const Cuda& exec, bool at, bool bt, long m, long n, long k, float alpha, const bhalf_t* a, long a_rs,
                   long a_cs, const bhalf_t* b, long b_rs, long b_cs, float beta, float* c, long c_rs, long c_cs);
};
}  // namespace weft::linalg::impl
