// What the CUB fast paths share (algorithms/src/*_cub.cpp): CUB's two-call protocol with temporary storage from
// Weft's device pool (and a few bytes in front of it for the counts the host reads back), in stream order.
#pragma once

#include <cstddef>
#include <cstdint>

#include <weft/algorithms/vendor_algorithms.hpp>

namespace weft::impl::vendor::cub_detail {

/// Runs `call(temp, bytes)` the CUB way: once to size the temporary storage, once to work, on exec's stream.
/// `result_bytes` more bytes (at the front, 256-byte aligned) are handed to `call` as `result` for the outputs
/// that CUB writes to device memory (a count, an aggregate); when `host_result` is not null they are copied there
/// and the stream waited for. The storage is freed in stream order (no device-wide wait).
template <class Call>
void run(const Cuda& exec, const char* what, std::size_t result_bytes, void* host_result, Call&& call) {
  const cudaStream_t s = exec.cuda_stream();
  std::size_t bytes = 0;
  cuda_check(call(nullptr, bytes, nullptr), what);
  const std::size_t front = (result_bytes + 255) / 256 * 256;
  const std::size_t held = front + (bytes > 0 ? bytes : 1);  // never null: a null pointer asks CUB for the size only
  char* block = static_cast<char*>(CudaFront::scratch_allocate(held, s));
  const cudaError_t e = call(block + front, bytes, result_bytes ? block : nullptr);
  cudaError_t c = cudaSuccess;
  if (e == cudaSuccess && host_result) c = CudaApi::memcpy_async(host_result, block, result_bytes, s);
  CudaFront::scratch_free(block, held, s);  // stream-ordered: an event on s
  cuda_check(e, what);
  cuda_check(c, what);
  if (host_result) cuda_check(CudaApi::stream_sync(s), what);
}

}  // namespace weft::impl::vendor::cub_detail
