// Must not compile (CUDA builds check it at configure time, tests/CMakeLists.txt): a device atomic on a 16-byte
// type stops ptxas at weft_error_device_atomics_need_a_4_or_8_byte_type. The same atomic in host code is fine.
#include <complex>

#include <weft/weft.hpp>

#ifndef WEFT_PROBE_DEVICE_TYPE
#define WEFT_PROBE_DEVICE_TYPE std::complex<double>
#endif

void probe() {
  weft::View<WEFT_PROBE_DEVICE_TYPE*, weft::CudaSpace> v("v", 4);
  weft::parallel_for(
      weft::RangePolicy<weft::Cuda>(0, 4), WEFT_LAMBDA(int i) { weft::atomic_add(&v(i), WEFT_PROBE_DEVICE_TYPE(1)); });
  std::complex<double> h(0, 0);
  weft::atomic_add(&h, std::complex<double>(1, 0));  // host code: a lock, allowed
}
