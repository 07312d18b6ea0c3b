// Weft's own GEMM for the GPU backends (CUDA, HIP, GpuEmu), written against the device-intrinsics layer in
// three layers as CUB's primitives are:
//   warp:  DmmaWarp  - a 32 x 32 warp tile of 8 x 8 x 4 double MMA fragments (gpu::mma_m8n8k4: DMMA on sm_80+),
//          block tile 128 x 64;
//          MmaF16Warp - half_t / bhalf_t A and B into float C, 16 x 8 x 16 fragments (gpu::mma_m16n8k16), 128 x 64;
//          MmaTf32Warp - float A, B, C through TF32 fragments (gpu::mma_m16n8k8_tf32), 128 x 64, when allowed;
//          SimtThread - a 4 x 4 register tile per thread for every other element type (and HIP), block tile 64 x 64;
//   block: TiledGemm - one block tile of C; A and B stream through shared memory in k-slabs of 16 (8 for
//          16-byte types, 32 for 16-bit ones), the next slab is loaded into registers while the current one is
//          multiplied;
//          shared tiles are stored k-major with a 4-element pad, which keeps the DMMA fragment loads free of
//          bank conflicts;
//   grid:  one team (256 threads, 8 warps) per block tile through TeamPolicy and level-0 scratch, so the launch, the
//          pool and the profiling hooks are the backend's own.
// The epilogue stores C = E + alpha acc, or a user epilogue's f(i, j, alpha acc[, E]) (epilogue.hpp), element by
// element as the accumulators leave the registers (E may alias C). Any layout or stride is taken;
// global loads are coalesced along whichever of A's and B's two indices has unit stride.
#pragma once

#include <cstdint>
#include <type_traits>

#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/mma.hpp>
#include <weft/linalg/epilogue.hpp>
#include <weft/weft.hpp>

namespace weft::linalg::impl::gpu_gemm {

/// Block tile bm x bn, k-slab bk, 256 threads; shared tiles As[p * lda + i] and Bs[p * ldb + j].
template <class T, int BM, int BN, int PAD = 4>
struct Shape {
  static constexpr int bm = BM, bn = BN, bk = sizeof(T) > 8 ? 8 : (sizeof(T) == 2 ? 32 : 16), pad = PAD;
  static constexpr int threads = 256;
  static constexpr int lda = bm + pad, ldb = bn + pad;
  static constexpr int a_per_thread = bm * bk / threads, b_per_thread = bn * bk / threads;
  static constexpr std::size_t shared_bytes = sizeof(T) * std::size_t(bk) * (lda + ldb) + 16;
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
/// so that 8 fragment loads feed 16 MMAs per k-step). With lda, ldb = 4 (mod 16) doubles, the 16 lanes of a
/// half-warp (t < 4, 4 values of g) read 16 distinct banks. "Warp" here is 32 threads, the MMA's group: on HIP's
/// 64-lane wavefronts each half is one (gpu::mma_m8n8k4 shuffles within 32 lanes).
struct DmmaWarp {
  using T = double;
  using In = double;
  using S = Shape<double, 128, 64>;
  double acc[4][4][2] = {};
  WEFT_DEVICE void multiply(const double* As, const double* Bs) {
    const auto [g, t, r0, c0] = mma_lane();
    for (int kk = 0; kk < S::bk; kk += 4) {
      double a[4], b[4];
      for (int fi = 0; fi < 4; ++fi) a[fi] = gpu::shared_load(As + (kk + t) * S::lda + r0 + fi * 8 + g);
      for (int fj = 0; fj < 4; ++fj) b[fj] = gpu::shared_load(Bs + (kk + t) * S::ldb + c0 + fj * 8 + g);
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
/// warp's B reads are consecutive and its A reads are two broadcasts.
template <class T_, class In_ = T_>
struct SimtThread {
  using T = T_;
  using In = In_;
  using S = Shape<In, 64, 64>;
  T acc[4][4] = {};
  WEFT_DEVICE void multiply(const In* As, const In* Bs) {
    const int tid = static_cast<int>(gpu::thread_rank()), tx = tid % 16, ty = tid / 16;
    for (int p = 0; p < S::bk; ++p) {
      T a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = T(gpu::shared_load(As + p * S::lda + ty + 16 * i));
      for (int j = 0; j < 4; ++j) b[j] = T(gpu::shared_load(Bs + p * S::ldb + tx + 16 * j));
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
/// block tile, 8 warps as 4 x 2 with 32 x 32 warp tiles (2 x 4 fragments of 16 x 8), k-slabs of 32. Fragment
/// registers pair two k-consecutive values, read from the k-major shared tiles with two 16-bit loads.
template <class In_>
struct MmaF16Warp : Mma16x8Tiles {
  using T = float;
  using In = In_;
  using S = Shape<In, 128, 64>;
  WEFT_DEVICE void multiply(const In* As, const In* Bs) {
    const auto [g, t, r0, c0] = mma_lane();
    auto pair = [](const In* p, int ld) { return gpu::pack2(gpu::shared_load(p), gpu::shared_load(p + ld)); };
    for (int kk = 0; kk < S::bk; kk += 16) {
      std::uint32_t a[2][4], b[4][2];
      for (int fi = 0; fi < 2; ++fi) {
        const In* p = As + (kk + 2 * t) * S::lda + r0 + fi * 16 + g;
        a[fi][0] = pair(p, S::lda);
        a[fi][1] = pair(p + 8, S::lda);
        a[fi][2] = pair(p + 8 * S::lda, S::lda);
        a[fi][3] = pair(p + 8 * S::lda + 8, S::lda);
      }
      for (int fj = 0; fj < 4; ++fj) {
        const In* p = Bs + (kk + 2 * t) * S::ldb + c0 + fj * 8 + g;
        b[fj][0] = pair(p, S::ldb);
        b[fj][1] = pair(p + 8 * S::ldb, S::ldb);
      }
      for (int fi = 0; fi < 2; ++fi)
        for (int fj = 0; fj < 4; ++fj) gpu::mma_m16n8k16<In>(acc[fi][fj], a[fi], b[fj], acc[fi][fj]);
    }
  }
};

/// Block layer: one team computes one bm x bn tile of C = ep(i, j, alpha op(A) op(B), E).
template <class Warp, class AV, class BV, class CV, class EV, class Ep>
struct TiledGemm {
  using T = typename CV::non_const_value_type;  // C's type, the accumulator's
  using In = typename Warp::In;                 // A's and B's, staged in shared memory
  using S = typename Warp::S;
  AV a;
  BV b;
  CV c;
  EV e;
  T alpha;
  long m, n, k, tiles_m;
  bool at, bt, has_e, a_i_fast, b_j_fast;
  Ep ep;

  WEFT_DEVICE In a_at(long i, long p) const { return at ? a(p, i) : a(i, p); }
  WEFT_DEVICE In b_at(long p, long j) const { return bt ? b(j, p) : b(p, j); }

  /// The (tile row, k) and (k, tile column) of this thread's r-th element of a slab.
  WEFT_DEVICE void a_coord(int r, int& i, int& p) const {
    const int x = static_cast<int>(gpu::thread_rank()) + S::threads * r;
    if (a_i_fast)
      i = x % S::bm, p = x / S::bm;
    else
      p = x % S::bk, i = x / S::bk;
  }
  WEFT_DEVICE void b_coord(int r, int& p, int& j) const {
    const int x = static_cast<int>(gpu::thread_rank()) + S::threads * r;
    if (b_j_fast)
      j = x % S::bn, p = x / S::bn;
    else
      p = x % S::bk, j = x / S::bk;
  }
  WEFT_DEVICE void load(long i0, long j0, long p0, In (&ra)[S::a_per_thread], In (&rb)[S::b_per_thread]) const {
    for (int r = 0; r < S::a_per_thread; ++r) {
      int i, p;
      a_coord(r, i, p);
      ra[r] = (i0 + i < m && p0 + p < k) ? a_at(i0 + i, p0 + p) : In(0);
    }
    for (int r = 0; r < S::b_per_thread; ++r) {
      int p, j;
      b_coord(r, p, j);
      rb[r] = (p0 + p < k && j0 + j < n) ? b_at(p0 + p, j0 + j) : In(0);
    }
  }
  WEFT_DEVICE void stage(In* As, In* Bs, const In (&ra)[S::a_per_thread], const In (&rb)[S::b_per_thread]) const {
    for (int r = 0; r < S::a_per_thread; ++r) {
      int i, p;
      a_coord(r, i, p);
      gpu::shared_store(As + p * S::lda + i, ra[r]);
    }
    for (int r = 0; r < S::b_per_thread; ++r) {
      int p, j;
      b_coord(r, p, j);
      gpu::shared_store(Bs + p * S::ldb + j, rb[r]);
    }
  }

  template <class Member>
  WEFT_DEVICE void operator()(const Member& member) const {
    In* As = static_cast<In*>(member.team_scratch(0).get_shmem(sizeof(In) * S::bk * S::lda));
    In* Bs = static_cast<In*>(member.team_scratch(0).get_shmem(sizeof(In) * S::bk * S::ldb));
    const long tile = member.league_rank();
    const long i0 = (tile % tiles_m) * S::bm, j0 = (tile / tiles_m) * S::bn;
    Warp w;
    In ra[S::a_per_thread], rb[S::b_per_thread];
    const long slabs = (k + S::bk - 1) / S::bk;
    if (slabs > 0) load(i0, j0, 0, ra, rb);
    for (long s = 0; s < slabs; ++s) {
      stage(As, Bs, ra, rb);
      gpu::sync_block();
      if (s + 1 < slabs) load(i0, j0, (s + 1) * S::bk, ra, rb);  // in flight while this slab is multiplied
      w.multiply(As, Bs);
      gpu::sync_block();  // before the next stage overwrites the slab
    }
    w.store([&](int i, int j, T v) {
      if (i0 + i < m && j0 + j < n) c(i0 + i, j0 + j) = ep(i0 + i, j0 + j, T(alpha * v), e, has_e);
    });
  }
};

/// Warp layer, TF32 tensor cores (float A, B and C, when allowed: linalg::allow_tf32): A and B rounded to TF32 as
/// fragments are loaded (gpu::to_tf32), float accumulation (gpu::mma_m16n8k8_tf32). A 128 x 64 block tile, 8 warps as
/// 4 x 2 with 32 x 32 warp tiles (2 x 4 fragments of 16 x 8), k-slabs of 16 in two k-steps of 8. A pad of 8 floats
/// (lda, ldb = 8 mod 32) puts the 32 lanes' fragment loads (rows g, k-rows t) on 32 distinct banks.
struct MmaTf32Warp : Mma16x8Tiles {
  using T = float;
  using In = float;
  using S = Shape<float, 128, 64, 8>;
  WEFT_DEVICE void multiply(const float* As, const float* Bs) {
    const auto [g, t, r0, c0] = mma_lane();
    auto tf = [](const float* p) { return gpu::to_tf32(gpu::shared_load(p)); };
    for (int kk = 0; kk < S::bk; kk += 8) {
      std::uint32_t a[2][4], b[4][2];
      for (int fi = 0; fi < 2; ++fi) {
        const float* p = As + (kk + t) * S::lda + r0 + fi * 16 + g;
        a[fi][0] = tf(p);
        a[fi][1] = tf(p + 8);
        a[fi][2] = tf(p + 4 * S::lda);
        a[fi][3] = tf(p + 4 * S::lda + 8);
      }
      for (int fj = 0; fj < 4; ++fj) {
        const float* p = Bs + (kk + t) * S::ldb + c0 + fj * 8 + g;
        b[fj][0] = tf(p);
        b[fj][1] = tf(p + 4 * S::ldb);
      }
      for (int fi = 0; fi < 2; ++fi)
        for (int fj = 0; fj < 4; ++fj) gpu::mma_m16n8k8_tf32(acc[fi][fj], a[fi], b[fj], acc[fi][fj]);
    }
  }
};

/// Whether the tensor-core warp layer is the default for A/B elements In and C elements T: double (DMMA) and
/// half_t/bhalf_t into float, on CUDA and GpuEmu (HIP takes the SIMT layer: its matrix cores are another ISA).
template <class In, class T>
inline constexpr bool mma_default_v = !WEFT_HAS_HIP && ((std::is_same_v<In, double> && std::is_same_v<T, double>) ||
                                                        (is_float16_v<In> && std::is_same_v<T, float>));

/// Grid layer: C = E + alpha op(A) op(B) (or the epilogue ep's value), one team per block tile. `mma` picks the
/// tensor-core warp layer (double: DMMA; half_t/bhalf_t inputs with float C; float: TF32, which rounds A and B);
/// otherwise the SIMT layer.
template <class Exec, class AV, class BV, class CV, class EV, class Ep = PlusE>
void run(const Exec& exec, const AV& a, bool at, const BV& b, bool bt, const CV& c, const EV* e,
         typename CV::non_const_value_type alpha,
         bool mma = mma_default_v<typename AV::non_const_value_type, typename CV::non_const_value_type>,
         const Ep& ep = Ep()) {
  using T = typename CV::non_const_value_type;
  using In = typename AV::non_const_value_type;
  static_assert(std::is_same_v<In, typename BV::non_const_value_type>,
                "weft::linalg::matrix_product: A and B must have the same element type");
  const long m = static_cast<long>(c.extent(0)), n = static_cast<long>(c.extent(1)),
             k = static_cast<long>(at ? a.extent(0) : a.extent(1));
  const bool a_i_fast = (at ? a.stride(1) : a.stride(0)) == 1;
  const bool b_j_fast = (bt ? b.stride(0) : b.stride(1)) == 1;
  auto launch = [&](auto warp, const char* label) {
    using W = decltype(warp);
    using S = typename W::S;
    const long tiles_m = (m + S::bm - 1) / S::bm, tiles_n = (n + S::bn - 1) / S::bn;
    auto policy = TeamPolicy<Exec>(exec, tiles_m * tiles_n, S::threads, 1);
    policy.set_scratch_size(0, PerTeam(S::shared_bytes));
    const TiledGemm<W, AV, BV, CV, EV, Ep> kernel{a,       b,  c,  e ? *e : EV(), alpha,    m,        n, k,
                                                  tiles_m, at, bt, e != nullptr,  a_i_fast, b_j_fast, ep};
    parallel_for(label, policy, kernel);
  };
  if constexpr (is_float16_v<In>) {
    static_assert(std::is_same_v<T, float>, "weft::linalg::matrix_product: half_t/bhalf_t A and B need a float C");
    if (mma) return launch(MmaF16Warp<In>{}, "weft::linalg::matrix_product (GPU, 16-bit tensor-core tiles)");
    return launch(SimtThread<float, In>{}, "weft::linalg::matrix_product (GPU, SIMT tiles)");
  } else {
    static_assert(std::is_same_v<In, T>, "weft::linalg::matrix_product: A, B and C must have the same element type");
    if constexpr (std::is_same_v<T, double>) {
      if (mma) return launch(DmmaWarp{}, "weft::linalg::matrix_product (GPU, DMMA tiles)");
    } else if constexpr (std::is_same_v<T, float>) {
      if (mma) return launch(MmaTf32Warp{}, "weft::linalg::matrix_product (GPU, TF32 tensor-core tiles)");
    }
    launch(SimtThread<T>{}, "weft::linalg::matrix_product (GPU, SIMT tiles)");
  }
}

}  // namespace weft::linalg::impl::gpu_gemm
