// Weft's host GEMM micro-kernels for x86-64 with AVX2 and FMA, chosen at run time (the portable kernel in
// gemm.hpp is always there, so results never depend on the CPU having them). Self-contained and always compiled
// by the C++ compiler (never as CUDA): the signatures match the declarations in weft/linalg/gemm.hpp.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WEFT_LINALG_X86 1
#else
#define WEFT_LINALG_X86 0
#endif

namespace weft::linalg::impl {

bool cpu_has_avx2_fma() noexcept {
#if WEFT_LINALG_X86
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

#if WEFT_LINALG_X86
/// 6 x 8 doubles: 12 accumulators, two B vectors, one broadcast A value per row (15 of 16 ymm registers).
__attribute__((target("avx2,fma"))) void micro_kernel_avx2(long kc, const double* a, const double* b,
                                                           double* ct) noexcept {
  __m256d c00 = _mm256_setzero_pd(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,
          c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (long p = 0; p < kc; ++p) {
    const __m256d b0 = _mm256_loadu_pd(b), b1 = _mm256_loadu_pd(b + 4);
    __m256d ai = _mm256_broadcast_sd(a);
    c00 = _mm256_fmadd_pd(ai, b0, c00);
    c01 = _mm256_fmadd_pd(ai, b1, c01);
    ai = _mm256_broadcast_sd(a + 1);
    c10 = _mm256_fmadd_pd(ai, b0, c10);
    c11 = _mm256_fmadd_pd(ai, b1, c11);
    ai = _mm256_broadcast_sd(a + 2);
    c20 = _mm256_fmadd_pd(ai, b0, c20);
    c21 = _mm256_fmadd_pd(ai, b1, c21);
    ai = _mm256_broadcast_sd(a + 3);
    c30 = _mm256_fmadd_pd(ai, b0, c30);
    c31 = _mm256_fmadd_pd(ai, b1, c31);
    ai = _mm256_broadcast_sd(a + 4);
    c40 = _mm256_fmadd_pd(ai, b0, c40);
    c41 = _mm256_fmadd_pd(ai, b1, c41);
    ai = _mm256_broadcast_sd(a + 5);
    c50 = _mm256_fmadd_pd(ai, b0, c50);
    c51 = _mm256_fmadd_pd(ai, b1, c51);
    a += 6;
    b += 8;
  }
  _mm256_storeu_pd(ct + 0, c00);
  _mm256_storeu_pd(ct + 4, c01);
  _mm256_storeu_pd(ct + 8, c10);
  _mm256_storeu_pd(ct + 12, c11);
  _mm256_storeu_pd(ct + 16, c20);
  _mm256_storeu_pd(ct + 20, c21);
  _mm256_storeu_pd(ct + 24, c30);
  _mm256_storeu_pd(ct + 28, c31);
  _mm256_storeu_pd(ct + 32, c40);
  _mm256_storeu_pd(ct + 36, c41);
  _mm256_storeu_pd(ct + 40, c50);
  _mm256_storeu_pd(ct + 44, c51);
}

/// 6 x 16 floats, the same shape in 8-wide vectors (written out: the accumulators must stay in registers).
__attribute__((target("avx2,fma"))) void micro_kernel_avx2(long kc, const float* a, const float* b,
                                                           float* ct) noexcept {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,
         c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (long p = 0; p < kc; ++p) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    __m256 ai = _mm256_broadcast_ss(a);
    c00 = _mm256_fmadd_ps(ai, b0, c00);
    c01 = _mm256_fmadd_ps(ai, b1, c01);
    ai = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(ai, b0, c10);
    c11 = _mm256_fmadd_ps(ai, b1, c11);
    ai = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(ai, b0, c20);
    c21 = _mm256_fmadd_ps(ai, b1, c21);
    ai = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(ai, b0, c30);
    c31 = _mm256_fmadd_ps(ai, b1, c31);
    ai = _mm256_broadcast_ss(a + 4);
    c40 = _mm256_fmadd_ps(ai, b0, c40);
    c41 = _mm256_fmadd_ps(ai, b1, c41);
    ai = _mm256_broadcast_ss(a + 5);
    c50 = _mm256_fmadd_ps(ai, b0, c50);
    c51 = _mm256_fmadd_ps(ai, b1, c51);
    a += 6;
    b += 16;
  }
  _mm256_storeu_ps(ct + 0, c00);
  _mm256_storeu_ps(ct + 8, c01);
  _mm256_storeu_ps(ct + 16, c10);
  _mm256_storeu_ps(ct + 24, c11);
  _mm256_storeu_ps(ct + 32, c20);
  _mm256_storeu_ps(ct + 40, c21);
  _mm256_storeu_ps(ct + 48, c30);
  _mm256_storeu_ps(ct + 56, c31);
  _mm256_storeu_ps(ct + 64, c40);
  _mm256_storeu_ps(ct + 72, c41);
  _mm256_storeu_ps(ct + 80, c50);
  _mm256_storeu_ps(ct + 88, c51);
}
#else
// Never called (cpu_has_avx2_fma() is false here); defined so that the program links everywhere.
void micro_kernel_avx2(long, const double*, const double*, double*) noexcept {}
void micro_kernel_avx2(long, const float*, const float*, float*) noexcept {}
#endif
}  // namespace weft::linalg::impl
