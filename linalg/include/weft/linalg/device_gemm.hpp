// matrix_product on device spaces: Weft's tiled GPU kernel (gpu_gemm.hpp): DMMA tensor-core tiles for double on
// CUDA and GpuEmu, register-tiled SIMT otherwise; TF32 for float where the backend has it and the user allows it.
// Included by gemm.hpp in builds with a GPU backend.
#pragma once

#include <weft/linalg/gemm.hpp>
#include <weft/linalg/gpu_gemm.hpp>

namespace weft::linalg::impl {
template <class Exec, class AV, class BV, class CV, class EV, class Ep>
void device_gemm(const Exec& exec, const MatOp<AV>& A, const MatOp<BV>& B, const CV& C, const EV* E, const Ep& ep) {
  using T = typename CV::non_const_value_type;
  using In = typename AV::non_const_value_type;
  constexpr bool tf32_capable =
      Exec::impl_vendor::nvidia_mma_fragments && std::is_same_v<In, float> && std::is_same_v<T, float>;
  gpu_gemm::run(exec, A.view, A.trans, B.view, B.trans, C, E, A.alpha * B.alpha,
                gpu_gemm::mma_default_v<Exec, In, T> || (tf32_capable && tf32_allowed()), ep);
}
}  // namespace weft::linalg::impl
