// Random numbers: Philox4x32-10 (Salmon et al., SC11; Random123's known-answer vectors pass), a stateless
// weft::random(seed, counter), fill_random with results bit-identical on every backend for the same seed, and a
// pool with Kokkos::Random_XorShift64_Pool's interface whose generators are Philox streams.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include <weft/weft.hpp>

namespace weft {

struct Philox4x32 {
  /// The 10-round Philox4x32 bijection of a 128-bit counter under a 64-bit key.
  WEFT_INLINE_FUNCTION static void apply(std::uint32_t c[4], const std::uint32_t key[2]) {
    std::uint32_t k0 = key[0], k1 = key[1];
    for (int r = 0; r < 10; ++r) {
      if (r > 0) {
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * c[0], p1 = std::uint64_t(0xCD9E8D57u) * c[2];
      const std::uint32_t hi0 = std::uint32_t(p0 >> 32), lo0 = std::uint32_t(p0), hi1 = std::uint32_t(p1 >> 32),
                          lo1 = std::uint32_t(p1);
      const std::uint32_t n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
      c[0] = n0;
      c[1] = lo1;
      c[2] = n2;
      c[3] = lo0;
    }
  }
};

/// 64 random bits: Philox4x32-10 of counter (low, high, 0, 0) under key (seed low, seed high), words 0 and 1.
WEFT_INLINE_FUNCTION std::uint64_t random(std::uint64_t seed, std::uint64_t counter) {
  std::uint32_t c[4] = {std::uint32_t(counter), std::uint32_t(counter >> 32), 0u, 0u};
  const std::uint32_t k[2] = {std::uint32_t(seed), std::uint32_t(seed >> 32)};
  Philox4x32::apply(c, k);
  return (std::uint64_t(c[1]) << 32) | c[0];
}
/// Uniform in [0, 1) with 53 random bits.
WEFT_INLINE_FUNCTION double random_uniform(std::uint64_t seed, std::uint64_t counter) {
  return static_cast<double>(random(seed, counter) >> 11) * (1.0 / 9007199254740992.0);
}

/// v(i) = a value drawn from counter i under `seed`, uniform in [lo, hi) (integers: lo + bits mod (hi - lo)).
/// Floating point uses one fused multiply-add, so the values are the same bits on every backend.
template <ExecutionSpace E, class V, class T>
void fill_random(const E& exec, const V& v, std::uint64_t seed, T lo, T hi) {
  static_assert(is_view_v<V> && V::R == 1, "weft::fill_random fills rank-1 Views");
  using U = typename V::non_const_value_type;
  static_assert(std::is_arithmetic_v<U>, "weft::fill_random: the View's elements must be numbers");
  if (!(hi > lo))
    throw Error("weft::fill_random on View \"" + v.label() + "\": the range [" + std::to_string(double(lo)) + ", " +
                std::to_string(double(hi)) + ") is empty; give lo < hi");
  const std::int64_t n = static_cast<std::int64_t>(v.extent(0));
  if constexpr (std::is_floating_point_v<U>) {
    const double a = static_cast<double>(lo), w = static_cast<double>(hi) - static_cast<double>(lo);
    parallel_for(
        "weft::fill_random", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n), WEFT_LAMBDA(std::int64_t i) {
          v(i) = static_cast<U>(fma(random_uniform(seed, static_cast<std::uint64_t>(i)), w, a));
        });
  } else {
    const std::uint64_t span =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - static_cast<std::int64_t>(lo));
    const std::int64_t base = static_cast<std::int64_t>(lo);
    parallel_for(
        "weft::fill_random", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n), WEFT_LAMBDA(std::int64_t i) {
          v(i) = static_cast<U>(base + static_cast<std::int64_t>(random(seed, static_cast<std::uint64_t>(i)) % span));
        });
  }
}

/// One stream of a pool: (seed, stream) is the key, and a counter walks it.
class PhiloxGenerator {
 public:
  WEFT_INLINE_FUNCTION PhiloxGenerator(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {}
  WEFT_INLINE_FUNCTION std::uint64_t urand64() {
    std::uint32_t c[4] = {std::uint32_t(counter_), std::uint32_t(counter_ >> 32), std::uint32_t(stream_),
                          std::uint32_t(stream_ >> 32)};
    const std::uint32_t k[2] = {std::uint32_t(seed_), std::uint32_t(seed_ >> 32)};
    Philox4x32::apply(c, k);
    ++counter_;
    return (std::uint64_t(c[1]) << 32) | c[0];
  }
  WEFT_INLINE_FUNCTION std::uint32_t urand() { return std::uint32_t(urand64() >> 32); }
  WEFT_INLINE_FUNCTION std::uint32_t urand(std::uint32_t range) { return range ? urand() % range : 0u; }
  WEFT_INLINE_FUNCTION std::uint64_t urand64(std::uint64_t range) { return range ? urand64() % range : 0u; }
  WEFT_INLINE_FUNCTION int rand() { return static_cast<int>(urand() >> 1); }
  WEFT_INLINE_FUNCTION int rand(int range) { return range > 0 ? static_cast<int>(urand() % std::uint32_t(range)) : 0; }
  WEFT_INLINE_FUNCTION int rand(int start, int end) { return start + rand(end - start); }
  WEFT_INLINE_FUNCTION double drand() { return static_cast<double>(urand64() >> 11) * (1.0 / 9007199254740992.0); }
  WEFT_INLINE_FUNCTION double drand(double range) { return drand() * range; }
  WEFT_INLINE_FUNCTION double drand(double start, double end) { return start + drand() * (end - start); }
  WEFT_INLINE_FUNCTION float frand() { return static_cast<float>(urand() >> 8) * (1.0f / 16777216.0f); }
  WEFT_INLINE_FUNCTION float frand(float range) { return frand() * range; }
  WEFT_INLINE_FUNCTION float frand(float start, float end) { return start + frand() * (end - start); }
  /// Standard normal (Box-Muller).
  WEFT_INLINE_FUNCTION double normal() {
    const double u1 = 1.0 - drand(), u2 = drand();
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
  }
  WEFT_INLINE_FUNCTION double normal(double mean, double stddev) { return mean + stddev * normal(); }

 private:
  std::uint64_t seed_, stream_, counter_ = 0;
};

/// Kokkos::Random_XorShift64_Pool's interface (get_state / free_state inside kernels) over Philox streams: each
/// get_state() takes a fresh stream, so no two generators in flight share numbers. (Which thread gets which
/// stream depends on scheduling, as with Kokkos's pools: for reproducible values use fill_random or random.)
template <class Space = DefaultExecutionSpace>
class Random_Philox_Pool {
 public:
  using generator_type = PhiloxGenerator;
  using memory_space = typename Space::memory_space;
  Random_Philox_Pool() = default;
  explicit Random_Philox_Pool(std::uint64_t seed) : seed_(seed), next_("weft::Random_Philox_Pool streams") {}
  WEFT_INLINE_FUNCTION generator_type get_state() const {
    return generator_type(seed_, atomic_fetch_add(&next_(), std::uint64_t(1)));
  }
  WEFT_INLINE_FUNCTION void free_state(const generator_type&) const {}

 private:
  std::uint64_t seed_ = 0;
  View<std::uint64_t, memory_space> next_;
};
template <class Space = DefaultExecutionSpace>
using Random_XorShift64_Pool = Random_Philox_Pool<Space>;
template <class Space = DefaultExecutionSpace>
using Random_XorShift1024_Pool = Random_Philox_Pool<Space>;
}  // namespace weft
