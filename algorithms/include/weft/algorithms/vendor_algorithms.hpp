// The vendor fast paths of weft::experimental's algorithms on weft::Cuda: CUB's device algorithms (DeviceSelect,
// DeviceReduce, DeviceScan's by-key scans, DeviceRunLengthEncode, DeviceHistogram, and DeviceMergeSort for weft::sort
// of floating keys under std::less / std::greater), compiled once into
// Weft::algorithms (algorithms/src/*_cub.cpp) for the arithmetic types listed by the traits below, so that a user's
// file pays none of CUB's compile time. Generic code (std_algorithms.hpp) takes a fast path where
// `vendor_path_ok` holds (the instance's backend has the paths, the switch below is on, every View is contiguous
// and the sizes fit CUB's 32-bit offsets) and the operators are the standard ones; otherwise the portable kernels
// run. A user's functor (copy_if's predicate) is evaluated by a Weft kernel in the user's file, CUB doing the rest.
// Each fast path's results equal the portable path's (floating-point sums up to rounding); tests compare the two.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <weft/algorithms/vendor_sort.hpp>
#include <weft/impl/settings.hpp>
#include <weft/weft.hpp>

namespace weft::experimental {

namespace impl {
inline std::atomic<bool>& vendor_switch() {
  static std::atomic<bool> on{weft::impl::env_flag("WEFT_VENDOR_ALGORITHMS", true)};
  return on;
}
}  // namespace impl

/// Whether weft's sorts and std algorithms may take the vendor libraries' paths (CUB on weft::Cuda, rocPRIM's
/// radix sort on weft::HIP). On by default; WEFT_VENDOR_ALGORITHMS=0 in the environment turns them off at start.
inline bool vendor_algorithms_enabled() { return impl::vendor_switch().load(std::memory_order_relaxed); }
/// Turns the vendor paths on or off for the whole process (the portable kernels run where off: for comparisons);
/// returns the previous setting.
inline bool set_vendor_algorithms(bool on) { return impl::vendor_switch().exchange(on); }

}  // namespace weft::experimental

namespace weft::impl {

/// Whether execution space E has the CUB paths below (weft::Cuda only: hipCUB is not in Debian, so weft::HIP runs
/// the portable kernels, its radix sort excepted).
template <class E>
inline constexpr bool has_vendor_algorithms_v = false;
#if WEFT_HAS_CUDA
template <>
inline constexpr bool has_vendor_algorithms_v<Cuda> = true;
#endif

namespace vendor {

template <class T>
inline constexpr bool is_plain_integer_v = std::is_integral_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;
/// The unsigned integer of B bytes (B = 1, 2, 4 or 8).
template <std::size_t B>
using unsigned_of_t = std::conditional_t<
    B == 1, std::uint8_t,
    std::conditional_t<B == 2, std::uint16_t, std::conditional_t<B == 4, std::uint32_t, std::uint64_t>>>;
template <class T>
inline constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
inline constexpr bool is_wide_integer_v = is_plain_integer_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
/// Integers as the fixed-width type of their size and signedness (char as int8_t, long as int64_t, ...).
template <class T>
using fixed_t =
    std::conditional_t<std::is_signed_v<T>, std::make_signed_t<unsigned_of_t<sizeof(T)>>, unsigned_of_t<sizeof(T)>>;

// What the library is instantiated for, by use; void: no fast path for T.
/// Keys compared with == (unique, reduce_by_key, the by-key scans, run_length_encode): integers as unsigned bit
/// patterns of their width (== on integers is == on their bits), float and double as themselves (-0.0 == +0.0,
/// NaN != NaN, as the portable path compares them).
template <class T, class U = std::remove_cv_t<T>>
using key_t =
    std::conditional_t<is_plain_integer_v<U>, unsigned_of_t<sizeof(U)>, std::conditional_t<is_float_v<U>, U, void>>;
/// Values summed (reduce_by_key, the by-key scans): 32- and 64-bit integers as unsigned (two's complement sums are
/// the same bits), float and double.
template <class T, class U = std::remove_cv_t<T>>
using sum_t =
    std::conditional_t<is_wide_integer_v<U>, unsigned_of_t<sizeof(U)>, std::conditional_t<is_float_v<U>, U, void>>;
/// Elements of reductions with min/max (where signedness matters): the 32- and 64-bit integers, float, double.
template <class T, class U = std::remove_cv_t<T>>
using ordered_t = std::conditional_t<is_wide_integer_v<U>, fixed_t<U>, std::conditional_t<is_float_v<U>, U, void>>;
/// Elements copied by selection (copy_if, remove_if): any trivially copyable type of 1, 2, 4 or 8 bytes, as bits.
template <class T, class U = std::remove_cv_t<T>>
using bits_t = std::conditional_t<std::is_trivially_copyable_v<U> &&
                                      (sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4 || sizeof(U) == 8),
                                  unsigned_of_t<sizeof(U)>, void>;

/// A rank-1 View whose elements are contiguous in memory reachable from E's kernels.
template <class E, class V>
bool contiguous(const V& v) {
  if constexpr (V::R != 1 || !accessible<E, typename V::memory_space>::value)
    return false;
  else
    return v.extent(0) <= 1 || (v.span_is_contiguous() && v.stride(0) == 1);
}
/// Whether the vendor path may run on exec for n elements over the Views vs...
template <class E, class... V>
bool path_ok(std::int64_t n, const V&... vs) {
  if constexpr (!has_vendor_algorithms_v<E>)
    return false;
  else
    return experimental::vendor_algorithms_enabled() && n <= std::int64_t(0x7fffffff) && (contiguous<E>(vs) && ...);
}
/// p as a pointer to U (the bit-pattern or fixed-width type the library is instantiated for), keeping its const.
template <class U, class T>
auto as(T* p) {
  if constexpr (std::is_const_v<T>)
    return reinterpret_cast<const U*>(p);
  else
    return reinterpret_cast<U*>(p);
}

// ---- the library's entry points (explicitly instantiated in algorithms/src/*_cub.cpp for E = Cuda and the types
// the traits above name). Each enqueues on exec's stream with temporary storage from Weft's device pool; those
// that return a count copy it to the host and wait for the stream, as the portable path's count does.

/// out[0, k) = in[i] where flags[i] != 0, in order; returns k. out == in compacts in place (cub's in-place form).
template <class E, class U>
std::int64_t select_flagged(const E& exec, const U* in, const std::uint8_t* flags, U* out, std::int64_t n);
/// out[0, k) = the first element of every run of equal consecutive elements; returns k.
template <class E, class K>
std::int64_t unique(const E& exec, const K* in, K* out, std::int64_t n);
/// For each run of equal consecutive keys: its key and the sum of its values; returns the number of runs.
template <class E, class K, class V>
std::int64_t reduce_by_key(const E& exec, const K* keys, K* out_keys, const V* values, V* sums, int n);
/// out[i] = init + the sum of values over i's run of equal keys before i (exclusive) or up to i (inclusive,
/// init unused).
template <class E, class K, class V>
void scan_by_key(const E& exec, const K* keys, const V* values, V* out, V init, bool exclusive, int n);
/// out[j], counts[j] = the key and length of run j; returns the number of runs. C: std::int32_t or std::int64_t.
template <class E, class K, class C>
std::int64_t run_length_encode(const E& exec, const K* in, K* out, C* counts, int n);
/// counts[k] = the number of samples s with lo <= s < hi and (s - lo) * bins / (hi - lo) == k in exact integer
/// arithmetic (counts overwritten). false, doing nothing, where CUB's integer arithmetic could overflow.
template <class E, class T>
bool histogram_even(const E& exec, const T* samples, std::uint32_t* counts, int bins, T lo, T hi, int n);
enum class ReduceOp { sum, min, max };
/// The sum, smallest or largest of in[0, n), n >= 1.
template <class E, class T>
T reduce(const E& exec, const T* in, std::int64_t n, ReduceOp op);
/// Sorts keys[0, n) stably by < (or > when descending), idx (when not null) alongside; T: float or double.
template <class E, class T>
void merge_sort(const E& exec, T* keys, std::uint32_t* idx, int n, bool descending);
/// sum of a[i] * b[i] over [0, n).
template <class E, class T>
T dot(const E& exec, const T* a, const T* b, std::int64_t n);

}  // namespace vendor
}  // namespace weft::impl
