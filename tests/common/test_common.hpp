// Shared by Weft's doctest suites: the list of enabled execution spaces and seeded random inputs.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <weft/weft.hpp>

#if WEFT_HAS_SERIAL && WEFT_HAS_OPENMP
#define WEFT_TEST_EXEC_SPACES weft::Serial, weft::OpenMP
#elif WEFT_HAS_OPENMP
#define WEFT_TEST_EXEC_SPACES weft::OpenMP
#else
#define WEFT_TEST_EXEC_SPACES weft::Serial
#endif

namespace weft_test {
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
