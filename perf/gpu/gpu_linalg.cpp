// perf/gpu: Weft's GPU GEMM (linalg/gpu_gemm.hpp) against cuBLAS in one process, timed with CUDA events:
// dgemm (DMMA tiles), sgemm (SIMT tiles), tf32gemm (float through TF32 tensor-core tiles, weft::linalg::allow_tf32,
// against cuBLAS in CUBLAS_TF32_TENSOR_OP_MATH) and bf16 -> float (16-bit tensor-core tiles; cublasGemmEx),
// column-major (LayoutLeft) n x n x n, C = A B. Cases are <case>/weft and <case>/baseline with items = floating-point
// operations, so perf/compare.py prints TFLOP/s and the ratio. Before timing, each case checks Weft's C against
// cuBLAS's on the same inputs. Variants for the first GPU runs to choose from: dgemm_rowmajor (LayoutRight A, B, C:
// the other slab layouts, k-fast A), and rings held to fewer stages than the default (dgemm_2stages: 2 of 3,
// bf16gemm_2stages and bf16gemm_3stages: of 4), each against the same cuBLAS call.
#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include <weft/algorithms.hpp>
#include <weft/linalg.hpp>
#include "timing.hpp"

namespace {

using Exec = weft::Cuda;
long g_n = 8192;

using weft_perf::timed;

cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t x;
    if (cublasCreate(&x) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "cublasCreate failed\n");
      std::exit(1);
    }
    cublasSetStream(x, Exec().cuda_stream());
    return x;
  }();
  return h;
}
void vendor(long n, const double* a, const double* b, double* c) {
  const double one = 1, zero = 0;
  cublasDgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, a, int(n), b, int(n), &zero, c, int(n));
}
void vendor(long n, const float* a, const float* b, float* c) {
  const float one = 1, zero = 0;
  cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, a, int(n), b, int(n), &zero, c, int(n));
}

/// bf16 A, B and float C (CUBLAS_COMPUTE_32F: float accumulation, as Weft's 16-bit tensor-core tiles).
void vendor(long n, const weft::bhalf_t* a, const weft::bhalf_t* b, float* c) {
  const float one = 1, zero = 0;
  cublasGemmEx(handle(), CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, a, CUDA_R_16BF, int(n), b, CUDA_R_16BF,
               int(n), &zero, c, CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

/// A and B with elements In (random in [-1, 1), rounded to In), C and the cuBLAS reference with elements T, laid
/// out as L (row-major buffers are the transposes in cuBLAS's terms: the reference is then B^T A^T = (A B)^T).
template <class In, class T = In, class L = weft::LayoutLeft>
struct Operands {
  static constexpr bool row_major = std::is_same_v<L, weft::LayoutRight>;
  weft::View<In**, L, weft::CudaSpace> a, b;
  weft::View<T**, L, weft::CudaSpace> c, ref;
  explicit Operands(long n) : a("A", n, n), b("B", n, n), c("C", n, n), ref("Cref", n, n) {
    const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    fill(a, nn, 11u);
    fill(b, nn, 12u);
  }
  template <class V>
  static void fill(const V& v, std::size_t nn, std::uint64_t seed) {
    if constexpr (weft::is_float16_v<In>) {
      weft::View<float*, weft::CudaSpace> f("f", nn);
      weft::fill_random(Exec(), f, seed, -1.0f, 1.0f);
      In* p = v.data();
      weft::parallel_for(
          "to 16 bits", weft::RangePolicy<Exec>(0, std::int64_t(nn)), WEFT_LAMBDA(std::int64_t i) { p[i] = In(f(i)); });
    } else {
      weft::fill_random(Exec(), weft::View<In*, weft::CudaSpace, weft::MemoryUnmanaged>(v.data(), nn), seed, In(-1),
                        In(1));
    }
  }
};

/// TF32 for float GEMM in both Weft and cuBLAS while alive.
struct Tf32Scope {
  explicit Tf32Scope(bool on) : on_(on) {
    weft::linalg::allow_tf32(on);
    cublasSetMathMode(handle(), on ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
  }
  ~Tf32Scope() {
    weft::linalg::allow_tf32(false);
    cublasSetMathMode(handle(), CUBLAS_DEFAULT_MATH);
  }
  bool on_;
};

/// Largest |Weft - cuBLAS| relative to the bound n eps sqrt(n) (the two sum in different orders); with TF32 the
/// inputs carry 2^-11 rounding, so 4 sqrt(n) 2^-10 (entries in [-1, 1): |C| ~ sqrt(n) / 3).
template <class In, class T, class L>
void check(long n, Operands<In, T, L>& o, bool tf32 = false) {
  weft::linalg::matrix_product(Exec(), o.a, o.b, o.c, weft::linalg::Impl::native);
  if (o.row_major)
    vendor(n, o.b.data(), o.a.data(), o.ref.data());
  else
    vendor(n, o.a.data(), o.b.data(), o.ref.data());
  auto c = weft::create_mirror_view_and_copy(weft::HostSpace(), o.c);
  auto r = weft::create_mirror_view_and_copy(weft::HostSpace(), o.ref);
  double worst = 0;
  for (long j = 0; j < n; j += 7)
    for (long i = 0; i < n; i += 5) worst = std::fmax(worst, std::fabs(double(c(i, j)) - double(r(i, j))));
  const double bound = tf32 ? 4 * std::sqrt(double(n)) * std::ldexp(1.0, -10)
                            : double(n) * double(std::numeric_limits<T>::epsilon()) * std::sqrt(double(n));
  std::printf("gemm %s n=%ld: max |weft - cublas| = %.3g (bound %.3g)%s\n",
              weft::is_float16_v<In> ? "bf16->float"
              : sizeof(T) == 8       ? "double"
              : tf32                 ? "tf32"
                                     : "float",
              n, worst, bound, worst <= bound ? "" : "  WRONG");
  if (!(worst <= bound)) std::exit(2);
}

/// Weft's GEMM on layout L, its ring held to `stages` (0: the default).
template <class In, class T = In, class L = weft::LayoutLeft, int stages = 0>
void gemm_weft(benchmark::State& st) {
  const int saved = weft::linalg::impl::gpu_gemm::max_stages;
  if (stages > 0) weft::linalg::impl::gpu_gemm::max_stages = stages;
  Operands<In, T, L> o(g_n);
  check(g_n, o);
  timed(st, [&] { weft::linalg::matrix_product(Exec(), o.a, o.b, o.c, weft::linalg::Impl::native); });
  st.SetItemsProcessed(st.iterations() * 2 * g_n * g_n * g_n);
  weft::linalg::impl::gpu_gemm::max_stages = saved;
}
void tf32gemm_weft(benchmark::State& st) {
  const Tf32Scope tf32(true);
  Operands<float> o(g_n);
  check(g_n, o, true);
  timed(st, [&] { weft::linalg::matrix_product(Exec(), o.a, o.b, o.c, weft::linalg::Impl::native); });
  st.SetItemsProcessed(st.iterations() * 2 * g_n * g_n * g_n);
}
void tf32gemm_baseline(benchmark::State& st) {
  const Tf32Scope tf32(true);
  Operands<float> o(g_n);
  timed(st, [&] { vendor(g_n, o.a.data(), o.b.data(), o.c.data()); });
  st.SetItemsProcessed(st.iterations() * 2 * g_n * g_n * g_n);
}
template <class In, class T = In>
void gemm_baseline(benchmark::State& st) {
  Operands<In, T> o(g_n);
  timed(st, [&] { vendor(g_n, o.a.data(), o.b.data(), o.c.data()); });
  st.SetItemsProcessed(st.iterations() * 2 * g_n * g_n * g_n);
}

}  // namespace

BENCHMARK(gemm_weft<double>)->Name("dgemm/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<double>)->Name("dgemm/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<float>)->Name("sgemm/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<float>)->Name("sgemm/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(tf32gemm_weft)->Name("tf32gemm/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(tf32gemm_baseline)->Name("tf32gemm/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<weft::bhalf_t, float>)->Name("bf16gemm/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<weft::bhalf_t, float>)
    ->Name("bf16gemm/baseline")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<double, double, weft::LayoutRight>)
    ->Name("dgemm_rowmajor/weft")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<double>)->Name("dgemm_rowmajor/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<double, double, weft::LayoutLeft, 2>)
    ->Name("dgemm_2stages/weft")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<double>)->Name("dgemm_2stages/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<weft::bhalf_t, float, weft::LayoutLeft, 2>)
    ->Name("bf16gemm_2stages/weft")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<weft::bhalf_t, float>)
    ->Name("bf16gemm_2stages/baseline")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_weft<weft::bhalf_t, float, weft::LayoutLeft, 3>)
    ->Name("bf16gemm_3stages/weft")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gemm_baseline<weft::bhalf_t, float>)
    ->Name("bf16gemm_3stages/baseline")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  if (const char* n = std::getenv("WEFT_PERF_GEMM_N")) g_n = std::atol(n);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
