// Warp-level matrix multiply-accumulate (the tensor-core layer of Weft's GPU kernels). Each operation works
// on fragments spread over the 32 lanes of a warp in the PTX ISA's layout; on a GPU that has the instruction
// it is one mma.sync, everywhere else (GpuEmu, HIP, CUDA before sm_80) the same arithmetic through the
// intrinsics layer's shuffles, so that a kernel written against it runs, and is tested, on every backend.
#pragma once

#include <weft/gpu/intrinsics.hpp>
#include <weft/half.hpp>

namespace weft::gpu {

/// D = A B + C for one 8 x 8 x 4 double tile (PTX mma.sync.m8n8k4.row.col.f64, DMMA on sm_80 and later).
/// Fragments, with l = lane % 32, g = l / 4, t = l % 4: a = A(g, t); b = B(t, g); c[q] and d[q] =
/// C(g, 2t + q) and D(g, 2t + q). Every lane of the warp must call it (on HIP, every lane of each half of the
/// 64-lane wavefront: each half computes its own tile). d may alias c.
WEFT_DEVICE inline void mma_m8n8k4(double (&d)[2], double a, double b, const double (&c)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
      : "=d"(d[0]), "=d"(d[1])
      : "d"(a), "d"(b), "d"(c[0]), "d"(c[1]));
#else
  const int l = static_cast<int>(lane_id() % 32u), g = l / 4, t = l % 4;
  double s0 = c[0], s1 = c[1];
  for (int p = 0; p < 4; ++p) {
    const double ap = shfl(a, g * 4 + p, full_mask, 32);        // A(g, p) is lane 4g + p's a
    const double b0 = shfl(b, (2 * t) * 4 + p, full_mask, 32);  // B(p, j) is lane 4j + p's b
    const double b1 = shfl(b, (2 * t + 1) * 4 + p, full_mask, 32);
    s0 += ap * b0;
    s1 += ap * b1;
  }
  d[0] = s0;
  d[1] = s1;
#endif
}

namespace impl_mma {
/// Two 16-bit values packed in one 32-bit register, the lower-indexed one in the low half (PTX's f16x2).
template <class In>
WEFT_DEVICE inline float lo(std::uint32_t r) {
  return float(In::from_bits(static_cast<std::uint16_t>(r & 0xffffu)));
}
template <class In>
WEFT_DEVICE inline float hi(std::uint32_t r) {
  return float(In::from_bits(static_cast<std::uint16_t>(r >> 16)));
}
}  // namespace impl_mma

/// Packs two 16-bit values into one fragment register (a lower index, b upper).
template <class In>
WEFT_DEVICE inline std::uint32_t pack2(In a, In b) {
  return std::uint32_t(a.bits()) | (std::uint32_t(b.bits()) << 16);
}

/// D = A B + C for one 16 x 8 x 16 tile with half_t or bhalf_t inputs and float accumulation (PTX
/// mma.sync.m16n8k16.row.col.f32.{f16,bf16}, sm_80 and later). With l = lane % 32, g = l / 4, t = l % 4:
/// a[0] = A(g, 2t..2t+1), a[1] = A(g+8, 2t..2t+1), a[2] = A(g, 2t+8..2t+9), a[3] = A(g+8, 2t+8..2t+9);
/// b[0] = B(2t..2t+1, g), b[1] = B(2t+8..2t+9, g); c[q], d[q] = C(g, 2t+q) and c[2+q], d[2+q] = C(g+8, 2t+q).
template <class In>
WEFT_DEVICE inline void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                     const float (&c)[4]) {
  static_assert(is_float16_v<In>, "weft::gpu::mma_m16n8k16 takes weft::half_t or weft::bhalf_t inputs");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<In, half_t>)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
  else
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  using impl_mma::hi;
  using impl_mma::lo;
  const int l = static_cast<int>(lane_id() % 32u), g = l / 4, t = l % 4;
  float s[4] = {c[0], c[1], c[2], c[3]};
  for (int pp = 0; pp < 8; ++pp) {  // k = 2pp, 2pp + 1: held by the lanes with t = pp % 4
    const int src = pp % 4, half = pp / 4;
    const std::uint32_t a_top = shfl(a[2 * half], g * 4 + src, full_mask, 32);      // A(g, 2pp..)
    const std::uint32_t a_bot = shfl(a[2 * half + 1], g * 4 + src, full_mask, 32);  // A(g+8, 2pp..)
    const std::uint32_t b_0 = shfl(b[half], (2 * t) * 4 + src, full_mask, 32);      // B(2pp.., 2t)
    const std::uint32_t b_1 = shfl(b[half], (2 * t + 1) * 4 + src, full_mask, 32);  // B(2pp.., 2t+1)
    s[0] += lo<In>(a_top) * lo<In>(b_0) + hi<In>(a_top) * hi<In>(b_0);
    s[1] += lo<In>(a_top) * lo<In>(b_1) + hi<In>(a_top) * hi<In>(b_1);
    s[2] += lo<In>(a_bot) * lo<In>(b_0) + hi<In>(a_bot) * hi<In>(b_0);
    s[3] += lo<In>(a_bot) * lo<In>(b_1) + hi<In>(a_bot) * hi<In>(b_1);
  }
  for (int q = 0; q < 4; ++q) d[q] = s[q];
#endif
}

/// Loads four 8 x 8 matrices of 16-bit elements from shared memory into fragment registers (PTX
/// ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16, sm_75 and later). With l = lane % 32: lane l gives the address
/// of row l % 8 of matrix l / 8 (8 contiguous elements, 16-byte aligned); r[i] receives, packed as pack2 does,
/// elements (l / 4, 2 (l % 4)) and (l / 4, 2 (l % 4) + 1) of matrix i — or with Trans, (2 (l % 4), l / 4) and
/// (2 (l % 4) + 1, l / 4): the register layouts of mma_m16n8k16's fragments, from a row-major tile and from its
/// transpose. Every lane of the warp must call it. Elsewhere, shuffles of the row addresses and shared loads.
template <bool Trans>
WEFT_DEVICE inline void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(row));
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s)
                 : "memory");
#else
  const int l = static_cast<int>(lane_id() % 32u), g = l / 4, t = l % 4;
  const auto* p = static_cast<const std::uint16_t*>(row);
  for (int i = 0; i < 4; ++i) {
    if constexpr (Trans) {
      const std::uint16_t* r0 = shfl(p, 8 * i + 2 * t, full_mask, 32);
      const std::uint16_t* r1 = shfl(p, 8 * i + 2 * t + 1, full_mask, 32);
      r[i] = std::uint32_t(shared_load(r0 + g)) | (std::uint32_t(shared_load(r1 + g)) << 16);
    } else {
      const std::uint16_t* ri = shfl(p, 8 * i + g, full_mask, 32);
      r[i] = shared_load(reinterpret_cast<const std::uint32_t*>(ri) + t);
    }
  }
#endif
}

/// Rounds a float to TF32 (8 exponent bits, 10 explicit mantissa bits; nearest, ties away from zero, as
/// cvt.rna.tf32.f32): the bits of a float whose low 13 mantissa bits are zero. Infinities and NaNs pass unchanged.
WEFT_DEVICE inline std::uint32_t to_tf32(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
#else
  std::uint32_t u;
  __builtin_memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;  // the magnitude rounds; the sign stays
  return u;
#endif
}

/// D = A B + C for one 16 x 8 x 8 tile with TF32 inputs (to_tf32 bits) and float accumulation (PTX
/// mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32, sm_80 and later). With l = lane % 32, g = l / 4, t = l % 4:
/// a[0] = A(g, t), a[1] = A(g+8, t), a[2] = A(g, t+4), a[3] = A(g+8, t+4); b[0] = B(t, g), b[1] = B(t+4, g);
/// c[q], d[q] = C(g, 2t+q) and c[2+q], d[2+q] = C(g+8, 2t+q).
WEFT_DEVICE inline void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                         const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  auto f = [](std::uint32_t u) {
    float x;
    __builtin_memcpy(&x, &u, 4);
    return x;
  };
  const int l = static_cast<int>(lane_id() % 32u), g = l / 4, t = l % 4;
  float s[4] = {c[0], c[1], c[2], c[3]};
  for (int p = 0; p < 8; ++p) {  // k = p: held by the lanes with t = p % 4, in the upper registers for p >= 4
    const int src = p % 4, hi = p / 4;
    const float a_top = f(shfl(a[2 * hi], g * 4 + src, full_mask, 32));      // A(g, p)
    const float a_bot = f(shfl(a[2 * hi + 1], g * 4 + src, full_mask, 32));  // A(g+8, p)
    const float b_0 = f(shfl(b[hi], (2 * t) * 4 + src, full_mask, 32));      // B(p, 2t)
    const float b_1 = f(shfl(b[hi], (2 * t + 1) * 4 + src, full_mask, 32));  // B(p, 2t+1)
    s[0] += a_top * b_0;
    s[1] += a_top * b_1;
    s[2] += a_bot * b_0;
    s[3] += a_bot * b_1;
  }
  for (int q = 0; q < 4; ++q) d[q] = s[q];
#endif
}

}  // namespace weft::gpu
