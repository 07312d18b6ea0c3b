// The vendor fast path of weft::sort / sort_by_key on the GPU backends: cub::DeviceRadixSort on weft::Cuda
// (algorithms/src/sort_cub.cpp), rocprim::radix_sort on weft::HIP (algorithms/src/sort_rocprim.cpp). The vendor
// library is compiled once into Weft::algorithms, so a user's file that sorts pays none of its compile time.
// Generic code selects the path by the trait below (a specialization per backend that has one), never by #if.
#pragma once

#include <cstdint>

#include <weft/weft.hpp>

namespace weft::impl {

/// Whether execution space E has the vendor radix sort below.
template <class E>
inline constexpr bool has_vendor_radix_sort_v = false;
#if WEFT_HAS_CUDA
template <>
inline constexpr bool has_vendor_radix_sort_v<Cuda> = true;
#endif
#if WEFT_HAS_HIP
template <>
inline constexpr bool has_vendor_radix_sort_v<HIP> = true;
#endif

/// An ascending, stable radix sort of n keys already turned into unsigned bit patterns (U: 8, 16, 32 or 64
/// bits), with an optional 32-bit index payload (idx == nullptr: keys only), enqueued on the instance's
/// stream; the library's temporary storage comes from Weft's device pool. keys/alt (idx/idx_alt) are two
/// device buffers of n elements each; on return *keys (*idx) points at the one that holds the result.
template <class E, class U>
void vendor_radix_sort(const E& exec, U** keys, U** alt, std::uint32_t** idx, std::uint32_t** idx_alt, int n);

}  // namespace weft::impl
