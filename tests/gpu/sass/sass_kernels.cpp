// The kernels CI reads instruction by instruction (check_sass.py, ctest label "sass") beside the GEMM kernels that
// tests/linalg/test_linalg.cpp instantiates (every warp layer, slab layout and epilogue it tests): compiled for
// CUDA like any user's file (the cuda preset's architectures and flags), never run. Each kernel's name carries one
// of the functors below, which is how the checker finds it in the fat binary:
//  - parallel_reduce and parallel_scan of double and int64 (SassReduce*, SassScan*): warp shuffles, no local memory;
//  - a warp reduction through the intrinsics layer (sass_pair_layer) and the same one written with CUDA's own
//    intrinsics (sass_pair_raw): the layer must cost no instruction.
#include <cstdint>

#include <weft/gpu/intrinsics.hpp>
#include <weft/gpu/warp.hpp>
#include <weft/weft.hpp>

namespace weft_sass {

template <class T>
using DeviceVector = weft::View<T*, weft::CudaSpace>;

struct SassReduceDouble {
  DeviceVector<const double> x;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, double& acc) const { acc += x(i); }
};
struct SassReduceInt64 {
  DeviceVector<const std::int64_t> x;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& acc) const { acc += x(i); }
};
struct SassScanDouble {
  DeviceVector<double> x;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, double& update, bool final) const {
    const double v = x(i);
    if (final) x(i) = update;
    update += v;
  }
};
struct SassScanInt64 {
  DeviceVector<std::int64_t> x;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& update, bool final) const {
    const std::int64_t v = x(i);
    if (final) x(i) = update;
    update += v;
  }
};

/// Instantiates every kernel the checker reads (never called).
void instantiate() {
  const weft::Cuda exec;
  const std::int64_t n = 1 << 20;
  double d = 0;
  std::int64_t l = 0;
  DeviceVector<double> xd("xd", n);
  DeviceVector<std::int64_t> xl("xl", n);
  weft::parallel_reduce("sass reduce double", weft::RangePolicy<weft::Cuda>(exec, 0, n), SassReduceDouble{xd}, d);
  weft::parallel_reduce("sass reduce int64", weft::RangePolicy<weft::Cuda>(exec, 0, n), SassReduceInt64{xl}, l);
  weft::parallel_scan("sass scan double", weft::RangePolicy<weft::Cuda>(exec, 0, n), SassScanDouble{xd});
  weft::parallel_scan("sass scan int64", weft::RangePolicy<weft::Cuda>(exec, 0, n), SassScanInt64{xl});
}

struct SumJoin {
  WEFT_DEVICE void join(double* a, const double* b) const { *a += *b; }
};

}  // namespace weft_sass

/// A warp's sum of doubles through Weft's layer (warp_reduce: shfl_down of a double as two 32-bit words) ...
__global__ void sass_pair_layer(double* out) {
  double v = out[weft::gpu::thread_rank()];
  v = weft::gpu::warp_reduce(weft_sass::SumJoin{}, v);
  if (weft::gpu::lane_id() == 0) out[weft::gpu::thread_rank()] = v;
}
/// ... and written with CUDA's intrinsics, the same steps: lane + d < 32 joins lane + d's value.
__global__ void sass_pair_raw(double* out) {
  const unsigned rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  double v = out[rank];
  for (int d = 16; d > 0; d /= 2) {
    const double other = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(d), 32);
    if (static_cast<int>(rank % 32u % 32u) + d < 32) v += other;
  }
  if (rank % 32u == 0) out[rank] = v;
}
