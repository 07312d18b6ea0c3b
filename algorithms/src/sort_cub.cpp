// cub::DeviceRadixSort for weft::sort / sort_by_key on weft::Cuda (see weft/algorithms/vendor_sort.hpp).
#include <cub/device/device_radix_sort.cuh>

#include <weft/algorithms/vendor_sort.hpp>

namespace weft::impl {
namespace {
template <class U>
void cub_sort(const Cuda& exec, U** keys, U** alt, std::uint32_t** idx, std::uint32_t** idx_alt, int n) {
  const cudaStream_t s = exec.cuda_stream();
  constexpr int bits = 8 * sizeof(U);
  cub::DoubleBuffer<U> k(*keys, *alt);
  cub::DoubleBuffer<std::uint32_t> v(idx ? *idx : nullptr, idx ? *idx_alt : nullptr);
  auto run = [&](void* temp, std::size_t& bytes) {
    return idx ? cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, 0, bits, s)
               : cub::DeviceRadixSort::SortKeys(temp, bytes, k, n, 0, bits, s);
  };
  std::size_t bytes = 0;
  cuda_check(run(nullptr, bytes), "cub::DeviceRadixSort (sizing its temporary storage)");
  const std::size_t held = bytes > 0 ? bytes : 1;  // never null: a null pointer asks CUB for the size only
  void* temp = CudaFront::scratch_allocate(held, s);
  const cudaError_t e = run(temp, bytes);
  CudaFront::scratch_free(temp, held, s);  // stream-ordered: an event on s, no device-wide wait
  cuda_check(e, "cub::DeviceRadixSort");
  *keys = k.Current();
  *alt = k.Alternate();
  if (idx) {
    *idx = v.Current();
    *idx_alt = v.Alternate();
  }
}
}  // namespace

#define WEFT_IMPL_CUB_SORT(U)                                                                                  \
  template <>                                                                                                  \
  void vendor_radix_sort<Cuda, U>(const Cuda& e, U** k, U** a, std::uint32_t** i, std::uint32_t** ia, int n) { \
    cub_sort(e, k, a, i, ia, n);                                                                               \
  }
WEFT_IMPL_CUB_SORT(std::uint8_t)
WEFT_IMPL_CUB_SORT(std::uint16_t)
WEFT_IMPL_CUB_SORT(std::uint32_t)
WEFT_IMPL_CUB_SORT(std::uint64_t)
#undef WEFT_IMPL_CUB_SORT

}  // namespace weft::impl
