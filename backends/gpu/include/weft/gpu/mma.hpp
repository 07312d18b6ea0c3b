// Warp-level matrix multiply-accumulate (the tensor-core layer of Weft's GPU kernels). Each operation works
// on fragments spread over the 32 lanes of a warp in the PTX ISA's layout; on a GPU that has the instruction
// it is one mma.sync, everywhere else (GpuEmu, HIP, CUDA before sm_80) the same arithmetic through the
// intrinsics layer's shuffles, so that a kernel written against it runs, and is tested, on every backend.
#pragma once

#include <weft/gpu/intrinsics.hpp>

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

}  // namespace weft::gpu
