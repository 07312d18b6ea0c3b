// Shared by Weft's doctest suites: the list of enabled execution spaces and seeded random inputs.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <weft/weft.hpp>

#if WEFT_HAS_SERIAL && WEFT_HAS_OPENMP
#define WEFT_TEST_HOST_SPACES weft::Serial, weft::OpenMP
#elif WEFT_HAS_OPENMP
#define WEFT_TEST_HOST_SPACES weft::OpenMP
#else
#define WEFT_TEST_HOST_SPACES weft::Serial
#endif
/// Host spaces plus the device backend (GpuEmu, Cuda, HIP) when there is one: tests over these read results
/// through host mirrors (weft_test::on_host), never through device Views.
#if WEFT_HAS_GPU_EMU
#define WEFT_TEST_EXEC_SPACES WEFT_TEST_HOST_SPACES, weft::GpuEmu
#elif WEFT_HAS_CUDA
#define WEFT_TEST_EXEC_SPACES WEFT_TEST_HOST_SPACES, weft::Cuda
#elif WEFT_HAS_HIP
#define WEFT_TEST_EXEC_SPACES WEFT_TEST_HOST_SPACES, weft::HIP
#else
#define WEFT_TEST_EXEC_SPACES WEFT_TEST_HOST_SPACES
#endif

namespace weft_test {
/// A host copy of any View (the View itself when the host can read it).
template <class V>
auto on_host(const V& v) {
  return weft::create_mirror_view_and_copy(weft::HostSpace(), v);
}
/// Copies host values into a rank-1 View of any space.
template <class V, class T>
void upload(const V& v, const std::vector<T>& values) {
  auto h = weft::create_mirror_view(v);
  for (std::size_t i = 0; i < values.size(); ++i) h(i) = values[i];
  weft::deep_copy(v, h);
}
template <class E>
inline constexpr bool is_host_space_v = E::impl_is_host_space;

/// Seeded uniform values in [lo, hi); the seed is reported by the caller with INFO.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}
}  // namespace weft_test
