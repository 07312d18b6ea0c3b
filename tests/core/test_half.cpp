// weft::half_t and weft::bhalf_t: conversions against references built independently (the sorted list of
// every finite binary16 value; the two bfloat16 neighbours of a float), round trips of every bit pattern,
// and the same bits from a kernel on every enabled execution space.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <weft/weft.hpp>

#include "test_common.hpp"

namespace {
double half_value(std::uint16_t h) {  // binary16 decoded from its definition
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
/// The binary16 nearest to x (ties to the even significand), by search over every finite value.
std::uint16_t nearest_half(float x) {
  static const std::vector<std::pair<double, std::uint16_t>> finite = [] {
    std::vector<std::pair<double, std::uint16_t>> v;
    for (std::uint32_t h = 0; h < 0x7c00; ++h) v.emplace_back(half_value(std::uint16_t(h)), std::uint16_t(h));
    return v;
  }();
  const double a = std::fabs(double(x));
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (a >= 65520.0) return sign | 0x7c00;  // 65504 + half an ulp (16): rounds to infinity
  auto it = std::lower_bound(finite.begin(), finite.end(), std::make_pair(a, std::uint16_t(0)));
  if (it == finite.end()) return sign | 0x7bff;
  if (it->first == a || it == finite.begin()) return sign | it->second;
  const auto lo = *(it - 1), hi = *it;
  const double dl = a - lo.first, dh = hi.first - a;
  if (dl < dh) return sign | lo.second;
  if (dh < dl) return sign | hi.second;
  return sign | ((lo.second & 1) ? hi.second : lo.second);
}
std::uint16_t nearest_bhalf(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  const std::uint32_t down = u & 0xffff0000u, up = down + 0x10000u;
  float fd, fu;
  std::memcpy(&fd, &down, 4);
  std::memcpy(&fu, &up, 4);
  const double dd = std::fabs(double(x) - double(fd)), du = std::fabs(double(fu) - double(x));
  if (dd < du) return std::uint16_t(down >> 16);
  if (du < dd) return std::uint16_t(up >> 16);
  return std::uint16_t(((down >> 16) & 1) ? up >> 16 : down >> 16);
}
/// Seeded floats over the whole exponent range (both signs), plus the edge cases.
std::vector<float> test_floats() {
  std::mt19937 gen(2026);
  std::vector<float> v;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t bits = gen();
    float f;
    std::memcpy(&f, &bits, 4);
    if (!std::isnan(f)) v.push_back(f);
    v.push_back(std::ldexp(float(gen() % 4096) / 4096.0f + 1.0f, int(gen() % 50) - 30) * ((gen() & 1) ? 1 : -1));
  }
  for (float f :
       {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, 2.98023224e-8f, 2.98023259e-8f, 5.96e-8f, 6.1035156e-5f,
        6.1028e-5f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
        std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min()})
    v.push_back(f);
  return v;
}
}  // namespace

TEST_CASE("half_t and bhalf_t: every bit pattern round-trips, float rounds to nearest even") {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = float(weft::half_t::from_bits(std::uint16_t(h)));
    const bool nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff);
    INFO("half bits ", h);
    if (nan) {
      REQUIRE(std::isnan(f));
      REQUIRE(std::isnan(float(weft::half_t(f))));
    } else {
      REQUIRE(double(f) == (((h >> 10) & 0x1f) == 0x1f ? ((h & 0x8000) ? -INFINITY : INFINITY) : half_value(h)));
      REQUIRE(weft::half_t(f).bits() == h);
    }
    const float g = float(weft::bhalf_t::from_bits(std::uint16_t(h)));
    if (!std::isnan(g)) REQUIRE(weft::bhalf_t(g).bits() == h);
  }
  for (float f : test_floats()) {
    INFO("float ", f);
    REQUIRE(weft::half_t(f).bits() == nearest_half(f));
    if (std::isfinite(f) && std::fabs(f) < 3.38e38f) REQUIRE(weft::bhalf_t(f).bits() == nearest_bhalf(f));
  }
  CHECK(std::isnan(float(weft::bhalf_t(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(float(weft::half_t(1.0f) + weft::half_t(2.0f)) == 3.0f);
  weft::half_t x(1.5f);
  x *= 2.0f;
  CHECK(float(x) == 3.0f);
}

TEST_CASE_TEMPLATE("half_t and bhalf_t conversions give the host's bits on every execution space", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const std::vector<float> in = test_floats();
  const auto n = static_cast<std::int64_t>(in.size());
  weft::View<float*, M> f("f", n);
  weft::View<weft::half_t*, M> h("h", n);
  weft::View<weft::bhalf_t*, M> b("b", n);
  weft::View<float*, M> back("back", n);
  weft_test::upload(f, in);
  weft::parallel_for(
      "convert", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(std::int64_t i) {
        h(i) = weft::half_t(f(i));
        b(i) = weft::bhalf_t(f(i));
        back(i) = float(h(i)) + float(b(i));
      });
  auto hh = weft_test::on_host(h);
  auto hb = weft_test::on_host(b);
  auto hback = weft_test::on_host(back);
  for (std::int64_t i = 0; i < n; ++i) {
    INFO("float ", in[i]);
    REQUIRE(hh(i).bits() == weft::half_t(in[i]).bits());
    REQUIRE(hb(i).bits() == weft::bhalf_t(in[i]).bits());
    const float want = float(weft::half_t(in[i])) + float(weft::bhalf_t(in[i]));
    REQUIRE((std::memcmp(&hback(i), &want, 4) == 0 || (std::isnan(hback(i)) && std::isnan(want))));
  }
}
