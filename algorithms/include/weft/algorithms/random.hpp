// Random numbers: Philox4x32-10 (Salmon et al., SC11; Random123's known-answer vectors pass), a stateless
// weft::random(seed, counter), fill_random with results bit-identical on every backend for the same seed, and a
// pool with Kokkos::Random_XorShift64_Pool's interface whose generators are Philox streams.
#pragma once

#include <atomic>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/containers/dyn_rank_view.hpp>
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

namespace impl {
/// The row-major multi-index of position k in a box of extents ext.
template <int R>
struct Unravel {
  std::int64_t ext[R];
  WEFT_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t* idx) const {
    for (int d = R - 1; d >= 0; --d) {
      idx[d] = k % ext[d];
      k /= ext[d];
    }
  }
};
/// Calls f(k, element) for every element of v (any rank, any layout), k its LayoutRight (row-major) position.
template <class E, class V, class F, std::size_t... I>
void for_each_element(const E& exec, const char* label, const V& v, F f, std::index_sequence<I...>) {
  constexpr int R = V::R;
  Unravel<R> unravel;
  for (int k = 0; k < R; ++k) unravel.ext[k] = static_cast<std::int64_t>(v.extent(k));
  parallel_for(
      label, RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(v.size())),
      WEFT_LAMBDA(std::int64_t k) {
        std::int64_t idx[R];
        unravel(k, idx);
        f(k, v(idx[I]...));
      });
}
template <class E, class V, class F>
requires(V::R > 0) void for_each_element(const E& exec, const char* label, const V& v, F f) {
  for_each_element(exec, label, v, f, std::make_index_sequence<V::R>());
}
template <class E, class V, class F>
requires(V::R == 0) void for_each_element(const E& exec, const char* label, const V& v, F f) {
  parallel_for(
      label, RangePolicy<E, IndexType<std::int64_t>>(exec, 0, 1), WEFT_LAMBDA(std::int64_t k) { f(k, v()); });
}
}  // namespace impl

namespace impl {
/// x = the value drawn from counter k under `seed`, uniform in [lo, hi): floating point by one fused multiply-add
/// (the same bits on every backend), integers as lo + bits mod (hi - lo).
template <class U>
struct RandomFill {
  std::uint64_t seed;
  double a = 0, w = 0;
  std::int64_t base = 0;
  std::uint64_t span = 1;
  template <class T>
  RandomFill(std::uint64_t s, T lo, T hi) : seed(s) {
    if constexpr (std::is_floating_point_v<U>) {
      a = static_cast<double>(lo);
      w = static_cast<double>(hi) - static_cast<double>(lo);
    } else {
      base = static_cast<std::int64_t>(lo);
      span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - static_cast<std::int64_t>(lo));
    }
  }
  WEFT_INLINE_FUNCTION void operator()(std::int64_t k, U& x) const {
    if constexpr (std::is_floating_point_v<U>)
      x = static_cast<U>(fma(random_uniform(seed, static_cast<std::uint64_t>(k)), w, a));
    else
      x = static_cast<U>(base + static_cast<std::int64_t>(random(seed, static_cast<std::uint64_t>(k)) % span));
  }
};
}  // namespace impl

/// Every element of v (any rank; k = its row-major position) = a value drawn from counter k under `seed`,
/// uniform in [lo, hi) (integers: lo + bits mod (hi - lo)). Floating point uses one fused multiply-add, so the
/// values are the same bits on every backend.
template <ExecutionSpace E, class V, class T>
requires(std::is_arithmetic_v<T>) void fill_random(const E& exec, const V& v, std::uint64_t seed, T lo, T hi) {
  static_assert(is_view_v<V>, "weft::fill_random fills Views");
  using U = typename V::non_const_value_type;
  static_assert(std::is_arithmetic_v<U>, "weft::fill_random: the View's elements must be numbers");
  if (!(hi > lo))
    throw Error("weft::fill_random on View \"" + v.label() + "\": the range [" + std::to_string(double(lo)) + ", " +
                std::to_string(double(hi)) + ") is empty; give lo < hi");
  impl::for_each_element(exec, "weft::fill_random", v, impl::RandomFill<U>(seed, lo, hi));
}

/// One stream of a pool: (seed, stream) is the key, and a counter walks it.
class PhiloxGenerator {
 public:
  /// Kokkos's generator bounds (Random_XorShift64's values): urand() < MAX_URAND ... as ranges for fill_random.
  static constexpr std::uint32_t MAX_URAND = 0xffffffffu;
  static constexpr std::uint64_t MAX_URAND64 = 0xffffffffffffffffull - 1;
  static constexpr int MAX_RAND = static_cast<int>(0xffffffffu / 2);
  static constexpr std::int64_t MAX_RAND64 = static_cast<std::int64_t>(0xffffffffffffffffull / 2 - 1);
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
    return ::sqrt(-2.0 * ::log(u1)) * ::cos(6.283185307179586 * u2);
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
  using memory_space = typename impl::SpacePair<Space>::memory_space;
  using execution_space = typename impl::SpacePair<Space>::execution_space;
  using device_type = Device<execution_space, memory_space>;
  Random_Philox_Pool() = default;
  explicit Random_Philox_Pool(std::uint64_t seed) : seed_(seed), next_("weft::Random_Philox_Pool streams") {}
  WEFT_INLINE_FUNCTION generator_type get_state() const {
    return generator_type(seed_, atomic_fetch_add(&next_(), std::uint64_t(1)));
  }
  WEFT_INLINE_FUNCTION void free_state(const generator_type&) const {}
  std::uint64_t impl_seed() const { return seed_; }

 private:
  std::uint64_t seed_ = 0;
  View<std::uint64_t, memory_space> next_;
};
namespace impl {
template <class P>
concept RandomPool = requires(const P& p) {
  typename P::generator_type;
  { p.impl_seed() } -> std::convertible_to<std::uint64_t>;
};
/// A fresh key for each pool fill: successive fills from one pool give new numbers, in a reproducible order.
inline std::uint64_t pool_fill_key(std::uint64_t seed) {
  static std::atomic<std::uint64_t> calls{0};
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (calls.fetch_add(1, std::memory_order_relaxed) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finalizer
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace impl

/// Kokkos's fill_random with a pool: every element of v (any rank) uniform in [begin, end), or in [0, range).
/// Each call draws new numbers; the sequence of calls is reproducible for a given seed.
template <ExecutionSpace E, class V, impl::RandomPool P, class T>
requires(is_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const E& exec, const V& v, const P& pool, T begin,
                                                                  T end) {
  fill_random(exec, v, impl::pool_fill_key(pool.impl_seed()), begin, end);
}
template <ExecutionSpace E, class V, impl::RandomPool P, class T>
requires(is_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const E& exec, const V& v, const P& pool, T range) {
  fill_random(exec, v, pool, T(0), range);
}
template <class V, impl::RandomPool P, class T>
requires(is_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const V& v, const P& pool, T begin, T end) {
  fill_random(typename V::execution_space(), v, pool, begin, end);
  typename V::execution_space().fence("weft::fill_random: fence after the fill");
}
template <class V, impl::RandomPool P, class T>
requires(is_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const V& v, const P& pool, T range) {
  fill_random(v, pool, T(0), range);
}

/// The same on a DynRankView: its elements, whatever its rank.
template <ExecutionSpace E, class V, impl::RandomPool P, class T>
requires(is_dyn_rank_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const E& exec, const V& v, const P& pool,
                                                                           T begin, T end) {
  fill_random(exec, v.impl_view(), pool, begin, end);
}
template <ExecutionSpace E, class V, impl::RandomPool P, class T>
requires(is_dyn_rank_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const E& exec, const V& v, const P& pool,
                                                                           T range) {
  fill_random(exec, v.impl_view(), pool, T(0), range);
}
template <class V, impl::RandomPool P, class T>
requires(is_dyn_rank_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const V& v, const P& pool, T begin, T end) {
  fill_random(v.impl_view(), pool, begin, end);
}
template <class V, impl::RandomPool P, class T>
requires(is_dyn_rank_view_v<V>&& std::is_arithmetic_v<T>) void fill_random(const V& v, const P& pool, T range) {
  fill_random(v.impl_view(), pool, T(0), range);
}

/// Kokkos::rand<Generator, Scalar>: draws of one arithmetic type from a pool's generator, in [0, max()) (integers,
/// floating point in [0, 1)), [0, range) or [start, end).
template <class Generator, class Scalar>
struct rand {
  static_assert(std::is_arithmetic_v<Scalar> || is_float16_v<Scalar>,
                "weft::rand<Generator, Scalar>: Scalar must be an arithmetic type, half_t or bhalf_t");
  WEFT_INLINE_FUNCTION static constexpr Scalar max() {
    if constexpr (is_float16_v<Scalar>)
      return Scalar(1.0f);
    else if constexpr (std::is_floating_point_v<Scalar>)
      return Scalar(1);
    else
      return std::numeric_limits<Scalar>::max();
  }
  WEFT_INLINE_FUNCTION static Scalar draw(Generator& gen) {
    if constexpr (is_float16_v<Scalar>) {
      // a float in [0, 1) rounded to 16 bits may round up to 1: then the largest value below 1
      const Scalar r(gen.frand());
      return static_cast<float>(r) < 1.0f ? r : Scalar::from_bits(static_cast<std::uint16_t>(Scalar(1.0f).bits() - 1));
    } else if constexpr (std::is_same_v<Scalar, float>)
      return gen.frand();
    else if constexpr (std::is_floating_point_v<Scalar>)
      return static_cast<Scalar>(gen.drand());
    else if constexpr (sizeof(Scalar) > 4)
      return static_cast<Scalar>(gen.urand64() & static_cast<std::uint64_t>(max()));
    else
      return static_cast<Scalar>(gen.urand() & static_cast<std::uint32_t>(max()));
  }
  WEFT_INLINE_FUNCTION static Scalar draw(Generator& gen, const Scalar& range) {
    if constexpr (is_float16_v<Scalar>)
      return Scalar(static_cast<float>(draw(gen)) * static_cast<float>(range));
    else if constexpr (std::is_floating_point_v<Scalar>)
      return draw(gen) * range;
    else if constexpr (sizeof(Scalar) > 4)
      return range > 0 ? static_cast<Scalar>(gen.urand64(static_cast<std::uint64_t>(range))) : Scalar(0);
    else
      return range > 0 ? static_cast<Scalar>(gen.urand(static_cast<std::uint32_t>(range))) : Scalar(0);
  }
  WEFT_INLINE_FUNCTION static Scalar draw(Generator& gen, const Scalar& start, const Scalar& end) {
    if constexpr (is_float16_v<Scalar>)
      return Scalar(static_cast<float>(start) +
                    static_cast<float>(draw(gen, Scalar(static_cast<float>(end) - static_cast<float>(start)))));
    else
      return static_cast<Scalar>(start + draw(gen, static_cast<Scalar>(end - start)));
  }
};

template <class Space = DefaultExecutionSpace>
using Random_XorShift64_Pool = Random_Philox_Pool<Space>;
template <class Space = DefaultExecutionSpace>
using Random_XorShift1024_Pool = Random_Philox_Pool<Space>;
}  // namespace weft
