// rocprim::radix_sort for weft::sort / sort_by_key on weft::HIP (see weft/algorithms/vendor_sort.hpp; Debian has
// rocPRIM but no hipCUB).
#include <rocprim/device/device_radix_sort.hpp>

#include <weft/algorithms/vendor_sort.hpp>

namespace weft::impl {
namespace {
template <class U>
void rocprim_sort(const HIP& exec, U** keys, U** alt, std::uint32_t** idx, std::uint32_t** idx_alt, int n) {
  const hipStream_t s = exec.hip_stream();
  constexpr unsigned bits = 8 * sizeof(U);
  rocprim::double_buffer<U> k(*keys, *alt);
  rocprim::double_buffer<std::uint32_t> v(idx ? *idx : nullptr, idx ? *idx_alt : nullptr);
  auto run = [&](void* temp, std::size_t& bytes) {
    return idx ? rocprim::radix_sort_pairs(temp, bytes, k, v, n, 0u, bits, s)
               : rocprim::radix_sort_keys(temp, bytes, k, n, 0u, bits, s);
  };
  std::size_t bytes = 0;
  hip_check(run(nullptr, bytes), "rocprim::radix_sort (sizing its temporary storage)");
  const std::size_t held = bytes > 0 ? bytes : 1;  // never null: a null pointer asks rocPRIM for the size only
  void* temp = HipFront::scratch_allocate(held, s);
  const hipError_t e = run(temp, bytes);
  HipFront::scratch_free(temp, held, s);  // stream-ordered: an event on s, no device-wide wait
  hip_check(e, "rocprim::radix_sort");
  *keys = k.current();
  *alt = k.alternate();
  if (idx) {
    *idx = v.current();
    *idx_alt = v.alternate();
  }
}
}  // namespace

#define WEFT_IMPL_ROCPRIM_SORT(U)                                                                            \
  template <>                                                                                                \
  void vendor_radix_sort<HIP, U>(const HIP& e, U** k, U** a, std::uint32_t** i, std::uint32_t** ia, int n) { \
    rocprim_sort(e, k, a, i, ia, n);                                                                         \
  }
WEFT_IMPL_ROCPRIM_SORT(std::uint8_t)
WEFT_IMPL_ROCPRIM_SORT(std::uint16_t)
WEFT_IMPL_ROCPRIM_SORT(std::uint32_t)
WEFT_IMPL_ROCPRIM_SORT(std::uint64_t)
#undef WEFT_IMPL_ROCPRIM_SORT

}  // namespace weft::impl
