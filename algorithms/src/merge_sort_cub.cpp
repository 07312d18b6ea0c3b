// cub::DeviceMergeSort for weft::sort / sort_by_key of float and double keys under std::less / std::greater on
// weft::Cuda (see weft/algorithms/vendor_algorithms.hpp): integer keys under those comparators take the radix sort;
// floating keys cannot (-0.0 and +0.0 are equal under the comparator and keep their order, where the radix order
// separates them), so a comparison sort it is, CUB's instead of Weft's tiled merge sort.
#include <cub/device/device_merge_sort.cuh>

#include "cub_common.hpp"

namespace weft::impl::vendor {

template <class E, class T>
void merge_sort(const E& exec, T* keys, std::uint32_t* idx, int n, bool descending) {
  const cudaStream_t s = exec.cuda_stream();
  cub_detail::run(exec, "cub::DeviceMergeSort", 0, nullptr, [&](void* t, std::size_t& b, void*) {
    if (descending)
      return idx ? cub::DeviceMergeSort::StableSortPairs(t, b, keys, idx, n, ::cuda::std::greater<T>{}, s)
                 : cub::DeviceMergeSort::StableSortKeys(t, b, keys, n, ::cuda::std::greater<T>{}, s);
    return idx ? cub::DeviceMergeSort::StableSortPairs(t, b, keys, idx, n, ::cuda::std::less<T>{}, s)
               : cub::DeviceMergeSort::StableSortKeys(t, b, keys, n, ::cuda::std::less<T>{}, s);
  });
}

template void merge_sort<Cuda, float>(const Cuda&, float*, std::uint32_t*, int, bool);
template void merge_sort<Cuda, double>(const Cuda&, double*, std::uint32_t*, int, bool);

}  // namespace weft::impl::vendor
