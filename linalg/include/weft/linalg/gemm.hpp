// weft::linalg::matrix_product: C = A B and C = E + A B on rank-2 Views, with transposed(...) and scaled(...)
// operands (std::linalg names). On host spaces Weft's own GEMM (packed panels, a register-blocked AVX2/FMA
// micro-kernel chosen at run time with a portable one always compiled, cache blocking, threads over the
// macro-tiles); a CBLAS (OpenBLAS) when Weft was built with one and the call or WEFT_LINALG_IMPL asks for it
// (cuBLAS on weft::Cuda).
// On device spaces Weft's tiled GPU kernel (gpu_gemm.hpp): DMMA tensor-core tiles for double, SIMT tiles otherwise.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <weft/linalg/blas1.hpp>
#include <weft/linalg/device_vendor.hpp>
#include <weft/linalg/epilogue.hpp>
#include <weft/weft.hpp>
/// Whether this build has a GPU backend, whose device_gemm (<weft/linalg/device_gemm.hpp>) is included at the end.
#if WEFT_HAS_CUDA || WEFT_HAS_HIP || WEFT_HAS_GPU_EMU
#define WEFT_IMPL_LINALG_GPU 1
#else
#define WEFT_IMPL_LINALG_GPU 0
#endif

namespace weft::linalg {

/// The transpose of a rank-2 View, read where it is used (std::linalg::transposed).
template <class V>
struct Transposed {
  using value_type = typename V::value_type;
  using non_const_value_type = typename V::non_const_value_type;
  using memory_space = typename V::memory_space;
  V view;
  std::size_t extent(int k) const { return view.extent(1 - k); }
  std::string label() const { return view.label(); }
};
template <class V>
Transposed<V> transposed(const V& v) {
  static_assert(is_view_v<V>, "weft::linalg::transposed: transpose a weft::View");
  static_assert(V::R == 2, "weft::linalg::transposed: the View must have rank 2");
  return {v};
}
template <class S, class V>
Scaled<S, Transposed<V>> scaled(S alpha, const Transposed<V>& t) {
  return {alpha, t};
}

/// Which implementation a linalg call uses: Weft's own, the vendor library's, or chosen per call (automatic:
/// the vendor's for float/double/complex operands it can take as they are, when Weft was built with one).
enum class Impl { automatic, native, vendor };
/// The process-wide choice: WEFT_LINALG_IMPL=native|vendor|auto (default auto).
Impl default_impl();
/// Whether float (and complex<float>) matrix_product on CUDA may use TF32 tensor cores, which round A and B to 10
/// mantissa bits (relative error ~2^-11 per product instead of 2^-24) for up to 8x the throughput: Weft's kernel
/// then takes its TF32 warp layer and cuBLAS its TF32 math mode. Off by default; WEFT_LINALG_TF32=1 sets the start
/// value, allow_tf32() changes it for the following calls. Host spaces, HIP and double are unaffected.
void allow_tf32(bool on);
bool tf32_allowed();
/// Whether a vendor BLAS was found at configure time (and its name).
bool has_vendor_blas() noexcept;
const char* vendor_blas_name() noexcept;
/// How the vendor BLAS loaded in this process runs its threads: "OpenMP" (the OpenMP runtime's, shared with Weft's
/// OpenMP backend), "pthreads" (a pool of its own), "sequential", or "none" without a vendor BLAS.
const char* vendor_blas_threading() noexcept;

namespace impl {
/// The type a scale factor of an operand with elements T is kept in (float for the 16-bit types).
template <class T>
using scalar_of_t = std::conditional_t<is_float16_v<T>, float, T>;
/// A matrix operand reduced to: the View, whether it is transposed, and a scale factor.
template <class V, class S = scalar_of_t<typename V::non_const_value_type>>
struct MatOp {
  V view;
  bool trans = false;
  S alpha = S(1);
  std::size_t rows() const { return trans ? view.extent(1) : view.extent(0); }
  std::size_t cols() const { return trans ? view.extent(0) : view.extent(1); }
};
template <class V>
MatOp<V> as_matop(const V& v) {
  static_assert(is_view_v<V> && V::R == 2,
                "weft::linalg::matrix_product: operands are rank-2 Views "
                "(optionally transposed(...) or scaled(...))");
  return {v, false, scalar_of_t<typename V::non_const_value_type>(1)};
}
template <class V>
MatOp<V> as_matop(const Transposed<V>& t) {
  return {t.view, true, scalar_of_t<typename V::non_const_value_type>(1)};
}
template <class S, class V>
MatOp<V> as_matop(const Scaled<S, V>& s) {
  auto m = as_matop(s.view);
  m.alpha = static_cast<decltype(m.alpha)>(s.alpha);
  return m;
}
template <class S, class V>
MatOp<V> as_matop(const Scaled<S, Transposed<V>>& s) {
  auto m = as_matop(s.view);
  m.alpha = static_cast<decltype(m.alpha)>(s.alpha);
  return m;
}

/// The declarations of a vendor entry point for the four BLAS types; M(T) declares one.
#define WEFT_IMPL_FOR_BLAS_TYPES(M) M(double) M(float) M(std::complex<double>) M(std::complex<float>)

/// The element types a vendor BLAS takes.
template <class T>
inline constexpr bool vendor_type_v = std::is_same_v<T, double> || std::is_same_v<T, float> ||
                                      std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::complex<float>>;
/// The rule Impl::automatic follows on host spaces (linalg/src/auto_table.inc, written by
/// weft-linalg-auto-table): whether the vendor BLAS beat Weft's own kernel for `op` ("gemm", "gemv", "trsm") on
/// BLAS type `type` ('d', 's'; others have no rule and go to the vendor) at `flops` floating-point operations.
bool auto_prefers_vendor(const char* op, char type, double flops) noexcept;
/// The same on weft::Cuda, Weft's GPU kernels against cuBLAS (linalg/src/auto_table_device.inc, written by
/// weft-linalg-auto-table --device; types also 'h' and 'b' for half_t / bhalf_t products into float).
bool auto_prefers_device_vendor(const char* op, char type, double flops) noexcept;
template <class T>
inline constexpr char blas_letter_v = std::is_same_v<T, double>                 ? 'd'
                                      : std::is_same_v<T, float>                ? 's'
                                      : std::is_same_v<T, std::complex<double>> ? 'z'
                                      : std::is_same_v<T, std::complex<float>>  ? 'c'
                                      : std::is_same_v<T, half_t>               ? 'h'
                                                                                : 'b';
/// Whether a call that may use the vendor BLAS should: always for Impl::vendor, by the table for automatic
/// (the host's, or with `device` weft::Cuda's).
template <class T>
bool wants_vendor(Impl impl, const char* op, double flops, bool device = false) noexcept {
  if (impl == Impl::vendor) return true;
  if (impl != Impl::automatic) return false;
  return device ? auto_prefers_device_vendor(op, blas_letter_v<T>, flops)
                : auto_prefers_vendor(op, blas_letter_v<T>, flops);
}
/// The error for Impl::vendor when the vendor path cannot serve the call: `need` says what it takes.
[[noreturn]] inline void vendor_unavailable(const char* who, const char* need) {
  throw Error(std::string("weft::linalg::") + who + ": Impl::vendor asked for, but " +
              (has_vendor_blas() ? std::string("the vendor BLAS (") + vendor_blas_name() +
                                       ") cannot take these operands (it needs " + need + ")"
                                 : std::string("Weft was built without a vendor BLAS")) +
              "; use Impl::native or Impl::automatic");
}

template <class T>
struct gemm_blocking {
  static constexpr int mr = 6, nr = std::is_same_v<T, float> ? 16 : 8;
  static constexpr long mc = 96, kc = 256, nc = 4080;  // mc % mr == 0, nc % nr == 0; mc x kc of A in L2
};

/// The micro-kernels: ct[MR x NR] (row-major) = sum over p < kc of a[p*MR + i] * b[p*NR + j].
bool cpu_has_avx2_fma() noexcept;
void micro_kernel_avx2(long kc, const double* a, const double* b, double* ct) noexcept;
void micro_kernel_avx2(long kc, const float* a, const float* b, float* ct) noexcept;
template <class T, int MR, int NR>
void micro_kernel_portable(long kc, const T* a, const T* b, T* ct) noexcept {
  T acc[MR][NR] = {};
  for (long p = 0; p < kc; ++p)
    for (int i = 0; i < MR; ++i) {
      const T ai = a[p * MR + i];
      for (int j = 0; j < NR; ++j) acc[i][j] += ai * b[p * NR + j];
    }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) ct[i * NR + j] = acc[i][j];
}
template <class T>
void micro_kernel(bool simd, long kc, const T* a, const T* b, T* ct) noexcept {
  using Bk = gemm_blocking<T>;
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    if (simd) {
      micro_kernel_avx2(kc, a, b, ct);
      return;
    }
  }
  micro_kernel_portable<T, Bk::mr, Bk::nr>(kc, a, b, ct);
}

/// Whether E starts where C does (E is C: a user epilogue must not read E after C was written).
template <class EV, class CV>
bool same_data(const EV& e, const CV& c) {
  return static_cast<const void*>(e.data()) == static_cast<const void*>(c.data());
}
/// A packed copy of E, for a user epilogue whose E is C itself.
template <class Exec, class EV, class CV>
View<typename CV::non_const_value_type**, LayoutRight, typename CV::memory_space> epilogue_e_copy(const Exec& exec,
                                                                                                  const EV& e,
                                                                                                  const CV& c) {
  const View<typename CV::non_const_value_type**, LayoutRight, typename CV::memory_space> copy(
      view_alloc(WithoutInitializing, c.label() + " (E for the epilogue)"), c.extent(0), c.extent(1));
  deep_copy(exec, copy, e);
  return copy;
}

/// Weft's host GEMM: C = ep(i, j, alpha_a alpha_b op(A) op(B), E), any layouts. The default epilogue (E + ab) is
/// the first k-block's starting value; another one is applied as the last k-block is stored.
template <class Exec, class AV, class BV, class CV, class EV, class Ep = PlusE>
void host_gemm(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E,
               const Ep& ep = Ep()) {
  using T = typename CV::non_const_value_type;
  using Bk = gemm_blocking<T>;
  constexpr int MR = Bk::mr, NR = Bk::nr;
  const long m = static_cast<long>(C.extent(0)), n = static_cast<long>(C.extent(1)), k = static_cast<long>(A.cols());
  const bool simd = cpu_has_avx2_fma();
  const T alpha = A.alpha * B.alpha;
  if (m == 0 || n == 0) return;
  const bool has_e = E != nullptr;
  const EV ev = E ? *E : EV();
  if (k == 0) {  // C = E (or 0), through the epilogue
    parallel_for("weft::linalg::matrix_product (k = 0)", RangePolicy<Exec, IndexType<long>>(exec, 0, m), [=](long i) {
      for (long j = 0; j < n; ++j) C(i, j) = ep(i, j, T(0), ev, has_e);
    });
    return;
  }
  if constexpr (!Ep::linear) {
    // E is read as the last k-block is stored, after earlier k-blocks have accumulated into C: when E is C, keep a
    // copy of it.
    if (E && k > Bk::kc && same_data(*E, C)) {
      const auto e_copy = epilogue_e_copy(exec, *E, C);
      return host_gemm(exec, A, B, C, &e_copy, ep);
    }
  }
  const long kc_max = std::min<long>(Bk::kc, k), nc_max = std::min<long>(Bk::nc, (n + NR - 1) / NR * NR);
  const long m_pad = (m + MR - 1) / MR * MR;
  const long mblocks = (m + Bk::mc - 1) / Bk::mc;
  // Fewer row blocks than 2 per thread (small m: the trailing updates of a triangular solve, a 64 x 256 x 1024
  // product): the B panels are split among tasks too, each task packing its own copy of its A block (with row blocks
  // only, a 64-row product ran on one thread and the other waited: 21 % of a 2048 x 256 trsm's time in the barrier).
  const long conc = exec.concurrency(), want = 2 * conc;
  // The split also makes a task count the threads share evenly (or many tasks): 11 row blocks of a 1024-row C on 2
  // threads left one thread a sixth of the product alone (0.76-0.79 of OpenBLAS at 1024^3).
  const long max_panels = (nc_max + NR - 1) / NR;
  long nsplit = 1;
  while (nsplit < max_panels &&
         (mblocks * nsplit < want || ((mblocks * nsplit) % conc != 0 && mblocks * nsplit < 16 * conc)))
    ++nsplit;
  std::vector<T, std::allocator<T>> bpack(static_cast<std::size_t>(kc_max * nc_max + 64));
  std::vector<T> apack(static_cast<std::size_t>(nsplit * m_pad * kc_max + 64));
  T* bp = bpack.data();
  T* ap = apack.data();
  const auto av = A.view;
  const auto bv = B.view;
  const bool at = A.trans, bt = B.trans;
  // Full tiles of a C with contiguous rows are stored through a pointer, C += tile (or C = tile on the first k-block
  // when there is no E, or when E is C itself, as in a solve's trailing update): the element loop below, compiled
  // with -march=native, cost Weft's dgemm 3-5 % beside OpenBLAS.
  T* const c_ptr = C.data();
  const long c_rs = static_cast<long>(C.stride(0));
  const bool c_rows = C.stride(1) == 1;
  const bool e_is_c = has_e && same_data(ev, C) && ev.stride(0) == C.stride(0) && ev.stride(1) == C.stride(1);
  for (long jc = 0; jc < n; jc += Bk::nc) {
    const long nc = std::min<long>(Bk::nc, n - jc);
    const long npanels = (nc + NR - 1) / NR;
    for (long pc = 0; pc < k; pc += Bk::kc) {
      const long kc = std::min<long>(Bk::kc, k - pc);
      const bool first = pc == 0, last = pc + kc >= k;
      // Pack B(pc:pc+kc, jc:jc+nc) into NR-wide panels, zero-padded, scaled by alpha.
      parallel_for("weft::linalg::matrix_product (pack B)", RangePolicy<Exec, IndexType<long>>(exec, 0, npanels),
                   [=](long jp) {
                     T* dst = bp + jp * kc * NR;
                     const long j0 = jc + jp * NR, jn = std::min<long>(NR, n - j0);
                     for (long p = 0; p < kc; ++p)
                       for (long j = 0; j < NR; ++j)
                         dst[p * NR + j] = j < jn ? alpha * (bt ? bv(j0 + j, pc + p) : bv(pc + p, j0 + j)) : T(0);
                   });
      // Each block of mc rows: pack its A panels, then the micro-kernels over the B panels.
      const long per_split = (npanels + nsplit - 1) / nsplit;
      parallel_for("weft::linalg::matrix_product (macro-tiles)",
                   RangePolicy<Exec, IndexType<long>>(exec, 0, mblocks * nsplit), [=](long task) {
                     const long ib = task / nsplit, split = task % nsplit;
                     const long i0 = ib * Bk::mc, mcur = std::min<long>(Bk::mc, m - i0);
                     const long ipanels = (mcur + MR - 1) / MR;
                     const long jp0 = split * per_split, jp1 = std::min<long>(npanels, jp0 + per_split);
                     if (jp0 >= jp1) return;
                     // i0 is a multiple of MR, so blocks do not overlap; each split has a copy of its own
                     T* apb = ap + (split * m_pad + i0) * kc;
                     for (long ip = 0; ip < ipanels; ++ip) {
                       T* dst = apb + ip * kc * MR;
                       const long r0 = i0 + ip * MR, rn = std::min<long>(MR, m - r0);
                       for (long p = 0; p < kc; ++p)
                         for (long i = 0; i < MR; ++i)
                           dst[p * MR + i] = i < rn ? (at ? av(pc + p, r0 + i) : av(r0 + i, pc + p)) : T(0);
                     }
                     alignas(64) T ct[MR * NR];
                     for (long jp = jp0; jp < jp1; ++jp) {
                       const long j0 = jc + jp * NR, jn = std::min<long>(NR, n - j0);
                       for (long ip = 0; ip < ipanels; ++ip) {
                         const long r0 = i0 + ip * MR, rn = std::min<long>(MR, m - r0);
                         micro_kernel<T>(simd, kc, apb + ip * kc * MR, bp + jp * kc * NR, ct);
                         if constexpr (Ep::linear) {
                           if (c_rows && rn == MR && jn == NR && (!first || !has_e || e_is_c)) {
                             const bool add = !first || e_is_c;
                             for (long i = 0; i < MR; ++i) {
                               T* cr = c_ptr + (r0 + i) * c_rs + j0;
                               const T* t = ct + i * NR;
                               if (add)
                                 for (long j = 0; j < NR; ++j) cr[j] += t[j];
                               else
                                 for (long j = 0; j < NR; ++j) cr[j] = t[j];
                             }
                             continue;
                           }
                         }
                         for (long i = 0; i < rn; ++i)
                           for (long j = 0; j < jn; ++j) {
                             T& c = C(r0 + i, j0 + j);
                             if constexpr (Ep::linear) {
                               c = (first ? (has_e ? T(ev(r0 + i, j0 + j)) : T(0)) : c) + ct[i * NR + j];
                             } else {
                               const T v = (first ? T(0) : c) + ct[i * NR + j];
                               c = last ? ep(r0 + i, j0 + j, v, ev, has_e) : v;
                             }
                           }
                       }
                     }
                   });
    }
  }
}

/// Device spaces: Weft's tiled GPU kernel (DMMA tensor-core tiles for double on CUDA and GpuEmu, register-tiled
/// SIMT otherwise). Declared here; defined with the kernel (<weft/linalg/device_gemm.hpp>) in builds that have a
/// GPU backend (a build without one has no device space to call it with).
template <class Exec, class AV, class BV, class CV, class EV, class Ep>
void device_gemm(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, const Ep& ep);

// The vendor path (linalg/src/vendor_blas.cpp): returns false when the operands do not suit it.
bool vendor_gemm(bool at, bool bt, long m, long n, long k, double alpha, const double* a, long a_rs, long a_cs,
                 const double* b, long b_rs, long b_cs, double beta, double* c, long c_rs, long c_cs);
bool vendor_gemm(bool at, bool bt, long m, long n, long k, float alpha, const float* a, long a_rs, long a_cs,
                 const float* b, long b_rs, long b_cs, float beta, float* c, long c_rs, long c_cs);
bool vendor_gemm(bool at, bool bt, long m, long n, long k, std::complex<double> alpha, const std::complex<double>* a,
                 long a_rs, long a_cs, const std::complex<double>* b, long b_rs, long b_cs, std::complex<double> beta,
                 std::complex<double>* c, long c_rs, long c_cs);
bool vendor_gemm(bool at, bool bt, long m, long n, long k, std::complex<float> alpha, const std::complex<float>* a,
                 long a_rs, long a_cs, const std::complex<float>* b, long b_rs, long b_cs, std::complex<float> beta,
                 std::complex<float>* c, long c_rs, long c_cs);

template <class V>
long stride_of(const V& v, int d) {
  return static_cast<long>(v.stride(d));
}

/// Hands C = E + alpha op(A) op(B) to `gemm(at, bt, m, n, k, alpha, a, a_rs, a_cs, b, .., beta, c, ..)`, a vendor
/// call in BLAS form: E is copied into C first unless it is C, and beta = 1 then. Returns what gemm returns
/// (false: the vendor cannot take these operands; C may hold E by then, which the native kernel overwrites).
template <class Exec, class AV, class BV, class CV, class EV, class Gemm>
bool vendor_product(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, Gemm&& gemm) {
  using T = typename CV::non_const_value_type;
  const T alpha = A.alpha * B.alpha;
  T beta = T(0);
  if (E) {
    if (static_cast<const void*>(E->data()) != static_cast<const void*>(C.data()) ||
        stride_of(*E, 0) != stride_of(C, 0) || stride_of(*E, 1) != stride_of(C, 1))
      deep_copy(exec, C, *E);
    beta = T(1);
  }
  const long m = static_cast<long>(C.extent(0)), n = static_cast<long>(C.extent(1)), k = static_cast<long>(A.cols());
  return gemm(A.trans, B.trans, m, n, k, alpha, A.view.data(), stride_of(A.view, 0), stride_of(A.view, 1),
              B.view.data(), stride_of(B.view, 0), stride_of(B.view, 1), beta, C.data(), stride_of(C, 0),
              stride_of(C, 1));
}

/// C(i, j) = ep(i, j, C(i, j), E) over C on exec: a user epilogue after a vendor GEMM has left the product in C.
template <class Exec, class CV, class EV, class Ep>
void apply_epilogue(const Exec& exec, const CV& C, const EV* E, const Ep& ep) {
  using T = typename CV::non_const_value_type;
  const bool has_e = E != nullptr;
  const EV e = E ? *E : EV();
  parallel_for(
      "weft::linalg::matrix_product (epilogue)",
      MDRangePolicy<Exec, Rank<2>>(exec, {0L, 0L}, {static_cast<long>(C.extent(0)), static_cast<long>(C.extent(1))}),
      WEFT_LAMBDA(std::int64_t i, std::int64_t j) { C(i, j) = ep(i, j, T(C(i, j)), e, has_e); });
}

/// vendor_product with an epilogue: the default one is the BLAS's own beta = 1; a user one runs as one pass over C
/// after the BLAS has stored the product (on a copy of E when E is C).
template <class Exec, class AV, class BV, class CV, class EV, class Ep, class Gemm>
bool vendor_product(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, const Ep& ep,
                    Gemm&& gemm) {
  if constexpr (Ep::linear) {
    return vendor_product(exec, A, B, C, E, gemm);
  } else {
    if (E && same_data(*E, C)) {
      const auto e_copy = epilogue_e_copy(exec, *E, C);
      return vendor_product(exec, A, B, C, &e_copy, ep, gemm);
    }
    if (!vendor_product(exec, A, B, C, static_cast<const CV*>(nullptr), gemm)) return false;
    apply_epilogue(exec, C, E, ep);
    return true;
  }
}

/// The device vendor BLAS of Exec (DeviceVendorBlas, e.g. cuBLAS on weft::Cuda) unless the call asks for Weft's
/// kernel: true when it ran; Impl::vendor raises when the vendor cannot take the operands as they are.
template <class Exec, class AV, class BV, class CV, class EV, class Ep>
bool try_device_vendor(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, Impl impl,
                       const Ep& ep) {
  using Vendor = DeviceVendorBlas<Exec>;
  if (A.cols() == 0 || !wants_vendor<typename AV::non_const_value_type>(
                           impl, "gemm", 2.0 * double(C.extent(0)) * double(C.extent(1)) * double(A.cols()), true))
    return false;
  if (vendor_product(exec, A, B, C, E, ep, [&](auto&&... x) { return Vendor::gemm(exec, x...); })) return true;
  if (impl == Impl::vendor)
    throw Error(std::string("weft::linalg::matrix_product: ") + Vendor::name +
                " cannot take these operands as they are (it needs unit stride along rows or columns of A, B and C, "
                "and sizes below 2^31); use Impl::native or Impl::automatic");
  return false;
}

/// A float copy of a half_t/bhalf_t operand (for the host GEMM), with the same transposition and scale.
template <class Exec, class V, class M = typename V::memory_space>
MatOp<View<float**, LayoutRight, M>> widened(const Exec& exec, const MatOp<V>& x) {
  const View<float**, LayoutRight, M> w(view_alloc(WithoutInitializing, x.view.label() + " (as float)"),
                                        x.view.extent(0), x.view.extent(1));
  const V v = x.view;
  parallel_for(
      "weft::linalg::matrix_product (16-bit to float)",
      MDRangePolicy<Exec, Rank<2>>(exec, {0L, 0L}, {static_cast<long>(v.extent(0)), static_cast<long>(v.extent(1))}),
      WEFT_LAMBDA(std::int64_t i, std::int64_t j) { w(i, j) = float(v(i, j)); });
  return {w, x.trans, x.alpha};
}

template <class Exec, class AV, class BV, class CV, class EV, class Ep = PlusE>
void matrix_product_impl(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, Impl impl,
                         const Ep& ep = Ep()) {
  using T = typename CV::non_const_value_type;
  using In = typename AV::non_const_value_type;
  static_assert(CV::R == 2, "weft::linalg::matrix_product: C must be a rank-2 View");
  static_assert(!std::is_const_v<typename CV::value_type>, "weft::linalg::matrix_product: C is const");
  static_assert(std::is_same_v<typename BV::non_const_value_type, In> &&
                    (std::is_same_v<In, T> || (is_float16_v<In> && std::is_same_v<T, float>)),
                "weft::linalg::matrix_product: A, B and C must have the same element type (or half_t / bhalf_t A "
                "and B with a float C)");
  if (A.rows() != C.extent(0) || B.cols() != C.extent(1) || A.cols() != B.rows() ||
      (E && (E->extent(0) != C.extent(0) || E->extent(1) != C.extent(1))))
    throw Error("weft::linalg::matrix_product: shapes do not match: A \"" + A.view.label() + "\" is " +
                std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + (A.trans ? " (transposed)" : "") +
                ", B \"" + B.view.label() + "\" " + std::to_string(B.rows()) + " x " + std::to_string(B.cols()) +
                (B.trans ? " (transposed)" : "") + ", C \"" + C.label() + "\" " + std::to_string(C.extent(0)) + " x " +
                std::to_string(C.extent(1)) +
                (E ? ", E " + std::to_string(E->extent(0)) + " x " + std::to_string(E->extent(1)) : std::string()) +
                "; C = A B needs A m x k, B k x n, C m x n");
  if (C.extent(0) == 0 || C.extent(1) == 0) return;
  if (impl == Impl::automatic) impl = default_impl();
  if (A.cols() == 0 && impl == Impl::vendor) impl = Impl::native;  // C = E (or 0): nothing for a BLAS to do
  if constexpr (is_float16_v<In>) {
    if constexpr (DeviceVendorBlas<Exec>::available) {  // cuBLAS: cublasGemmEx, float accumulation
      if (try_device_vendor(exec, A, B, C, E, impl, ep)) return;
    }
    if (impl == Impl::vendor && A.cols() > 0)
      throw Error("weft::linalg::matrix_product: Impl::vendor asked for half_t/bhalf_t operands \"" + A.view.label() +
                  "\" and \"" + B.view.label() +
                  "\", but only cuBLAS (weft::Cuda) takes 16-bit inputs; use Impl::native");
    if constexpr (Exec::impl_is_host_space)
      host_gemm(exec, widened(exec, A), widened(exec, B), C, E, ep);  // the host has no 16-bit arithmetic
    else
      device_gemm(exec, A, B, C, E, ep);
  } else {
    if constexpr (Exec::impl_is_host_space && vendor_type_v<T>) {
      if (has_vendor_blas() && A.cols() > 0 &&
          wants_vendor<T>(impl, "gemm", 2.0 * double(C.extent(0)) * double(C.extent(1)) * double(A.cols()))) {
        exec.fence();
        if (vendor_product(exec, A, B, C, E, ep, [](auto&&... x) { return vendor_gemm(x...); })) return;
        if (impl == Impl::vendor)
          throw Error("weft::linalg::matrix_product: the vendor BLAS (" + std::string(vendor_blas_name()) +
                      ") cannot take these operands as they are (it needs unit stride along rows or columns); use "
                      "Impl::native or Impl::automatic");
        // automatic: Weft's own kernel
      }
    }
    if constexpr (DeviceVendorBlas<Exec>::available && vendor_type_v<T>) {
      if (try_device_vendor(exec, A, B, C, E, impl, ep)) return;
    }
    if (impl == Impl::vendor && !Exec::impl_is_host_space)
      throw Error(std::string("weft::linalg::matrix_product: Impl::vendor asked for on ") + Exec::name() +
                  ", which has no vendor BLAS for these operands; use Impl::native or Impl::automatic");
    if (impl == Impl::vendor && !has_vendor_blas())
      throw Error(
          "weft::linalg::matrix_product: Impl::vendor asked for, but Weft was built without a vendor BLAS "
          "(Debian: apt-get install libopenblas-dev, then reconfigure)");
    if constexpr (Exec::impl_is_host_space)
      host_gemm(exec, A, B, C, E, ep);
    else
      device_gemm(exec, A, B, C, E, ep);
  }
}

/// Batched products on rank-3 Views, the batch index first: C(b, :, :) = E(b, :, :) + A(b, :, :) B(b, :, :).
/// Small matrices (m n k < 64^3) take one kernel over (batch, i, j), so that the whole batch fills the
/// machine; larger ones take the 2-D matrix_product per batch (Weft's blocked GEMM or the vendor's).
template <class Exec, class AV, class BV, class CV, class EV>
void batched_product_impl(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E,
                          Impl impl) {
  using T = typename CV::non_const_value_type;
  static_assert(AV::R == 3 && BV::R == 3 && CV::R == 3,
                "weft::linalg::matrix_product: a batched product takes rank-3 Views A, B and C (batch index first)");
  static_assert(!std::is_const_v<typename CV::value_type>, "weft::linalg::matrix_product: C is const");
  static_assert(
      std::is_same_v<typename AV::non_const_value_type, T> && std::is_same_v<typename BV::non_const_value_type, T>,
      "weft::linalg::matrix_product: A, B and C must have the same element type");
  const auto& a = A.view;
  const auto& b = B.view;
  auto ext = [](const auto& v) {
    return std::to_string(v.extent(0)) + " x " + std::to_string(v.extent(1)) + " x " + std::to_string(v.extent(2));
  };
  if (a.extent(0) != C.extent(0) || b.extent(0) != C.extent(0) || a.extent(1) != C.extent(1) ||
      b.extent(2) != C.extent(2) || a.extent(2) != b.extent(1) ||
      (E && (E->extent(0) != C.extent(0) || E->extent(1) != C.extent(1) || E->extent(2) != C.extent(2))))
    throw Error("weft::linalg::matrix_product (batched): shapes do not match: A \"" + a.label() + "\" is " + ext(a) +
                ", B \"" + b.label() + "\" " + ext(b) + ", C \"" + C.label() + "\" " + ext(C) +
                (E ? ", E " + ext(*E) : std::string()) + "; C = A B needs A nb x m x k, B nb x k x n, C nb x m x n");
  const long nb = static_cast<long>(C.extent(0)), m = static_cast<long>(C.extent(1)),
             n = static_cast<long>(C.extent(2)), k = static_cast<long>(a.extent(2));
  if (nb == 0 || m == 0 || n == 0) return;
  if (impl == Impl::automatic) impl = default_impl();
  if (impl == Impl::vendor || static_cast<double>(m) * n * k >= 64.0 * 64.0 * 64.0) {
    for (long q = 0; q < nb; ++q) {
      auto cq = subview(C, q, ALL, ALL);
      const MatOp<decltype(subview(a, q, ALL, ALL))> aq{subview(a, q, ALL, ALL), false, A.alpha};
      const MatOp<decltype(subview(b, q, ALL, ALL))> bq{subview(b, q, ALL, ALL), false, B.alpha};
      if (E) {
        const auto eq = subview(*E, q, ALL, ALL);
        matrix_product_impl(exec, aq, bq, cq, &eq, impl);
      } else {
        matrix_product_impl(exec, aq, bq, cq, static_cast<const decltype(cq)*>(nullptr), impl);
      }
    }
    return;
  }
  const T alpha = A.alpha * B.alpha;
  const bool has_e = E != nullptr;
  EV e = E ? *E : EV();
  parallel_for(
      "weft::linalg::matrix_product (batched)", MDRangePolicy<Exec, Rank<3>>(exec, {0L, 0L, 0L}, {nb, m, n}),
      WEFT_LAMBDA(std::int64_t q, std::int64_t i, std::int64_t j) {
        T s{};
        for (long p = 0; p < k; ++p) s += a(q, i, p) * b(q, p, j);
        C(q, i, j) = (has_e ? T(e(q, i, j)) : T(0)) + alpha * s;
      });
}
template <class V>
MatOp<V> as_batched(const V& v) {
  static_assert(is_view_v<V> && V::R == 3,
                "weft::linalg::matrix_product: batched operands are rank-3 Views (optionally scaled(...))");
  return {v, false, typename V::non_const_value_type(1)};
}
template <class S, class V>
MatOp<V> as_batched(const Scaled<S, V>& s) {
  auto m = as_batched(s.view);
  m.alpha = static_cast<decltype(m.alpha)>(s.alpha);
  return m;
}
}  // namespace impl

/// C = A B (A, B may be transposed(...) and/or scaled(...)); with rank-3 Views, the batched product.
template <ExecutionSpace Exec, class A, class B, class C>
requires is_view_v<C>
void matrix_product(const Exec& exec, const A& a, const B& b, const C& c, Impl impl = Impl::automatic) {
  if constexpr (C::R == 3)
    impl::batched_product_impl(exec, impl::as_batched(a), impl::as_batched(b), c, static_cast<const C*>(nullptr), impl);
  else
    impl::matrix_product_impl(exec, impl::as_matop(a), impl::as_matop(b), c, static_cast<const C*>(nullptr), impl);
}
/// C(i, j) = f(i, j, (A B)(i, j)) for an epilogue(f): a bias, an activation, a scale, fused into the store of C.
template <ExecutionSpace Exec, class A, class B, class C, class F>
requires is_view_v<C>
void matrix_product(const Exec& exec, const A& a, const B& b, const C& c, const Epilogue<F>& ep,
                    Impl impl = Impl::automatic) {
  static_assert(C::R == 2, "weft::linalg::matrix_product: epilogues take rank-2 products (not batched ones)");
  using T = typename C::non_const_value_type;
  static_assert(std::is_invocable_v<const F&, long, long, T>,
                "weft::linalg::matrix_product: the epilogue must be callable as f(i, j, ab) with ab of C's element "
                "type (f(i, j, ab, e) is for the overload with an E operand)");
  if constexpr (C::R == 2 && std::is_invocable_v<const F&, long, long, T>)
    impl::matrix_product_impl(exec, impl::as_matop(a), impl::as_matop(b), c, static_cast<const C*>(nullptr), impl,
                              impl::UserEpilogue<F, false>{ep.f});
}
/// C(i, j) = f(i, j, (A B)(i, j), E(i, j)) for an epilogue(f) (E may be C itself: f sees its old value).
template <ExecutionSpace Exec, class A, class B, class E, class C, class F>
requires(is_view_v<E>&& is_view_v<C>) void matrix_product(const Exec& exec, const A& a, const B& b, const E& e,
                                                          const C& c, const Epilogue<F>& ep,
                                                          Impl impl = Impl::automatic) {
  static_assert(C::R == 2, "weft::linalg::matrix_product: epilogues take rank-2 products (not batched ones)");
  using T = typename C::non_const_value_type;
  static_assert(std::is_invocable_v<const F&, long, long, T, T>,
                "weft::linalg::matrix_product: with an E operand the epilogue must be callable as f(i, j, ab, e) "
                "with ab and e of C's element type");
  if constexpr (C::R == 2 && std::is_invocable_v<const F&, long, long, T, T>)
    impl::matrix_product_impl(exec, impl::as_matop(a), impl::as_matop(b), c, &e, impl,
                              impl::UserEpilogue<F, true>{ep.f});
}
/// C = E + A B (E may be C itself); with rank-3 Views, the batched product.
template <ExecutionSpace Exec, class A, class B, class E, class C>
requires(is_view_v<E>&& is_view_v<C>) void matrix_product(const Exec& exec, const A& a, const B& b, const E& e,
                                                          const C& c, Impl impl = Impl::automatic) {
  if constexpr (C::R == 3)
    impl::batched_product_impl(exec, impl::as_batched(a), impl::as_batched(b), c, &e, impl);
  else
    impl::matrix_product_impl(exec, impl::as_matop(a), impl::as_matop(b), c, &e, impl);
}
}  // namespace weft::linalg

#if WEFT_IMPL_LINALG_GPU
#include <weft/linalg/device_gemm.hpp>
#endif
