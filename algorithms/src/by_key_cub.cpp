// CUB for weft::experimental's by-key algorithms on weft::Cuda (see weft/algorithms/vendor_algorithms.hpp):
// DeviceReduce::ReduceByKey and DeviceScan::InclusiveSumByKey / ExclusiveScanByKey, keys compared with ==
// (integers as their unsigned bit patterns, float and double as themselves), values summed.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "cub_common.hpp"

namespace weft::impl::vendor {

template <class E, class K, class V>
std::int64_t reduce_by_key(const E& exec, const K* keys, K* out_keys, const V* values, V* sums, int n) {
  std::int64_t runs = 0;
  cub_detail::run(exec, "cub::DeviceReduce::ReduceByKey", sizeof runs, &runs, [&](void* t, std::size_t& b, void* r) {
    return cub::DeviceReduce::ReduceByKey(t, b, keys, out_keys, values, sums, static_cast<std::int64_t*>(r),
                                          ::cuda::std::plus<V>{}, n, exec.cuda_stream());
  });
  return runs;
}

template <class E, class K, class V>
void scan_by_key(const E& exec, const K* keys, const V* values, V* out, V init, bool exclusive, int n) {
  cub_detail::run(exec, exclusive ? "cub::DeviceScan::ExclusiveScanByKey" : "cub::DeviceScan::InclusiveSumByKey", 0,
                  nullptr, [&](void* t, std::size_t& b, void*) {
                    return exclusive ? cub::DeviceScan::ExclusiveScanByKey(
                                           t, b, keys, values, out, ::cuda::std::plus<V>{}, init, n,
                                           ::cuda::std::equal_to<>{}, exec.cuda_stream())
                                     : cub::DeviceScan::InclusiveSumByKey(
                                           t, b, keys, values, out, n, ::cuda::std::equal_to<>{}, exec.cuda_stream());
                  });
}

#define WEFT_IMPL_BY_KEY(K, V)                                                                   \
  template std::int64_t reduce_by_key<Cuda, K, V>(const Cuda&, const K*, K*, const V*, V*, int); \
  template void scan_by_key<Cuda, K, V>(const Cuda&, const K*, const V*, V*, V, bool, int);
#define WEFT_IMPL_VALUES(K)          \
  WEFT_IMPL_BY_KEY(K, std::uint32_t) \
  WEFT_IMPL_BY_KEY(K, std::uint64_t) \
  WEFT_IMPL_BY_KEY(K, float)         \
  WEFT_IMPL_BY_KEY(K, double)
WEFT_IMPL_VALUES(std::uint8_t)
WEFT_IMPL_VALUES(std::uint16_t)
WEFT_IMPL_VALUES(std::uint32_t)
WEFT_IMPL_VALUES(std::uint64_t)
WEFT_IMPL_VALUES(float)
WEFT_IMPL_VALUES(double)
#undef WEFT_IMPL_VALUES
#undef WEFT_IMPL_BY_KEY

}  // namespace weft::impl::vendor
