// weft::experimental::simd: every operator, mask operation, where expression, load/store, gather/scatter,
// reduction and math function, lane by lane against the same scalar operation on seeded random inputs, for the
// scalar ABI and fixed_size<2/4/8/16> over double, float, int32 and int64; then simd kernels (a triad with a masked
// tail, a dot, a masked update) on every execution space with its native ABI against serial loops.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <weft/containers.hpp>

#include "test_common.hpp"

namespace sx = weft::experimental;

namespace {

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, bool positive = false) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<double> d(positive ? 0.05 : -4.0, 4.0);
      x = static_cast<T>(d(gen));
    } else {
      std::uniform_int_distribution<long long> d(positive ? 1 : -1000, 1000);
      x = static_cast<T>(d(gen));
      if (x == 0) x = 1;  // divisors
    }
  }
  return v;
}

template <class T>
bool close(T got, T want, double rel) {
  if (std::isnan(static_cast<double>(want))) return std::isnan(static_cast<double>(got));
  return std::abs(static_cast<double>(got) - static_cast<double>(want)) <=
         rel * std::max(1.0, std::abs(static_cast<double>(want)));
}

template <class T, class Abi>
void check_abi() {
  using V = sx::basic_simd<T, Abi>;
  using M = typename V::mask_type;
  constexpr std::size_t W = V::size();
  static_assert(M::size() == W);
  static_assert(sx::is_simd_v<V> && sx::is_simd_mask_v<M> && !sx::is_simd_v<T>);
  CAPTURE(W);
  for (std::uint64_t round = 0; round < 20; ++round) {
    const auto a = random_values<T>(W, 100 + round), b = random_values<T>(W, 200 + round);
    const auto c = random_values<T>(W, 300 + round);
    const auto idx_src = random_values<int>(W, 400 + round, true);
    V x(a.data(), sx::simd_flag_default), y;
    y.copy_from(b.data(), sx::element_aligned_tag{});
    const V z(c.data());
    for (std::size_t i = 0; i < W; ++i) REQUIRE(x[i] == a[i]);

    // arithmetic, exact lane by lane
    const V sum = x + y, diff = x - y, prod = x * y, quot = x / y, neg = -x, plus2 = x + T(2), twice = T(2) * x;
    V acc = x;
    acc += y;
    acc *= z;
    for (std::size_t i = 0; i < W; ++i) {
      CHECK(sum[i] == T(a[i] + b[i]));
      CHECK(diff[i] == T(a[i] - b[i]));
      CHECK(prod[i] == T(a[i] * b[i]));
      CHECK(quot[i] == T(a[i] / b[i]));
      CHECK(neg[i] == T(-a[i]));
      CHECK(plus2[i] == T(a[i] + T(2)));
      CHECK(twice[i] == T(T(2) * a[i]));
      CHECK(acc[i] == T(T(a[i] + b[i]) * c[i]));
    }
    if constexpr (std::is_integral_v<T>) {
      const V rem = x % y, band = x & y, bor = x | y, bxor = x ^ y, shl = (x & V(T(255))) << 3, shr = x >> 2,
              sv = (x & V(T(255))) << V(T(1)), inv = ~x;
      for (std::size_t i = 0; i < W; ++i) {
        CHECK(rem[i] == T(a[i] % b[i]));
        CHECK(band[i] == T(a[i] & b[i]));
        CHECK(bor[i] == T(a[i] | b[i]));
        CHECK(bxor[i] == T(a[i] ^ b[i]));
        CHECK(shl[i] == T((a[i] & 255) << 3));
        CHECK(shr[i] == T(a[i] >> 2));
        CHECK(sv[i] == T((a[i] & 255) << 1));
        CHECK(inv[i] == T(~a[i]));
      }
    }

    // comparisons and masks
    const M lt = x<y, le = x <= y, gt = x> y, ge = x >= y, eq = x == x, ne = x != y;
    int count = 0;
    for (std::size_t i = 0; i < W; ++i) {
      CHECK(lt[i] == (a[i] < b[i]));
      CHECK(le[i] == (a[i] <= b[i]));
      CHECK(gt[i] == (a[i] > b[i]));
      CHECK(ge[i] == (a[i] >= b[i]));
      CHECK(eq[i]);
      CHECK(ne[i] == (a[i] != b[i]));
      CHECK((lt && ge)[i] == false);
      CHECK((lt || gt)[i] == (a[i] != b[i]));
      CHECK((!lt)[i] == !(a[i] < b[i]));
      CHECK((lt ^ le)[i] == (a[i] == b[i]));
      CHECK((lt == le)[i] == (a[i] != b[i]));
      count += a[i] < b[i];
    }
    CHECK(sx::popcount(lt) == count);
    CHECK(sx::any_of(lt) == (count > 0));
    CHECK(sx::all_of(lt) == (count == int(W)));
    CHECK(sx::none_of(lt) == (count == 0));
    CHECK(sx::all_of(M(true)));
    CHECK(sx::none_of(M(false)));
    const M even([](auto i) { return i % 2 == 0; });
    for (std::size_t i = 0; i < W; ++i) CHECK(even[i] == (i % 2 == 0));

    // generator, broadcast, conversion
    const V iota([](auto i) { return T(i); });
    const V seven(T(7));
    const sx::basic_simd<double, Abi> as_double(x);
    for (std::size_t i = 0; i < W; ++i) {
      CHECK(iota[i] == T(i));
      CHECK(seven[i] == T(7));
      CHECK(as_double[i] == double(a[i]));
    }

    // where: assignment, compound assignment, masked loads, stores, gathers and scatters; condition
    V w = x;
    sx::where(lt, w) = y;
    V w2 = x;
    sx::where(lt, w2) += z;
    V w3 = x;
    sx::where(even, w3).copy_from(c.data(), sx::simd_flag_default);
    std::vector<T> out(W, T(-9)), scat(3 * W, T(-9));
    sx::where(lt, x).copy_to(out.data(), sx::simd_flag_default);
    const sx::basic_simd<int, Abi> idx([&](auto i) { return int(i) * 3 + idx_src[i] % 3; });
    std::vector<T> table = random_values<T>(3 * W, 500 + round);
    V g = x;
    sx::where(gt, g).gather_from(table.data(), idx);
    sx::where(gt, x).scatter_to(scat.data(), idx);
    const V cond = sx::condition(lt, x, y);
    for (std::size_t i = 0; i < W; ++i) {
      const bool l = a[i] < b[i];
      CHECK(w[i] == (l ? b[i] : a[i]));
      CHECK(w2[i] == (l ? T(a[i] + c[i]) : a[i]));
      CHECK(w3[i] == (i % 2 == 0 ? c[i] : a[i]));
      CHECK(out[i] == (l ? a[i] : T(-9)));
      CHECK(g[i] == (a[i] > b[i] ? table[idx[i]] : a[i]));
      if (a[i] > b[i]) CHECK(scat[idx[i]] == a[i]);
      CHECK(cond[i] == (l ? a[i] : b[i]));
    }

    // reductions across lanes
    T s = a[0], mn = a[0], mx = a[0], ms = T(0);
    T mmin = weft::reduction_identity<T>::min(), mmax = weft::reduction_identity<T>::max();
    for (std::size_t i = 1; i < W; ++i) s = T(s + a[i]), mn = std::min(mn, a[i]), mx = std::max(mx, a[i]);
    for (std::size_t i = 0; i < W; ++i)
      if (a[i] < b[i]) ms = T(ms + a[i]), mmin = std::min(mmin, a[i]), mmax = std::max(mmax, a[i]);
    CHECK(sx::reduce(x) == s);
    CHECK(sx::reduce(x, std::plus<>()) == s);
    CHECK(sx::reduce(x, lt, T(0), std::plus<>()) == ms);
    CHECK(sx::reduce(sx::where(lt, x), T(0), std::plus<>()) == ms);
    CHECK(sx::reduce_min(x) == mn);
    CHECK(sx::reduce_max(x) == mx);
    CHECK(sx::reduce_min(x, lt) == mmin);
    CHECK(sx::reduce_max(x, lt) == mmax);
    CHECK(sx::hmin(sx::where(lt, x)) == mmin);
    CHECK(sx::hmax(sx::where(lt, x)) == mmax);
    if constexpr (std::is_integral_v<T>) {
      T p = T(1), band = T(~T()), bor = T(0);
      // factors of 2 and -1 (2^16 at most: no overflow in int32), only -1 and 1 past 16 lanes
      const auto factor = [&](std::size_t i) { return T(a[i] % 2 == 0 ? (W <= 16 ? 2 : 1) : -1); };
      for (std::size_t i = 0; i < W; ++i) p = T(p * factor(i)), band &= a[i], bor |= a[i];
      CHECK(sx::reduce(V([&](auto i) { return factor(i); }), std::multiplies<>()) == p);
      CHECK(sx::reduce(x, std::bit_and<>()) == band);
      CHECK(sx::reduce(x, std::bit_or<>()) == bor);
    }

    // math: min/max/abs/copysign/floor/ceil/trunc/sqrt exact, the transcendental functions to a few ulps
    const V mn2 = sx::min(x, y), mx2 = sx::max(x, y), ab = sx::abs(x);
    for (std::size_t i = 0; i < W; ++i) {
      CHECK(mn2[i] == std::min(a[i], b[i]));
      CHECK(mx2[i] == std::max(a[i], b[i]));
      CHECK(ab[i] == T(std::abs(a[i])));
    }
    if constexpr (std::is_floating_point_v<T>) {
      const double ulps = 8 * std::numeric_limits<T>::epsilon();
      const V pos = sx::abs(x) + T(0.25);
      const V sq = sx::sqrt(pos), fl = sx::floor(x), ce = sx::ceil(x), tr = sx::trunc(x), ro = sx::round(x * T(4)),
              cs = sx::copysign(x, y), ex = sx::exp(x), lg = sx::log(pos), sn = sx::sin(x), cb = sx::cbrt(x),
              pw = sx::pow(pos, y), at = sx::atan2(x, y), hy = sx::hypot(x, y), fm = sx::fma(x, y, z), th = sx::tanh(x),
              er = sx::erf(x);
      for (std::size_t i = 0; i < W; ++i) {
        const T p = T(std::abs(a[i]) + T(0.25));
        CHECK(sq[i] == std::sqrt(p));
        CHECK(fl[i] == std::floor(a[i]));
        CHECK(ce[i] == std::ceil(a[i]));
        CHECK(tr[i] == std::trunc(a[i]));
        CHECK(ro[i] == std::nearbyint(T(a[i] * T(4))));
        CHECK(cs[i] == std::copysign(a[i], b[i]));
        CHECK(close(ex[i], std::exp(a[i]), ulps));
        CHECK(close(lg[i], std::log(p), ulps));
        CHECK(close(sn[i], std::sin(a[i]), ulps));
        CHECK(close(cb[i], std::cbrt(a[i]), ulps));
        CHECK(close(pw[i], std::pow(p, b[i]), ulps * 16));
        CHECK(close(at[i], std::atan2(a[i], b[i]), ulps));
        CHECK(close(hy[i], std::hypot(a[i], b[i]), ulps));
        CHECK(close(fm[i], T(a[i] * b[i] + c[i]), ulps * 4));
        CHECK(close(th[i], std::tanh(a[i]), ulps));
        CHECK(close(er[i], std::erf(a[i]), ulps));
      }
    } else {
      const auto sq = sx::sqrt(x * x);  // integer lanes compute in double
      static_assert(std::is_same_v<typename decltype(sq)::value_type, double>);
      for (std::size_t i = 0; i < W; ++i) CHECK(sq[i] == std::sqrt(double(a[i]) * double(a[i])));
    }
  }
  // where on plain values (code written for scalars and simd alike)
  T t = T(1);
  sx::where(true, t) = T(5);
  sx::where(false, t) = T(6);
  CHECK(t == T(5));
}

/// The scalar ABI and fixed_size from two lanes to more than an AVX-512 register holds.
template <class T>
void check_all_abis() {
  check_abi<T, sx::simd_abi::scalar>();
  if constexpr (sizeof(T) == 8) {
    check_abi<T, sx::simd_abi::fixed_size<2>>();
    check_abi<T, sx::simd_abi::fixed_size<4>>();
    check_abi<T, sx::simd_abi::fixed_size<16>>();
  } else {
    check_abi<T, sx::simd_abi::fixed_size<8>>();
    check_abi<T, sx::simd_abi::fixed_size<32>>();
  }
}

}  // namespace

TEST_CASE("simd: every operation lane by lane against the scalar operation, on every ABI") {
  SUBCASE("double") { check_all_abis<double>(); }
  SUBCASE("float") { check_all_abis<float>(); }
  SUBCASE("int32") { check_all_abis<std::int32_t>(); }
  SUBCASE("int64") { check_all_abis<std::int64_t>(); }
}

TEST_CASE("simd: the native ABIs") {
  // Host backends: the widest register the build targets (at least SSE2's 16 bytes on x86-64); GPUs: one lane.
  using HostV = sx::basic_simd<double, sx::simd_abi::for_space<weft::DefaultHostExecutionSpace, double>>;
#if defined(__x86_64__)
  CHECK(HostV::size() >= 2);
#endif
  CHECK(HostV::size() * sizeof(double) == std::max<std::size_t>(sx::simd_detail::host_register_bytes, 8));
  CHECK(sx::basic_simd<float, sx::simd_abi::for_space<weft::DefaultHostExecutionSpace, float>>::size() ==
        2 * HostV::size());
  if constexpr (!weft::DefaultExecutionSpace::impl_is_host_space) {
    CHECK(sx::native_simd<double>::size() == 1);
    CHECK(sx::simd<double, 8>::size() == 1);
  } else {
    CHECK(sx::native_simd<double>::size() == HostV::size());
    CHECK(sx::simd<double, 8>::size() == 8);
  }
  CHECK(std::is_same_v<sx::simd<double>, sx::native_simd<double>>);
  CHECK(std::is_same_v<sx::simd_mask<double>, sx::native_simd_mask<double>>);
}

namespace {

/// y(i) = a x(i) + y(i) over whole vectors and a masked tail; returns sum x(i) y(i) over the result.
template <class E>
void simd_kernels(std::int64_t n) {
  using V = sx::basic_simd<double, sx::simd_abi::for_space<E, double>>;
  using M = typename V::mask_type;
  constexpr std::int64_t W = V::size();
  CAPTURE(W);
  CAPTURE(n);
  const auto xs = random_values<double>(n, 11 + n), ys = random_values<double>(n, 12 + n);
  weft::View<double*, weft::HostSpace> hx("x", n), hy("y", n);
  for (std::int64_t i = 0; i < n; ++i) hx(i) = xs[i], hy(i) = ys[i];
  weft::View<double*, typename E::memory_space> x("x", n), y("y", n);
  weft::deep_copy(x, hx);
  weft::deep_copy(y, hy);
  const double a = 0.75;
  const std::int64_t chunks = (n + W - 1) / W;
  weft::parallel_for(
      "simd triad", weft::RangePolicy<E>(0, chunks), WEFT_LAMBDA(std::int64_t c) {
        const std::int64_t i0 = c * W;
        if (i0 + W <= n) {
          V vx(&x(i0), sx::simd_flag_default), vy(&y(i0), sx::simd_flag_default);
          vy = sx::fma(V(a), vx, vy);
          vy.copy_to(&y(i0), sx::simd_flag_default);
        } else {  // the tail: only lanes below n are read or written
          const M live([&](auto l) { return i0 + std::int64_t(l) < n; });
          V vx(0.0), vy(0.0);
          sx::where(live, vx).copy_from(&x(i0), sx::simd_flag_default);
          sx::where(live, vy).copy_from(&y(i0), sx::simd_flag_default);
          vy = V(a) * vx + vy;
          sx::where(live, vy).copy_to(&y(i0), sx::simd_flag_default);
        }
      });
  double dot = 0;
  weft::parallel_reduce(
      "simd dot", weft::RangePolicy<E>(0, chunks),
      WEFT_LAMBDA(std::int64_t c, double& acc) {
        const std::int64_t i0 = c * W;
        const M live([&](auto l) { return i0 + std::int64_t(l) < n; });
        V vx(0.0), vy(0.0);
        sx::where(live, vx).copy_from(&x(i0), sx::simd_flag_default);
        sx::where(live, vy).copy_from(&y(i0), sx::simd_flag_default);
        acc += sx::reduce(vx * vy);
      },
      dot);
  // A masked update: y = sqrt(y) where y > 1, else -y.
  weft::parallel_for(
      "simd where", weft::RangePolicy<E>(0, n / W), WEFT_LAMBDA(std::int64_t c) {
        V vy(&y(c * W), sx::simd_flag_default);
        const M big = vy > V(1.0);
        V r = -vy;
        sx::where(big, r) = sx::sqrt(vy);
        r.copy_to(&y(c * W), sx::simd_flag_default);
      });
  weft::deep_copy(hy, y);
  double want_dot = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double t = a * xs[i] + ys[i];
    want_dot += xs[i] * t;
    const double want = i < n / W * W ? (t > 1.0 ? std::sqrt(t) : -t) : t;
    if (!close(hy(i), want, 1e-14)) {
      CAPTURE(i);
      CHECK(hy(i) == doctest::Approx(want));
    }
  }
  CHECK(close(dot, want_dot, 1e-11));
}

}  // namespace

TEST_CASE_TEMPLATE("simd: kernels with the space's native ABI (triad with a masked tail, dot, masked update)", E,
                   WEFT_TEST_EXEC_SPACES) {
  for (std::int64_t n : {1, 7, 1000, 4099, 100003}) simd_kernels<E>(n);
}
