// CUB for weft::experimental's selections, runs, histogram and reductions on weft::Cuda (see
// weft/algorithms/vendor_algorithms.hpp): DeviceSelect::Flagged / Unique, DeviceRunLengthEncode::Encode,
// DeviceHistogram::HistogramEven, DeviceReduce::Sum / Min / Max / TransformReduce.
#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <limits>

#include "cub_common.hpp"

namespace weft::impl::vendor {
namespace {
using cub_detail::run;

template <class T>
struct Product {
  const T* a;
  const T* b;
  __device__ T operator()(int i) const { return a[i] * b[i]; }
};
}  // namespace

template <class E, class U>
std::int64_t select_flagged(const E& exec, const U* in, const std::uint8_t* flags, U* out, std::int64_t n) {
  std::int64_t k = 0;
  run(exec, "cub::DeviceSelect::Flagged", sizeof k, &k, [&](void* t, std::size_t& b, void* r) {
    auto* count = static_cast<std::int64_t*>(r);
    return in == out ? cub::DeviceSelect::Flagged(t, b, out, flags, count, n, exec.cuda_stream())
                     : cub::DeviceSelect::Flagged(t, b, in, flags, out, count, n, exec.cuda_stream());
  });
  return k;
}

template <class E, class K>
std::int64_t unique(const E& exec, const K* in, K* out, std::int64_t n) {
  std::int64_t k = 0;
  run(exec, "cub::DeviceSelect::Unique", sizeof k, &k, [&](void* t, std::size_t& b, void* r) {
    return cub::DeviceSelect::Unique(t, b, in, out, static_cast<std::int64_t*>(r), n, exec.cuda_stream());
  });
  return k;
}

template <class E, class K, class C>
std::int64_t run_length_encode(const E& exec, const K* in, K* out, C* counts, int n) {
  C k = 0;
  run(exec, "cub::DeviceRunLengthEncode::Encode", sizeof k, &k, [&](void* t, std::size_t& b, void* r) {
    return cub::DeviceRunLengthEncode::Encode(t, b, in, out, counts, static_cast<C*>(r), n, exec.cuda_stream());
  });
  return static_cast<std::int64_t>(k);
}

template <class E, class T>
bool histogram_even(const E& exec, const T* samples, std::uint32_t* counts, int bins, T lo, T hi, int n) {
  // CUB refuses (cudaErrorInvalidValue) where (hi - lo) * bins could overflow its integer arithmetic (32 bits for
  // 8- and 16-bit samples, 64 above): the portable path, which computes in 128 bits, takes those.
  using W = std::conditional_t<sizeof(T) <= 2, std::uint32_t, std::uint64_t>;
  const W range = static_cast<W>(static_cast<W>(hi) - static_cast<W>(lo));
  if (range > std::numeric_limits<W>::max() / static_cast<W>(bins)) return false;
  // CUB subtracts in T first: a signed T whose range exceeds its largest value would wrap there
  if constexpr (std::is_signed_v<T>)
    if (range > static_cast<W>(std::numeric_limits<T>::max())) return false;
  run(exec, "cub::DeviceHistogram::HistogramEven", 0, nullptr, [&](void* t, std::size_t& b, void*) {
    return cub::DeviceHistogram::HistogramEven(t, b, samples, counts, bins + 1, lo, hi, n, exec.cuda_stream());
  });
  return true;
}

template <class E, class T>
T reduce(const E& exec, const T* in, std::int64_t n, ReduceOp op) {
  T result{};
  const int m = static_cast<int>(n);
  run(exec, "cub::DeviceReduce", sizeof result, &result, [&](void* t, std::size_t& b, void* r) {
    T* out = static_cast<T*>(r);
    switch (op) {
      case ReduceOp::min:
        return cub::DeviceReduce::Min(t, b, in, out, m, exec.cuda_stream());
      case ReduceOp::max:
        return cub::DeviceReduce::Max(t, b, in, out, m, exec.cuda_stream());
      default:
        return cub::DeviceReduce::Sum(t, b, in, out, m, exec.cuda_stream());
    }
  });
  return result;
}

template <class E, class T>
T dot(const E& exec, const T* a, const T* b, std::int64_t n) {
  T result{};
  run(exec, "cub::DeviceReduce::TransformReduce", sizeof result, &result, [&](void* t, std::size_t& bytes, void* r) {
    return cub::DeviceReduce::TransformReduce(t, bytes, thrust::counting_iterator<int>(0), static_cast<T*>(r),
                                              static_cast<int>(n), ::cuda::std::plus<T>{}, Product<T>{a, b}, T{},
                                              exec.cuda_stream());
  });
  return result;
}

#define WEFT_IMPL_BITS(U) \
  template std::int64_t select_flagged<Cuda, U>(const Cuda&, const U*, const std::uint8_t*, U*, std::int64_t);
WEFT_IMPL_BITS(std::uint8_t)
WEFT_IMPL_BITS(std::uint16_t)
WEFT_IMPL_BITS(std::uint32_t)
WEFT_IMPL_BITS(std::uint64_t)
#undef WEFT_IMPL_BITS

#define WEFT_IMPL_KEY(K)                                                                                         \
  template std::int64_t unique<Cuda, K>(const Cuda&, const K*, K*, std::int64_t);                                \
  template std::int64_t run_length_encode<Cuda, K, std::int32_t>(const Cuda&, const K*, K*, std::int32_t*, int); \
  template std::int64_t run_length_encode<Cuda, K, std::int64_t>(const Cuda&, const K*, K*, std::int64_t*, int);
WEFT_IMPL_KEY(std::uint8_t)
WEFT_IMPL_KEY(std::uint16_t)
WEFT_IMPL_KEY(std::uint32_t)
WEFT_IMPL_KEY(std::uint64_t)
WEFT_IMPL_KEY(float)
WEFT_IMPL_KEY(double)
#undef WEFT_IMPL_KEY

#define WEFT_IMPL_HIST(T) template bool histogram_even<Cuda, T>(const Cuda&, const T*, std::uint32_t*, int, T, T, int);
WEFT_IMPL_HIST(std::int8_t)
WEFT_IMPL_HIST(std::uint8_t)
WEFT_IMPL_HIST(std::int16_t)
WEFT_IMPL_HIST(std::uint16_t)
WEFT_IMPL_HIST(std::int32_t)
WEFT_IMPL_HIST(std::uint32_t)
WEFT_IMPL_HIST(std::int64_t)
WEFT_IMPL_HIST(std::uint64_t)
#undef WEFT_IMPL_HIST

#define WEFT_IMPL_REDUCE(T)                                                  \
  template T reduce<Cuda, T>(const Cuda&, const T*, std::int64_t, ReduceOp); \
  template T dot<Cuda, T>(const Cuda&, const T*, const T*, std::int64_t);
WEFT_IMPL_REDUCE(std::int32_t)
WEFT_IMPL_REDUCE(std::uint32_t)
WEFT_IMPL_REDUCE(std::int64_t)
WEFT_IMPL_REDUCE(std::uint64_t)
WEFT_IMPL_REDUCE(float)
WEFT_IMPL_REDUCE(double)
#undef WEFT_IMPL_REDUCE

}  // namespace weft::impl::vendor
