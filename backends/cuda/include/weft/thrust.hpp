// Thrust on Weft's data and instances (CUDA builds only: the header exists only there).
//
//   #include <weft/thrust.hpp>
//   auto exec = weft::experimental::partition_space(weft::Cuda(), 1)[0];
//   thrust::sort_by_key(weft::thrust_policy(exec), weft::begin(keys), weft::end(keys), weft::begin(values));
//
// weft::thrust_policy(exec) is Thrust's CUDA policy bound to the instance's stream (par_nosync.on(stream)), with
// its temporary storage from Weft's device pool, freed in stream order. A Thrust call through it is enqueued on
// that stream like a Weft kernel on the instance: it runs after the instance's earlier work and before its later
// work, and the host does not wait for it (as par_nosync promises; a Thrust call that returns a value to the host,
// reduce for one, still waits for its own result). weft::begin(v) / weft::end(v) are Thrust device iterators over a
// contiguous rank-1 View of device or managed memory.
#pragma once

#if !defined(__CUDACC__)
#error "weft/thrust.hpp: Thrust calls need a CUDA translation unit (Weft's CUDA build compiles its sources with nvcc)"
#endif

#include <cstddef>
#include <string>
#include <type_traits>

#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>

#include <weft/error.hpp>
#include <weft/weft.hpp>

namespace weft {

namespace impl {
/// Thrust's temporary-storage allocator (a char allocator): blocks of Weft's device pool, freed in the stream's
/// order, so that nothing waits for the device.
class ThrustPoolAllocator {
 public:
  using value_type = char;
  explicit ThrustPoolAllocator(cudaStream_t stream) : stream_(stream) {}
  char* allocate(std::ptrdiff_t n) { return static_cast<char*>(CudaFront::scratch_allocate(held(n), stream_)); }
  void deallocate(char* p, std::size_t n) { CudaFront::scratch_free(p, held(static_cast<std::ptrdiff_t>(n)), stream_); }

 private:
  static std::size_t held(std::ptrdiff_t n) { return n > 0 ? static_cast<std::size_t>(n) : 1; }
  cudaStream_t stream_;
};

template <class V>
void check_thrust_view(const V& v, const char* what) {
  static_assert(V::R == 1, "weft::begin/end (weft/thrust.hpp): Thrust iterators are over rank-1 Views");
  static_assert(accessible<Cuda, typename V::memory_space>::value,
                "weft::begin/end (weft/thrust.hpp): the View's memory must be reachable from CUDA kernels "
                "(CudaSpace or CudaUVMSpace)");
  if (v.extent(0) > 1 && (!v.span_is_contiguous() || v.stride(0) != 1))
    throw_error(std::string("weft::") + what + ": View \"" + v.label() + "\" has stride " +
                std::to_string(v.stride(0)) + "; Thrust iterators need a contiguous View (deep_copy it into one)");
}
}  // namespace impl

/// Thrust's CUDA execution policy on exec's stream, temporaries from Weft's pool, no synchronization added.
inline auto thrust_policy(const Cuda& exec) {
  return thrust::cuda::par_nosync(impl::ThrustPoolAllocator(exec.cuda_stream())).on(exec.cuda_stream());
}

/// A Thrust device iterator at the first element of a contiguous rank-1 device View ...
template <class D, class... P>
auto begin(const View<D, P...>& v) {
  impl::check_thrust_view(v, "begin");
  return thrust::device_pointer_cast(v.data());
}
/// ... and one past its last.
template <class D, class... P>
auto end(const View<D, P...>& v) {
  impl::check_thrust_view(v, "end");
  return thrust::device_pointer_cast(v.data() + v.extent(0));
}

}  // namespace weft
