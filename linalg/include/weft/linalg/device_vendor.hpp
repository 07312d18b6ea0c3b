// The device vendor BLAS of each execution space, selected by specialization: DeviceVendorBlas<Exec>::available
// is false except for a backend that has one (cuBLAS on weft::Cuda: <weft/linalg/cublas.hpp>, defined in
// linalg/src/vendor_cublas.cpp). Generic code asks the trait and calls its members; it names no backend.
#pragma once

#include <weft/weft.hpp>

namespace weft::linalg::impl {
template <class Exec>
struct DeviceVendorBlas {
  static constexpr bool available = false;
};
}  // namespace weft::linalg::impl

#if WEFT_HAS_CUDA
#include <weft/linalg/cublas.hpp>
#endif
