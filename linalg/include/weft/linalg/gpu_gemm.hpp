// Weft's own GEMM for the GPU backends (CUDA, HIP, GpuEmu), in three layers as CUB's primitives: a warp layer
// (DmmaWarp, MmaF16Warp, MmaTf32Warp, SimtThread), a block layer (TiledGemm: A and B stream through a ring of
// shared-memory k-slabs filled by gpu::copy_async) and the grid (one 256-thread team per block tile, TeamPolicy with
// LaunchBounds<256, 2> and level-0 scratch). The epilogue (epilogue.hpp) stores each accumulator as it leaves the
// registers. Tiles, slab layouts and register budgets: linalg/README.md, docs/how-it-runs.md section 3.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/mma.hpp>
#include <weft/impl/round_up.hpp>
#include <weft/linalg/epilogue.hpp>
#include <weft/weft.hpp>

namespace weft::linalg::impl::gpu_gemm {

/// Block tile BM x BN, k-slab BK, 256 threads. A k-major slab row (BM of A's or BN of B's elements) gets PAD
/// elements more, a k-fast one (BK elements) PADK more: chosen per warp layer so that its fragment loads hit
/// distinct banks, and so that every row starts on 16 bytes (for 16-byte asynchronous copies).
template <class In, int BM, int BN, int BK, int PAD, int PADK>
struct Shape {
  static constexpr int bm = BM, bn = BN, bk = BK, pad = PAD, padk = PADK, threads = 256;
};

/// One operand's k-slab in shared memory: Rows (A's bm or B's bn) x BK, k-fast (element (r, p) at r * ld + p) or
/// k-major (at p * ld + r).
template <class In, int Rows, class S, bool KFast>
struct Slab {
  static constexpr bool kfast = KFast;
  static constexpr int ld = KFast ? S::bk + S::padk : Rows + S::pad;
  static constexpr int lines = KFast ? Rows : S::bk, len = KFast ? S::bk : Rows;  // contiguous lines of len
  static constexpr std::size_t bytes = weft::impl::round_up<std::size_t>(std::size_t(lines) * ld * sizeof(In), 16);
  WEFT_DEVICE static constexpr int at(int r, int p) { return KFast ? r * ld + p : p * ld + r; }
};

/// How an operand's slab lines are copied: 16-byte chunks, one element per copy (both asynchronous), or loads and
/// stores of single elements (no unit stride, or a 16-bit type off 16-byte alignment).
enum class Copy : int { chunk16, element, sync };

/// Where one operand op(X) lies in global memory: element (r, p) (r: A's i or B's j) at ptr[r * sr + p * sp].
template <class In>
struct Source {
  const In* ptr;
  long sr, sp, rows;
  Copy copy;
};

/// A thread's place in the tensor-core warp layers: in its 32-lane MMA group (a warp; half a HIP wavefront),
/// g = lane / 4 and t = lane % 4 as in the PTX fragment layouts; the 8 groups of a block own 32 x 32 tiles
/// arranged 4 x 2, at rows r0 and columns c0 of the block tile.
struct MmaLane {
  int g, t, r0, c0;
};
WEFT_DEVICE inline MmaLane mma_lane() {
  const int group = static_cast<int>(gpu::thread_rank() / 32u), l = static_cast<int>(gpu::thread_rank() % 32u);
  return {l / 4, l % 4, (group / 2) * 32, (group % 2) * 32};
}

/// Warp layer, DMMA: a 128 x 64 block tile; 8 warps as 4 x 2, each owning a 32 x 32 tile (4 x 4 fragments,
/// so that 8 fragment loads feed 16 MMAs per k-step). The 16 lanes of a half-warp (4 g x 4 t) read 16 distinct
/// 8-byte banks: k-major rows of 132 doubles put them at 8t + 2g words (mod 32), k-fast rows of 20 at 8g + 2t.
/// "Warp" here is 32 threads, the MMA's group: on HIP's 64-lane wavefronts each half is one (gpu::mma_m8n8k4
/// shuffles within 32 lanes).
struct DmmaWarp {
  using T = double;
  using In = double;
  using S = Shape<double, 128, 64, 16, 4, 4>;
  double acc[4][4][2] = {};
  template <class LA, class LB>
  WEFT_DEVICE void multiply(const double* As, const double* Bs) {
    const auto [g, t, r0, c0] = mma_lane();
    for (int kk = 0; kk < S::bk; kk += 4) {
      double a[4], b[4];
      for (int fi = 0; fi < 4; ++fi) a[fi] = gpu::shared_load(As + LA::at(r0 + fi * 8 + g, kk + t));
      for (int fj = 0; fj < 4; ++fj) b[fj] = gpu::shared_load(Bs + LB::at(c0 + fj * 8 + g, kk + t));
      for (int fi = 0; fi < 4; ++fi)
        for (int fj = 0; fj < 4; ++fj) gpu::mma_m8n8k4(acc[fi][fj], a[fi], b[fj], acc[fi][fj]);
    }
  }
  /// Calls out(row, col, value) for each accumulator this lane holds (tile coordinates).
  template <class Out>
  WEFT_DEVICE void store(const Out& out) const {
    const auto [g, t, r0, c0] = mma_lane();
    for (int fi = 0; fi < 4; ++fi)
      for (int fj = 0; fj < 4; ++fj)
        for (int q = 0; q < 2; ++q) out(r0 + fi * 8 + g, c0 + fj * 8 + 2 * t + q, acc[fi][fj][q]);
  }
};

/// Thread layer, SIMT: 16 x 16 threads, each owning rows ty + 16 i and columns tx + 16 j (i, j < 4), so that a
/// warp's k-major B reads are consecutive and its A reads are two broadcasts (a k-fast B, one row per column,
/// reads two lanes per bank: rows start on 16 bytes).
template <class T_, class In_ = T_>
struct SimtThread {
  using T = T_;
  using In = In_;
  static constexpr int chunk = 16 % sizeof(In) == 0 ? int(16 / sizeof(In)) : 1;  // elements per 16 bytes
  using S = Shape<In, 64, 64, (sizeof(In) == 2 ? 32 : (sizeof(In) >= 8 ? 8 : 16)), (chunk > 4 ? chunk : 4), chunk>;
  T acc[4][4] = {};
  template <class LA, class LB>
  WEFT_DEVICE void multiply(const In* As, const In* Bs) {
    const int tid = static_cast<int>(gpu::thread_rank()), tx = tid % 16, ty = tid / 16;
    for (int p = 0; p < S::bk; ++p) {
      T a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = T(gpu::shared_load(As + LA::at(ty + 16 * i, p)));
      for (int j = 0; j < 4; ++j) b[j] = T(gpu::shared_load(Bs + LB::at(tx + 16 * j, p)));
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
  }
  template <class Out>
  WEFT_DEVICE void store(const Out& out) const {
    const int tid = static_cast<int>(gpu::thread_rank()), tx = tid % 16, ty = tid / 16;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) out(ty + 16 * i, tx + 16 * j, acc[i][j]);
  }
};

/// The accumulators of the 16 x 8 tensor-core warp layers (16-bit and TF32 inputs): a 32 x 32 warp tile of 2 x 4
/// fragments, each lane holding C(g, 2t + q % 2) and C(g + 8, ...) of each (the PTX m16n8 accumulator layout).
struct Mma16x8Tiles {
  float acc[2][4][4] = {};
  /// Calls out(row, col, value) for each accumulator this lane holds (tile coordinates).
  template <class Out>
  WEFT_DEVICE void store(const Out& out) const {
    const auto [g, t, r0, c0] = mma_lane();
    for (int fi = 0; fi < 2; ++fi)
      for (int fj = 0; fj < 4; ++fj)
        for (int q = 0; q < 4; ++q) out(r0 + fi * 16 + g + 8 * (q / 2), c0 + fj * 8 + 2 * t + q % 2, acc[fi][fj][q]);
  }
};

/// Warp layer, 16-bit tensor cores: half_t or bhalf_t A and B, float accumulation (gpu::mma_m16n8k16). A 128 x 64
/// block tile, 8 warps as 4 x 2 with 32 x 32 warp tiles (2 x 4 fragments of 16 x 8), k-slabs of 32. Fragments come
/// from shared memory by gpu::ldmatrix_x4, four 8 x 8 blocks at a time: as they are from a k-fast slab (rows of
/// 40 halves, 80 bytes: a block's 8 rows on 8 distinct 16-byte bank groups), transposed from a k-major one (rows
/// of 136, 272 bytes: likewise).
template <class In_>
struct MmaF16Warp : Mma16x8Tiles {
  using T = float;
  using In = In_;
  using S = Shape<In, 128, 64, 32, 8, 8>;
  /// Four 8 x 8 blocks of slab L from row r and k-step k: block q (= lane / 8) 8 rows further when bit `row_bit`
  /// of q is set, 8 k further when the other bit is (A's fragment orders rows first, a pair of B's k first).
  template <class L>
  WEFT_DEVICE static void blocks(std::uint32_t (&f)[4], const In* s, int r, int k, int row_bit) {
    const int l = static_cast<int>(gpu::thread_rank() % 32u), q = l / 8, x = l % 8;
    r += 8 * ((q >> row_bit) & 1);
    k += 8 * ((q >> (1 - row_bit)) & 1);
    gpu::ldmatrix_x4<!L::kfast>(f, s + (L::kfast ? L::at(r + x, k) : L::at(r, k + x)));
  }
  template <class LA, class LB>
  WEFT_DEVICE void multiply(const In* As, const In* Bs) {
    const MmaLane lane = mma_lane();
    const int r0 = lane.r0, c0 = lane.c0;
    for (int kk = 0; kk < S::bk; kk += 16) {
      std::uint32_t a[2][4], b[4][2];
      for (int fi = 0; fi < 2; ++fi) {  // a[0..3]: rows +0/+8 x k +0/+8, as mma_m16n8k16 orders them
        const int r = r0 + fi * 16;
        blocks<LA>(a[fi], As, r, kk, 0);
      }
      for (int fj = 0; fj < 4; fj += 2) {  // two fragments' b[0], b[1] (k +0, +8) at once
        const int j = c0 + fj * 8;
        std::uint32_t f[4];
        blocks<LB>(f, Bs, j, kk, 1);
        b[fj][0] = f[0], b[fj][1] = f[1], b[fj + 1][0] = f[2], b[fj + 1][1] = f[3];
      }
      for (int fi = 0; fi < 2; ++fi)
        for (int fj = 0; fj < 4; ++fj) gpu::mma_m16n8k16<In>(acc[fi][fj], a[fi], b[fj], acc[fi][fj]);
    }
  }
};

/// Warp layer, TF32 tensor cores (float A, B and C, when allowed: linalg::allow_tf32): A and B rounded to TF32 as
/// fragments are loaded (gpu::to_tf32), float accumulation (gpu::mma_m16n8k8_tf32). A 128 x 64 block tile, 8 warps as
/// 4 x 2 with 32 x 32 warp tiles (2 x 4 fragments of 16 x 8), k-slabs of 16 in two k-steps of 8. The 32 lanes'
/// fragment loads (rows g, k t) hit 32 banks: k-major rows of 136 floats at 8t + g, k-fast rows of 20 at 20g + t.
struct MmaTf32Warp : Mma16x8Tiles {
  using T = float;
  using In = float;
  using S = Shape<float, 128, 64, 16, 8, 4>;
  template <class LA, class LB>
  WEFT_DEVICE void multiply(const float* As, const float* Bs) {
    const auto [g, t, r0, c0] = mma_lane();
    auto tf = [](const float* p) { return gpu::to_tf32(gpu::shared_load(p)); };
    for (int kk = 0; kk < S::bk; kk += 8) {
      std::uint32_t a[2][4], b[4][2];
      for (int fi = 0; fi < 2; ++fi) {
        const int r = r0 + fi * 16 + g, p = kk + t;
        a[fi][0] = tf(As + LA::at(r, p));
        a[fi][1] = tf(As + LA::at(r + 8, p));
        a[fi][2] = tf(As + LA::at(r, p + 4));
        a[fi][3] = tf(As + LA::at(r + 8, p + 4));
      }
      for (int fj = 0; fj < 4; ++fj) {
        const int j = c0 + fj * 8 + g, p = kk + t;
        b[fj][0] = tf(Bs + LB::at(j, p));
        b[fj][1] = tf(Bs + LB::at(j, p + 4));
      }
      for (int fi = 0; fi < 2; ++fi)
        for (int fj = 0; fj < 4; ++fj) gpu::mma_m16n8k8_tf32(acc[fi][fj], a[fi], b[fj], acc[fi][fj]);
    }
  }
};

/// Waits until at most n (0 to 2) of this thread's copy groups are in flight.
WEFT_DEVICE inline void async_wait_n(int n) {
  if (n >= 2)
    gpu::async_wait<2>();
  else if (n == 1)
    gpu::async_wait<1>();
  else
    gpu::async_wait<0>();
}

/// Block layer: one team computes one bm x bn tile of C = ep(i, j, alpha op(A) op(B), E), A's and B's slabs in a
/// ring of `stages` buffers (LA, LB: their layouts).
template <class Warp, class LA, class LB, class CV, class EV, class Ep>
struct TiledGemm {
  using T = typename CV::non_const_value_type;  // C's type, the accumulator's
  using In = typename Warp::In;                 // A's and B's, staged in shared memory
  using S = typename Warp::S;
  static constexpr std::size_t stage_bytes = LA::bytes + LB::bytes;
  Source<In> a, b;
  CV c;
  EV e;
  T alpha;
  long m, n, k, tiles_m;
  int stages;
  bool has_e;
  Ep ep;

  /// Issues the copies of one operand's slab at (row r0, k p0) of `src` into dst.
  template <class L>
  WEFT_DEVICE static void fill(In* dst, const Source<In>& src, long r0, long p0, long k) {
    const int tid = static_cast<int>(gpu::thread_rank());
    const long lines_valid = L::kfast ? src.rows - r0 : k - p0, len_valid = L::kfast ? k - p0 : src.rows - r0;
    const long line_stride = L::kfast ? src.sr : src.sp, elem_stride = L::kfast ? src.sp : src.sr;
    const In* origin = src.ptr + r0 * src.sr + p0 * src.sp;
    auto chunks = [&](auto per) {  // asynchronous copies of `per` elements
      constexpr int E = decltype(per)::value, per_line = L::len / E, total = L::lines * per_line;
      for (int q = tid; q < total; q += S::threads) {
        const int line = q / per_line, x = (q % per_line) * E;
        const long valid = line < lines_valid ? std::min<long>(E, std::max<long>(0, len_valid - x)) : 0;
        gpu::copy_async<E * sizeof(In)>(dst + line * L::ld + x, valid > 0 ? origin + line * line_stride + x : src.ptr,
                                        static_cast<int>(valid * sizeof(In)));
      }
    };
    if constexpr (16 % sizeof(In) == 0) {
      if (src.copy == Copy::chunk16) return chunks(std::integral_constant<int, int(16 / sizeof(In))>{});
    }
    if constexpr (sizeof(In) == 4 || sizeof(In) == 8 || sizeof(In) == 16) {
      if (src.copy == Copy::element) return chunks(std::integral_constant<int, 1>{});
    }
    for (int q = tid; q < L::lines * L::len; q += S::threads) {
      const int line = q / L::len, x = q % L::len;
      const bool valid = line < lines_valid && x < len_valid;
      gpu::shared_store(dst + line * L::ld + x, valid ? origin[line * line_stride + x * elem_stride] : In(0));
    }
  }
  WEFT_DEVICE void issue(char* ring, long slab, long i0, long j0) const {
    char* buf = ring + std::size_t(slab % stages) * stage_bytes;
    fill<LA>(reinterpret_cast<In*>(buf), a, i0, slab * S::bk, k);
    fill<LB>(reinterpret_cast<In*>(buf + LA::bytes), b, j0, slab * S::bk, k);
  }

  template <class Member>
  WEFT_DEVICE void operator()(const Member& member) const {
    char* ring = static_cast<char*>(member.team_scratch(0).get_shmem_aligned(stage_bytes * std::size_t(stages), 16));
    const long tile = member.league_rank();
    const long i0 = (tile % tiles_m) * S::bm, j0 = (tile / tiles_m) * S::bn;
    Warp w;
    const long slabs = (k + S::bk - 1) / S::bk;
    for (int s = 0; s < stages - 1; ++s) {  // the ring's first stages - 1 slabs, one commit group each
      if (s < slabs) issue(ring, s, i0, j0);
      gpu::async_commit();
    }
    for (long s = 0; s < slabs; ++s) {
      async_wait_n(stages - 2);  // this thread's copies of slab s have landed
      gpu::sync_block();         // everyone's have, and everyone is done with slab s - 1, whose buffer is next
      if (s + stages - 1 < slabs) issue(ring, s + stages - 1, i0, j0);
      gpu::async_commit();
      const char* buf = ring + std::size_t(s % stages) * stage_bytes;
      w.template multiply<LA, LB>(reinterpret_cast<const In*>(buf), reinterpret_cast<const In*>(buf + LA::bytes));
    }
    gpu::async_wait<0>();  // only empty groups are left; nothing in flight when the team's tile ends
    w.store([&](int i, int j, T v) {
      if (i0 + i < m && j0 + j < n) c(i0 + i, j0 + j) = ep(i0 + i, j0 + j, T(alpha * v), e, has_e);
    });
  }
};

/// The most stages a ring may have (tests lower it to exercise 2 and 3); the ring also stays within 96 KiB, so
/// that two teams fit an SM, and within the device's level-0 scratch for a team of 256.
inline int max_stages = 4;

/// Whether the tensor-core warp layer is the default on Exec for A/B elements In and C elements T: double (DMMA) and
/// half_t/bhalf_t into float, where the backend's vendor trait says its tensor-core path is gpu/mma.hpp's fragments
/// (CUDA, GpuEmu; HIP takes the SIMT layer).
template <class Exec, class In, class T>
inline constexpr bool mma_default_v = Exec::impl_vendor::nvidia_mma_fragments &&
                                      ((std::is_same_v<In, double> && std::is_same_v<T, double>) ||
                                       (is_float16_v<In> && std::is_same_v<T, float>));

/// op(X) of a rank-2 View as a Source: rows r, k p, element (r, p) = X(r, p), or X(p, r) when transposed; its copy
/// mode and whether its slabs are k-fast.
template <class In, class XV>
Source<In> source(const XV& x, bool transposed, bool& kfast) {
  const long s0 = static_cast<long>(x.stride(0)), s1 = static_cast<long>(x.stride(1));
  Source<In> s{x.data(), transposed ? s1 : s0, transposed ? s0 : s1,
               static_cast<long>(transposed ? x.extent(1) : x.extent(0)), Copy::sync};
  kfast = s.sp == 1 && !(s.sr == 1 && s.rows > 1);  // k-major when the rows have unit stride (or both have)
  const long line = kfast ? s.sr : s.sp, elem = kfast ? s.sp : s.sr;
  if (elem != 1) return s;  // no unit stride: loads and stores
  const auto addr = reinterpret_cast<std::uintptr_t>(s.ptr);
  if (16 % sizeof(In) == 0 && addr % 16 == 0 && (line * long(sizeof(In))) % 16 == 0)
    s.copy = Copy::chunk16;
  else if ((sizeof(In) == 4 || sizeof(In) == 8 || sizeof(In) == 16) && addr % sizeof(In) == 0)
    s.copy = Copy::element;
  return s;
}

/// Grid layer: C = E + alpha op(A) op(B) (or the epilogue ep's value), one team per block tile. `mma` picks the
/// tensor-core warp layer (double: DMMA; half_t/bhalf_t inputs with float C; float: TF32, which rounds A and B);
/// otherwise the SIMT layer.
template <class Exec, class AV, class BV, class CV, class EV, class Ep = PlusE>
void run(const Exec& exec, const AV& a, bool at, const BV& b, bool bt, const CV& c, const EV* e,
         typename CV::non_const_value_type alpha,
         bool mma = mma_default_v<Exec, typename AV::non_const_value_type, typename CV::non_const_value_type>,
         const Ep& ep = Ep()) {
  using T = typename CV::non_const_value_type;
  using In = typename AV::non_const_value_type;
  static_assert(std::is_same_v<In, typename BV::non_const_value_type>,
                "weft::linalg::matrix_product: A and B must have the same element type");
  const long m = static_cast<long>(c.extent(0)), n = static_cast<long>(c.extent(1)),
             k = static_cast<long>(at ? a.extent(0) : a.extent(1));
  bool a_kfast = false, b_kfast = false;
  const Source<In> sa = source<In>(a, at, a_kfast);
  const Source<In> sb = source<In>(b, !bt, b_kfast);  // B's rows are its columns j: op(B)(p, j) as (j, p)
  const std::size_t limit = weft::impl::TeamTraits<Exec>::scratch_size_limit(0, 256);
  auto launch = [&](auto warp, auto la, auto lb, const char* label) {
    using W = decltype(warp);
    using LA = decltype(la);
    using LB = decltype(lb);
    using S = typename W::S;
    using K = TiledGemm<W, LA, LB, CV, EV, Ep>;
    const long tiles_m = (m + S::bm - 1) / S::bm, tiles_n = (n + S::bn - 1) / S::bn;
    const int stages = static_cast<int>(std::min<std::size_t>(
        {std::size_t(std::max(2, max_stages)), (std::size_t(96) << 10) / K::stage_bytes, limit / K::stage_bytes}));
    if (stages < 2)
      throw Error(std::string(label) + ": two k-slabs of " + std::to_string(K::stage_bytes) + " bytes do not fit the " +
                  std::to_string(limit) + " bytes of level-0 scratch of " + Exec::name());
    // Two teams per SM: registers capped at 128. ptxas (CUDA 13) fits every layer in them, but some DMMA variants
    // spill: 21 of test_linalg's 80 on sm_80 (64 or 8 bytes), 2 on sm_90 (8 bytes); check_sass.py's KNOWN_STACK.
    auto policy = TeamPolicy<Exec, LaunchBounds<S::threads, 2>>(exec, tiles_m * tiles_n, S::threads, 1);
    policy.set_scratch_size(0, PerTeam(K::stage_bytes * std::size_t(stages)));
    const K kernel{sa, sb, c, e ? *e : EV(), alpha, m, n, k, tiles_m, stages, e != nullptr, ep};
    parallel_for(label, policy, kernel);
  };
  auto layouts = [&](auto warp, const char* label) {
    using W = decltype(warp);
    using S = typename W::S;
    using WIn = typename W::In;
    if (a_kfast && b_kfast) return launch(warp, Slab<WIn, S::bm, S, true>{}, Slab<WIn, S::bn, S, true>{}, label);
    if (a_kfast) return launch(warp, Slab<WIn, S::bm, S, true>{}, Slab<WIn, S::bn, S, false>{}, label);
    if (b_kfast) return launch(warp, Slab<WIn, S::bm, S, false>{}, Slab<WIn, S::bn, S, true>{}, label);
    launch(warp, Slab<WIn, S::bm, S, false>{}, Slab<WIn, S::bn, S, false>{}, label);
  };
  if constexpr (is_float16_v<In>) {
    static_assert(std::is_same_v<T, float>, "weft::linalg::matrix_product: half_t/bhalf_t A and B need a float C");
    if (mma) return layouts(MmaF16Warp<In>{}, "weft::linalg::matrix_product (GPU, 16-bit tensor-core tiles)");
    return layouts(SimtThread<float, In>{}, "weft::linalg::matrix_product (GPU, SIMT tiles)");
  } else {
    static_assert(std::is_same_v<In, T>, "weft::linalg::matrix_product: A, B and C must have the same element type");
    if constexpr (std::is_same_v<T, double>) {
      if (mma) return layouts(DmmaWarp{}, "weft::linalg::matrix_product (GPU, DMMA tiles)");
    } else if constexpr (std::is_same_v<T, float>) {
      if (mma) return layouts(MmaTf32Warp{}, "weft::linalg::matrix_product (GPU, TF32 tensor-core tiles)");
    }
    layouts(SimtThread<T>{}, "weft::linalg::matrix_product (GPU, SIMT tiles)");
  }
}

}  // namespace weft::linalg::impl::gpu_gemm
