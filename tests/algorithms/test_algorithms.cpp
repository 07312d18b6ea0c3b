// algorithms/: sort, sort_by_key, the std algorithms and random numbers on every enabled execution space, each
// against the std:: algorithm on seeded random inputs (sizes 0, 1, 2^k +- 1 and larger), and Philox against
// Random123's published known-answer vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <weft/algorithms.hpp>

#include "test_common.hpp"

namespace ex = weft::experimental;

namespace {
template <class E>
std::vector<std::size_t> sizes() {
  if constexpr (weft_test::is_host_space_v<E>)
    return {0, 1, 2, 1023, 1025, 65537, 1000003};
  else
    return {0, 1, 2, 1023, 1025, 65537};
}
template <class T>
std::vector<T> random_keys(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      x = static_cast<T>(std::uniform_real_distribution<double>(-1e3, 1e3)(g));
    else if constexpr (std::is_signed_v<T>)
      x = static_cast<T>(static_cast<std::int64_t>(g()) >> (64 - 8 * sizeof(T)));
    else
      x = static_cast<T>(g());
  }
  return v;
}
template <class V, class T>
V device_copy(const char* label, const std::vector<T>& h) {
  V v(label, h.size());
  weft_test::upload(v, h);
  return v;
}
template <class V>
auto host_vector(const V& v) {
  auto h = weft_test::on_host(v);
  std::vector<typename V::non_const_value_type> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}
/// The documented key order (IEEE total order of the bit patterns for floating point), for the reference sort.
template <class T>
bool key_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return weft::impl::RadixKey<T>::to(a) < weft::impl::RadixKey<T>::to(b);
  } else {
    return a < b;
  }
}
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
}  // namespace

struct NestedGreater {
  WEFT_INLINE_FUNCTION bool operator()(double a, double b) const { return a > b; }
};

/// Segments of every length from 0 to past a power of two, each sorted by a team (sort_team, sort_by_key_team) and by
/// one thread with its vector lanes (sort_thread, sort_by_key_thread), ascending and descending, against std::sort;
/// by-key sorts move each key's value (the value is the key's original index, so the pairs are checked too).
TEST_CASE_TEMPLATE("nested sorts: team and thread, by key, comparators, any length", E, WEFT_TEST_EXEC_SPACES) {
  std::vector<int> lengths = {0, 1, 2, 3, 5, 31, 32, 33, 64, 100, 257, 1000, 1025};
  std::vector<int> offsets(1, 0);
  for (int len : lengths) offsets.push_back(offsets.back() + len);
  const int total = offsets.back(), segs = static_cast<int>(lengths.size());
  const std::uint64_t seed = 0x5e57;
  INFO("seed " << seed);
  auto vals = weft_test::random_values<double>(total, seed, -50.0, 50.0);
  for (int i = 0; i < total; i += 7) vals[i] = std::round(vals[i]);  // duplicates
  weft::View<int*, E> off("offsets", segs + 1);
  weft_test::upload(off, offsets);
  using member = typename weft::TeamPolicy<E>::member_type;
  for (int mode = 0; mode < 8; ++mode) {
    const bool by_thread = mode & 1, descending = mode & 2, by_key = mode & 4;
    CAPTURE(by_thread);
    CAPTURE(descending);
    CAPTURE(by_key);
    weft::View<double*, E> keys("keys", total);
    weft::View<int*, E> idx("idx", total);
    weft_test::upload(keys, vals);
    std::vector<int> iota(total);
    std::iota(iota.begin(), iota.end(), 0);
    weft_test::upload(idx, iota);
    if (!by_thread) {
      weft::parallel_for(
          weft::TeamPolicy<E>(segs, weft::AUTO, 4), WEFT_LAMBDA(const member& t) {
            const int s = t.league_rank();
            auto k = weft::subview(keys, weft::pair<int, int>(off(s), off(s + 1)));
            auto v = weft::subview(idx, weft::pair<int, int>(off(s), off(s + 1)));
            if (by_key && descending)
              weft::sort_by_key_team(t, k, v, NestedGreater{});
            else if (by_key)
              weft::sort_by_key_team(t, k, v);
            else if (descending)
              weft::sort_team(t, k, NestedGreater{});
            else
              weft::sort_team(t, k);
          });
    } else {
      // teams of up to 4 threads: thread r of team l sorts segment ts * l + r
      const int ts = std::min(4, weft::TeamPolicy<E>(1, 1).team_size_max());
      weft::parallel_for(
          weft::TeamPolicy<E>((segs + ts - 1) / ts, ts, 4), WEFT_LAMBDA(const member& t) {
            const int s = t.league_rank() * t.team_size() + t.team_rank();
            if (s >= segs) return;
            auto k = weft::subview(keys, weft::pair<int, int>(off(s), off(s + 1)));
            auto v = weft::subview(idx, weft::pair<int, int>(off(s), off(s + 1)));
            if (by_key && descending)
              weft::sort_by_key_thread(t, k, v, NestedGreater{});
            else if (by_key)
              weft::sort_by_key_thread(t, k, v);
            else if (descending)
              weft::sort_thread(t, k, NestedGreater{});
            else
              weft::sort_thread(t, k);
          });
    }
    auto hk = weft_test::on_host(keys);
    auto hi = weft_test::on_host(idx);
    int bad = 0;
    for (int s = 0; s < segs; ++s) {
      std::vector<double> ref(vals.begin() + offsets[s], vals.begin() + offsets[s + 1]);
      if (descending)
        std::sort(ref.begin(), ref.end(), std::greater<>());
      else
        std::sort(ref.begin(), ref.end());
      std::vector<int> used(total, 0);
      for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
        bad += hk(i) != ref[i - offsets[s]];
        if (by_key) {  // the value travelled with its key: a permutation of the segment's indices
          const int from = hi(i);
          bad += from < offsets[s] || from >= offsets[s + 1] || vals[from] != hk(i) || used[from]++;
        } else {
          bad += hi(i) != i;
        }
      }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE_TEMPLATE("sort: arithmetic keys by radix, against std::stable_sort", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto run = [](auto zero, std::uint64_t seed) {
    using T = decltype(zero);
    for (std::size_t n : sizes<E>()) {
      INFO("n = ", n, ", type size ", sizeof(T));
      auto h = random_keys<T>(n, seed + n);
      if constexpr (std::is_floating_point_v<T>) {
        if (n > 8) {  // the special values, with duplicates
          h[1] = T(-0.0), h[2] = T(0.0), h[3] = std::numeric_limits<T>::quiet_NaN(),
          h[4] = -std::numeric_limits<T>::infinity();
          h[5] = std::numeric_limits<T>::infinity(), h[6] = -std::numeric_limits<T>::quiet_NaN(), h[7] = h[8];
        }
      }
      auto v = device_copy<weft::View<T*, M>>("keys", h);
      weft::sort(E(), v);
      std::stable_sort(h.begin(), h.end(), key_less<T>);
      const auto got = host_vector(v);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(same_bits(got[i], h[i]));
    }
  };
  run(std::uint32_t{}, 1);
  run(std::int64_t{}, 2);
  run(float{}, 3);
  run(double{}, 4);
  run(std::int16_t{}, 5);
}

TEST_CASE_TEMPLATE("sort of a DynamicView's range, across chunk boundaries, against std::sort", E,
                   WEFT_TEST_EXEC_SPACES) {
  const std::size_t n = 5000, b = 700, e = 4100;  // chunks of 1024: the range starts and ends inside chunks
  auto h = random_keys<std::uint32_t>(n, 31);
  auto v = device_copy<weft::View<std::uint32_t*, typename E::memory_space>>("keys", h);
  weft::DynamicView<std::uint32_t*, E> d("dyn keys", 1000, 2 * n);
  d.resize_serial(n);
  weft::deep_copy(d, v);
  weft::sort(E(), d, b, e);
  std::sort(h.begin() + b, h.begin() + e);
  weft::deep_copy(v, d);
  const auto got = host_vector(v);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += got[i] != h[i];
  CHECK(bad == 0);
  CHECK_THROWS_WITH_AS(weft::sort(E(), d, 10, n + 1), doctest::Contains("is not inside \"dyn keys\" (5000 elements)"),
                       weft::Error);
}

TEST_CASE("sort_by_key of 10^7 double keys with many duplicates on the default host space (the issue's size)") {
  using E = weft::DefaultHostExecutionSpace;
  const std::size_t n = 10000000;
  std::vector<double> k = random_keys<double>(n, 77);
  for (std::size_t i = 0; i < n; i += 3) k[i] = std::round(k[i]);  // about a third of them on 2001 values
  std::vector<std::uint32_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = static_cast<std::uint32_t>(i);
  auto keys = device_copy<weft::View<double*, weft::HostSpace>>("keys", k);
  auto vals = device_copy<weft::View<std::uint32_t*, weft::HostSpace>>("vals", idx);
  weft::sort_by_key(E(), keys, vals);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) { return key_less(k[a], k[b]); });
  std::size_t wrong = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    const bool ok = vals(i) == idx[i] && same_bits(keys(i), k[idx[i]]);  // stable: equal keys keep their order
    if (!ok && first == n) first = i;
    wrong += ok ? 0 : 1;
  }
  INFO("first wrong position ", first);
  CHECK(wrong == 0);
}

TEST_CASE_TEMPLATE("sort_by_key keeps equal keys' values in order; comparator sorts; strided Views", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(100003)}) {
    std::mt19937 g(7 + n);
    std::vector<int> keys(n);
    std::vector<long> vals(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<int>(g() % 97) - 48;  // many duplicates, negative too
      vals[i] = static_cast<long>(i);
    }
    auto k = device_copy<weft::View<int*, M>>("k", keys);
    auto v = device_copy<weft::View<long*, M>>("v", vals);
    weft::sort_by_key(E(), k, v);
    std::vector<std::pair<int, long>> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = {keys[i], vals[i]};
    std::stable_sort(ref.begin(), ref.end(), [](auto& a, auto& b) { return a.first < b.first; });
    const auto gk = host_vector(k);
    const auto gv = host_vector(v);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(gk[i] == ref[i].first);
      REQUIRE(gv[i] == ref[i].second);
    }
    // descending by comparator, on a strided subview (every other element of a 2-column View)
    auto hd = random_keys<double>(n, 99 + n);
    weft::View<double**, weft::LayoutRight, M> two("two", n, 2);
    {
      auto h2 = weft::create_mirror_view(two);
      for (std::size_t i = 0; i < n; ++i) h2(i, 0) = hd[i], h2(i, 1) = -1.0;
      weft::deep_copy(two, h2);
    }
    auto col = weft::subview(two, weft::ALL, 0);
    weft::sort(
        E(), col, WEFT_LAMBDA(double a, double b) { return a > b; });
    std::sort(hd.begin(), hd.end(), std::greater<double>());
    auto h2 = weft_test::on_host(two);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(h2(i, 0) == hd[i]);
      REQUIRE(h2(i, 1) == -1.0);
    }
  }
  weft::View<int*, M> a("a", 3), b("b", 4);
  CHECK_THROWS_WITH_AS(weft::sort_by_key(E(), a, b), doctest::Contains("\"a\" has 3 elements but \"b\" has 4"),
                       weft::Error);
}

namespace {
struct Particle {
  int cell;
  float x;
};
struct ByCell {
  WEFT_INLINE_FUNCTION bool operator()(const Particle& a, const Particle& b) const { return a.cell < b.cell; }
};
}  // namespace

TEST_CASE_TEMPLATE("comparator sorts on the execution space: structs, sort_by_key, stability, sizes around 32", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(33), std::size_t(1025), std::size_t(70001)}) {
    INFO("n = ", n);
    std::mt19937 g(40 + n);
    std::vector<Particle> ps(n);
    for (std::size_t i = 0; i < n; ++i) ps[i] = {static_cast<int>(g() % 53) - 26, static_cast<float>(i)};
    weft::View<Particle*, M> v("particles", n);
    {
      auto h = weft::create_mirror_view(v);
      for (std::size_t i = 0; i < n; ++i) h(i) = ps[i];
      weft::deep_copy(v, h);
    }
    weft::sort(E(), v, ByCell{});
    std::stable_sort(ps.begin(), ps.end(), [](const Particle& a, const Particle& b) { return a.cell < b.cell; });
    auto h = weft_test::on_host(v);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(h(i).cell == ps[i].cell);
      REQUIRE(h(i).x == ps[i].x);  // stable: equal cells keep their original order
    }
    // keys descending by a comparator, values follow stably
    std::vector<int> keys(n);
    std::vector<double> vals(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(g() % 17), vals[i] = 0.5 * i;
    auto k = device_copy<weft::View<int*, M>>("k", keys);
    auto vv = device_copy<weft::View<double*, M>>("vv", vals);
    weft::sort_by_key(
        E(), k, vv, WEFT_LAMBDA(int a, int b) { return a > b; });
    std::vector<std::pair<int, double>> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = {keys[i], vals[i]};
    std::stable_sort(ref.begin(), ref.end(), [](auto& a, auto& b) { return a.first > b.first; });
    const auto gk = host_vector(k);
    const auto gv = host_vector(vv);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(gk[i] == ref[i].first);
      REQUIRE(gv[i] == ref[i].second);
    }
  }
}

namespace {
/// A key of B bytes ordered by `major` only (so that stability shows), with `minor` recording the original order.
template <int B>
struct WideKey {
  int major, minor;
  char pad[B - 8];
};
struct ByMajor {
  template <class K>
  WEFT_INLINE_FUNCTION bool operator()(const K& a, const K& b) const {
    return a.major < b.major;
  }
};

template <class E, int B>
void check_wide_sort(std::size_t n) {
  using M = typename E::memory_space;
  INFO(B, "-byte keys, n = ", n);
  std::mt19937 g(97 + B + n);
  std::vector<WideKey<B>> ks(n);
  std::vector<long> vals(n);
  for (std::size_t i = 0; i < n; ++i) {
    ks[i] = WideKey<B>{static_cast<int>(g() % 1000) - 500, static_cast<int>(i), {}};
    ks[i].pad[B - 9] = static_cast<char>(i % 100);
    vals[i] = 3 * static_cast<long>(i) + 1;
  }
  weft::View<WideKey<B>*, M> k("wide", n);
  weft::View<long*, weft::LayoutStride, M> v(
      weft::subview(weft::View<long**, weft::LayoutRight, M>("vals2", n, 2), weft::ALL, 1));  // strided values
  {
    auto hk = weft::create_mirror_view(k);
    auto hv = weft::create_mirror_view(v);
    for (std::size_t i = 0; i < n; ++i) hk(i) = ks[i], hv(i) = vals[i];
    weft::deep_copy(k, hk);
    weft::deep_copy(v, hv);
  }
  weft::sort_by_key(E(), k, v, ByMajor{});
  std::vector<std::size_t> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = i;
  std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return ks[a].major < ks[b].major; });
  auto hk = weft_test::on_host(k);
  auto hv = weft_test::on_host(v);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    bad += hk(i).major != ks[ref[i]].major || hk(i).minor != int(ref[i]) ||
           hk(i).pad[B - 9] != static_cast<char>(ref[i] % 100) || hv(i) != vals[ref[i]];
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE_TEMPLATE("comparator sort_by_key on wide keys (8, 40, 128 bytes) and 3 * 10^5 keys, strided values", E,
                   WEFT_TEST_EXEC_SPACES) {
  for (std::size_t n : {std::size_t(2), std::size_t(1023), std::size_t(4097), std::size_t(300007)}) {
    check_wide_sort<E, 16>(n);
    check_wide_sort<E, 40>(n);
    check_wide_sort<E, 128>(n);  // too wide for the tiled device sort: the simple one
  }
}

TEST_CASE_TEMPLATE(
    "BinSort (Kokkos's interface): 1D and 3D bins, stable or sorted within bins, sub-ranges, values of rank 1-3", E,
    WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  using KV = weft::View<double*, M>;
  using Op = weft::BinOp1D<KV>;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(100003)}) {
    for (const bool within : {false, true}) {
      INFO("n = ", n, ", sort_within_bins = ", within);
      std::mt19937 g(5 + n);
      std::vector<double> x(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = (g() % 4001) * 0.0025;  // [0, 10] with repeats, both ends included
      if (n > 2) x[0] = 10.0, x[1] = 0.0;
      auto keys = device_copy<KV>("keys", x);
      const Op op(37, 0.0, 10.0);
      weft::BinSort<KV, Op> bs(E(), keys, op, within);
      bs.create_permute_vector(E());
      // reference: the same bin formula, then a stable sort of the indices by (bin[, key])
      const double mul = 37 / 10.0;
      std::vector<int> bin(n), count(38, 0);
      for (std::size_t i = 0; i < n; ++i) ++count[bin[i] = static_cast<int>(mul * (x[i] - 0.0))];
      std::vector<std::size_t> perm(n);
      for (std::size_t i = 0; i < n; ++i) perm[i] = i;
      std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
        return bin[a] != bin[b] ? bin[a] < bin[b] : within && x[a] < x[b];
      });
      CHECK(host_vector(bs.get_bin_count()) == count);
      const auto off = host_vector(bs.get_bin_offsets());
      std::size_t run = 0, bad = 0;
      for (int b = 0; b < 38; ++b) bad += off[b] != run, run += count[b];
      CHECK(bad == 0);
      const auto got = host_vector(bs.get_permute_vector());
      CHECK(got == perm);  // deterministic and stable
      // values of rank 1 and rank 2 (LayoutLeft) follow the permutation
      std::vector<double> v1(n);
      for (std::size_t i = 0; i < n; ++i) v1[i] = 2.0 * i + 0.5;
      auto vals = device_copy<KV>("vals", v1);
      bs.sort(E(), vals);
      const auto hv = host_vector(vals);
      weft::View<long**, weft::LayoutLeft, M> v2("v2", n, 3);
      {
        auto h = weft::create_mirror_view(v2);
        for (std::size_t i = 0; i < n; ++i)
          for (int d = 0; d < 3; ++d) h(i, d) = 10 * long(i) + d;
        weft::deep_copy(v2, h);
      }
      bs.sort(v2);
      auto h2 = weft_test::on_host(v2);
      bad = 0;
      for (std::size_t j = 0; j < n; ++j) {
        bad += hv[j] != 2.0 * perm[j] + 0.5;
        for (int d = 0; d < 3; ++d) bad += h2(j, d) != 10 * long(perm[j]) + d;
      }
      CHECK(bad == 0);
    }
  }
  // a sub-range of the keys, applied to a sub-range of a longer rank-3 View
  {
    const std::size_t n = 5000;
    std::vector<double> x(n);
    std::mt19937 g(77);
    for (auto& v : x) v = (g() % 1000) * 0.01;
    auto keys = device_copy<KV>("keys", x);
    const int kb = 100, ke = 4100, vb = 7;
    weft::BinSort<KV, Op> bs(keys, kb, ke, Op(10, 0.0, 10.0));
    bs.create_permute_vector();
    weft::View<int***, M> w("w", ke - kb + 20, 2, 2);
    weft::parallel_for(
        "w", weft::MDRangePolicy<E, weft::Rank<3>>({0L, 0L, 0L}, {long(w.extent(0)), 2L, 2L}),
        WEFT_LAMBDA(long i, long j, long k) { w(i, j, k) = int(1000 * i + 10 * j + k); });
    bs.sort(E(), w, vb, vb + (ke - kb));
    std::vector<std::size_t> perm(ke - kb);
    for (int i = kb; i < ke; ++i) perm[i - kb] = i;
    std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) { return int(x[a]) < int(x[b]); });
    auto hw = weft_test::on_host(w);
    std::size_t bad = 0;
    for (long i = 0; i < long(w.extent(0)); ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const bool moved = i >= vb && i < vb + (ke - kb);
          const long src = moved ? long(perm[i - vb]) - kb + vb : i;  // rows outside the range stay
          bad += hw(i, j, k) != int(1000 * src + 10 * j + k);
        }
    CHECK(bad == 0);
    bs.sort(weft::View<int*, M>("exact", 4000));  // [0, n) by default
    CHECK_THROWS_WITH_AS(bs.sort(weft::View<int*, M>("short", 3999)), doctest::Contains("must hold the 4000 keys"),
                         weft::Error);
  }
  // an empty values View needs no permutation: every sort form returns at once (Kokkos's BinSortEmptyView)
  {
    auto keys = device_copy<KV>("few_keys", std::vector<double>{1.0, 2.0});
    weft::BinSort<KV, Op> bs(E(), keys, Op(4, 0.0, 10.0));
    weft::View<int*, M> none("none", 0);
    bs.sort(E(), none, 0, 0);
    bs.sort(none, 0, 0);
    bs.sort(E(), none);
    bs.sort(none);
    CHECK(none.extent(0) == 0);
    CHECK_THROWS_WITH_AS(bs.sort(weft::View<int*, M>("two", 2)), doctest::Contains("create_permute_vector() first"),
                         weft::Error);
  }
  // keys outside the bins are reported, never written out of bounds
  {
    auto keys = device_copy<KV>("bad_keys", std::vector<double>{1.0, 11.0, -2.0, 3.0});
    weft::BinSort<KV, Op> bs(keys, Op(4, 0.0, 10.0));
    CHECK_THROWS_WITH_AS(bs.create_permute_vector(), doctest::Contains("2 of the 4 keys of \"bad_keys\" fall outside"),
                         weft::Error);
  }
  // BinOp3D: points in a box, bins numbered with the last axis fastest
  {
    using PV = weft::View<double**, M>;
    const std::size_t n = 20000;
    std::mt19937 g(31);
    PV pts("pts", n, 3);
    auto hp = weft::create_mirror_view(pts);
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) hp(i, d) = (g() % 1000) * 0.001 * (d + 1);  // [0, d + 1)
    weft::deep_copy(pts, hp);
    int nb[3] = {4, 5, 6};
    double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
    weft::BinSort<PV, weft::BinOp3D<PV>> bs(pts, weft::BinOp3D<PV>(nb, lo, hi), true);
    bs.create_permute_vector();
    std::vector<int> bin(n), count(4 * 5 * 6, 0);
    for (std::size_t i = 0; i < n; ++i) {
      int c[3];
      for (int d = 0; d < 3; ++d) c[d] = static_cast<int>(double(nb[d]) / (hi[d] - lo[d]) * (hp(i, d) - lo[d]));
      ++count[bin[i] = (c[0] * 5 + c[1]) * 6 + c[2]];
    }
    std::vector<std::size_t> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = i;
    auto less = [&](std::size_t a, std::size_t b) {
      if (bin[a] != bin[b]) return bin[a] < bin[b];
      for (int d = 0; d < 3; ++d)
        if (hp(a, d) != hp(b, d)) return hp(a, d) < hp(b, d);
      return false;
    };
    std::stable_sort(perm.begin(), perm.end(), less);
    CHECK(host_vector(bs.get_bin_count()) == count);
    CHECK(host_vector(bs.get_permute_vector()) == perm);
  }
}

TEST_CASE_TEMPLATE("scans, copy_if, remove_if, unique, against std::", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : sizes<E>()) {
    INFO("n = ", n);
    std::mt19937 g(11 + n);
    std::vector<long> h(n);
    for (auto& x : h) x = static_cast<long>(g() % 2001) - 1000;
    auto src = device_copy<weft::View<long*, M>>("src", h);
    weft::View<long*, M> dst("dst", n);
    std::vector<long> ref(n);

    ex::inclusive_scan(E(), src, dst);
    std::inclusive_scan(h.begin(), h.end(), ref.begin());
    REQUIRE(host_vector(dst) == ref);
    ex::exclusive_scan(E(), src, dst, 7L);
    std::exclusive_scan(h.begin(), h.end(), ref.begin(), 7L);
    REQUIRE(host_vector(dst) == ref);
    auto maxop = WEFT_LAMBDA(long a, long b) { return a > b ? a : b; };
    ex::inclusive_scan(E(), src, dst, maxop, -5L);
    std::inclusive_scan(
        h.begin(), h.end(), ref.begin(), [](long a, long b) { return std::max(a, b); }, -5L);
    REQUIRE(host_vector(dst) == ref);
    auto sq = WEFT_LAMBDA(long x) { return x * x; };
    ex::transform_exclusive_scan(E(), src, dst, 1L, ex::Plus{}, sq);
    std::transform_exclusive_scan(h.begin(), h.end(), ref.begin(), 1L, std::plus<>(), [](long x) { return x * x; });
    REQUIRE(host_vector(dst) == ref);
    ex::transform_inclusive_scan(E(), src, dst, ex::Plus{}, sq);
    std::transform_inclusive_scan(h.begin(), h.end(), ref.begin(), std::plus<>(), [](long x) { return x * x; });
    REQUIRE(host_vector(dst) == ref);
    ex::inclusive_scan(E(), dst, dst);  // in place
    std::inclusive_scan(ref.begin(), ref.end(), ref.begin());
    REQUIRE(host_vector(dst) == ref);

    auto even = WEFT_LAMBDA(long x) { return x % 2 == 0; };
    const std::size_t c = ex::copy_if(E(), src, dst, even);
    std::vector<long> sel;
    std::copy_if(h.begin(), h.end(), std::back_inserter(sel), [](long x) { return x % 2 == 0; });
    REQUIRE(c == sel.size());
    auto gd = host_vector(dst);
    gd.resize(c);
    REQUIRE(gd == sel);
    REQUIRE(ex::count_if(E(), src, even) == sel.size());

    auto work = device_copy<weft::View<long*, M>>("work", h);
    const std::size_t kept = ex::remove_if(E(), work, even);
    std::vector<long> rest = h;
    rest.erase(std::remove_if(rest.begin(), rest.end(), [](long x) { return x % 2 == 0; }), rest.end());
    REQUIRE(kept == rest.size());
    auto gw = host_vector(work);
    gw.resize(kept);
    REQUIRE(gw == rest);

    std::vector<long> runs(n);
    for (std::size_t i = 0; i < n; ++i) runs[i] = static_cast<long>(g() % 3);
    auto u = device_copy<weft::View<long*, M>>("u", runs);
    const std::size_t nu = ex::unique(E(), u);
    runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
    REQUIRE(nu == runs.size());
    auto gu = host_vector(u);
    gu.resize(nu);
    REQUIRE(gu == runs);
  }
  weft::View<int*, M> big("big", 10), small("small", 2);
  ex::fill(E(), big, 4);
  CHECK_THROWS_WITH_AS(ex::copy_if(
                           E(), big, small, WEFT_LAMBDA(int x) { return x == 4; }),
                       doctest::Contains("10 elements of \"big\" pass but dst \"small\" holds 2"), weft::Error);
}

TEST_CASE_TEMPLATE("elementwise algorithms, searches, histogram", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1025), std::size_t(65537)}) {
    INFO("n = ", n);
    std::mt19937 g(21 + n);
    std::vector<double> h(n);
    for (auto& x : h) x = std::uniform_real_distribution<double>(-10, 10)(g);
    if (n > 10) h[n / 2] = h[3];  // a tie for min/max if h[3] is extreme
    auto v = device_copy<weft::View<double*, M>>("v", h);
    REQUIRE(ex::min_element(E(), v) == static_cast<std::size_t>(std::min_element(h.begin(), h.end()) - h.begin()));
    REQUIRE(ex::max_element(E(), v) == static_cast<std::size_t>(std::max_element(h.begin(), h.end()) - h.begin()));
    auto big = WEFT_LAMBDA(double x) { return x > 9.0; };
    REQUIRE(ex::find_if(E(), v, big) ==
            static_cast<std::size_t>(std::find_if(h.begin(), h.end(), [](double x) { return x > 9.0; }) - h.begin()));
    REQUIRE(ex::any_of(E(), v, big) == std::any_of(h.begin(), h.end(), [](double x) { return x > 9.0; }));
    REQUIRE(ex::all_of(
        E(), v, WEFT_LAMBDA(double x) { return x < 10.0; }));
    REQUIRE(ex::none_of(
        E(), v, WEFT_LAMBDA(double x) { return x >= 10.0; }));

    weft::View<double*, M> w("w", n), d("d", n);
    ex::transform(
        E(), v, w, WEFT_LAMBDA(double x) { return 2.0 * x + 1.0; });
    ex::reverse(E(), w);
    ex::adjacent_difference(E(), v, d);
    const auto gw = host_vector(w);
    const auto gd = host_vector(d);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(gw[i] == 2.0 * h[n - 1 - i] + 1.0);
      REQUIRE(gd[i] == (i == 0 ? h[0] : h[i] - h[i - 1]));
    }
    ex::copy(E(), v, w);
    REQUIRE(ex::equal(E(), v, w));
    if (n) {
      ex::fill(E(), subview(w, std::pair<std::size_t, std::size_t>(n - 1, n)), 1e9);
      REQUIRE_FALSE(ex::equal(E(), v, w));
    }
    weft::View<long*, M> io("io", n);
    ex::iota(E(), io, 5L);
    const auto gi = host_vector(io);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(gi[i] == 5L + static_cast<long>(i));

    weft::View<long*, M> bins("bins", 7);
    ex::histogram(E(), v, bins, -10.0, 10.0);
    ex::histogram(E(), v, bins, -10.0, 10.0);  // accumulates
    std::vector<long> hb(7, 0);
    for (double x : h) {
      const double t = (x + 10.0) * (7.0 / 20.0);
      if (x >= -10.0 && x < 10.0) hb[std::min<std::size_t>(6, static_cast<std::size_t>(t))] += 2;
    }
    REQUIRE(host_vector(bins) == hb);
  }
}

TEST_CASE("Philox4x32-10 against Random123's known-answer vectors") {
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const auto& k : kats) {
    std::uint32_t c[4] = {k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]};
    weft::Philox4x32::apply(c, k.key);
    for (int i = 0; i < 4; ++i) CHECK(c[i] == k.out[i]);
  }
}

TEST_CASE_TEMPLATE("fill_random: the same bits on every backend, uniform by chi-square; the pool", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const std::size_t n = 1 << 20;
  weft::View<double*, M> u("u", n);
  weft::fill_random(E(), u, 20261129, -2.0, 3.0);
  const auto got = host_vector(u);
  int bins[100] = {};
  for (std::size_t i = 0; i < n; ++i) {
    const double want = std::fma(weft::random_uniform(20261129, i), 5.0, -2.0);  // computed here, on the host
    REQUIRE(same_bits(got[i], want));
    REQUIRE((got[i] >= -2.0 && got[i] < 3.0));
    ++bins[static_cast<int>((got[i] + 2.0) / 5.0 * 100)];
  }
  double chi2 = 0;
  const double expect = double(n) / 100;
  for (int b : bins) chi2 += (b - expect) * (b - expect) / expect;
  CHECK(chi2 < 148.2);  // 99 degrees of freedom: the 0.999 quantile
  weft::View<int*, M> dice("dice", 10000);
  weft::fill_random(E(), dice, 5, 1, 7);
  REQUIRE(ex::all_of(
      E(), dice, WEFT_LAMBDA(int x) { return x >= 1 && x < 7; }));

  // The pool: every generator draws from its own stream, numbers in range.
  weft::Random_XorShift64_Pool<E> pool(42);
  weft::View<double*, M> draws("draws", 4096);
  weft::parallel_for(
      "pool", weft::RangePolicy<E>(0, 4096), WEFT_LAMBDA(long i) {
        auto gen = pool.get_state();
        draws(i) = gen.drand(-1.0, 1.0);
        pool.free_state(gen);
      });
  auto hd = host_vector(draws);
  std::sort(hd.begin(), hd.end());
  CHECK(std::adjacent_find(hd.begin(), hd.end()) == hd.end());  // 4096 distinct values: distinct streams
  CHECK(hd.front() >= -1.0);
  CHECK(hd.back() < 1.0);
  CHECK_THROWS_WITH_AS(weft::fill_random(E(), u, 1, 3.0, 3.0), doctest::Contains("[3.000000, 3.000000) is empty"),
                       weft::Error);
}

TEST_CASE_TEMPLATE("partition, reduce_by_key, inclusive_scan_by_key against std::", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1025), std::size_t(65537)})
    for (int pattern : {0, 1, 2}) {
      INFO("n = ", n, " pattern ", pattern);
      std::mt19937 g(55 + n);
      std::vector<int> h(n), keys(n);
      for (auto& x : h) x = static_cast<int>(g() % 1000) - 500;
      int key = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (pattern == 0 && g() % 7 == 0) ++key;                        // runs of random length
        if (pattern == 2 && i >= n / 2) key = static_cast<int>(i / 3);  // one run over half the input, then short ones
        keys[i] = key;                                                  // pattern 1: a single run
      }
      auto v = device_copy<weft::View<int*, M>>("v", h);
      auto odd = WEFT_LAMBDA(int x) { return x % 2 != 0; };
      const std::size_t yes = ex::partition(E(), v, odd);
      std::vector<int> ref = h;
      const auto mid = std::stable_partition(ref.begin(), ref.end(), [](int x) { return x % 2 != 0; });
      REQUIRE(yes == static_cast<std::size_t>(mid - ref.begin()));
      REQUIRE(host_vector(v) == ref);

      auto k = device_copy<weft::View<int*, M>>("keys", keys);
      auto vals = device_copy<weft::View<int*, M>>("vals", h);
      weft::View<int*, M> ok("out_keys", n), ov("out_vals", n), scan("scan", n);
      const std::size_t runs = ex::reduce_by_key(E(), k, vals, ok, ov);
      std::vector<int> rk, rv;
      for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
          rk.push_back(keys[i]);
          rv.push_back(0);
        }
        rv.back() += h[i];
      }
      REQUIRE(runs == rk.size());
      auto gk = host_vector(ok);
      auto gv = host_vector(ov);
      gk.resize(runs);
      gv.resize(runs);
      REQUIRE(gk == rk);
      REQUIRE(gv == rv);
      ex::inclusive_scan_by_key(E(), k, vals, scan);
      std::vector<int> rs(n);
      for (std::size_t i = 0; i < n; ++i) rs[i] = h[i] + ((i > 0 && keys[i] == keys[i - 1]) ? rs[i - 1] : 0);
      REQUIRE(host_vector(scan) == rs);
    }
}

namespace {
/// Runs f twice, first with the vendor paths (CUB on weft::Cuda) and then with them off (the portable kernels);
/// off a CUDA build both runs take the portable path.
template <class F>
auto vendor_and_portable(F f) {
  struct Restore {
    bool was = ex::set_vendor_algorithms(true);
    ~Restore() { ex::set_vendor_algorithms(was); }
  } restore;
  auto fast = f();
  ex::set_vendor_algorithms(false);
  auto portable = f();
  return std::make_pair(fast, portable);
}
/// An 8-byte struct for copy_if's bit-pattern path (at namespace scope: nvcc's device lambdas take no local types).
struct Pair {
  float x;
  std::int32_t tag;
};
template <class T>
void check_close(const std::vector<T>& a, const std::vector<T>& b, double rel) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      INFO("i = ", i, ": ", a[i], " vs ", b[i]);
      REQUIRE(std::abs(double(a[i]) - double(b[i])) <= rel * (1.0 + std::abs(double(b[i]))));
    } else {
      INFO("i = ", i);
      REQUIRE(a[i] == b[i]);
    }
  }
}
}  // namespace

TEST_CASE_TEMPLATE("reduce and transform_reduce, every form, against serial sums in higher precision", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : sizes<E>()) {
    INFO("n = ", n);
    auto hi = random_keys<int>(n, 3 + n);
    for (auto& x : hi) x /= 4096;  // partial sums stay within int: signed overflow is undefined behaviour
    const auto hd = random_keys<double>(n, 5 + n);
    const auto hf = random_keys<float>(n, 7 + n);
    auto vi = device_copy<weft::View<int*, M>>("vi", hi);
    auto vd = device_copy<weft::View<double*, M>>("vd", hd);
    auto vf = device_copy<weft::View<float*, M>>("vf", hf);
    long si = 0;
    for (int x : hi) si += x;
    REQUIRE(ex::reduce(E(), vi, 0) == si);
    REQUIRE(ex::reduce(E(), vi) == si);
    long double sd = 0, sf = 0, dot = 0, sq = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sd += hd[i];
      sf += hf[i];
      dot += static_cast<long double>(hd[i]) * hd[i];
      sq += static_cast<long double>(hf[i]) * hf[i];
    }
    const double tol = 1e-12 * (1 + double(n)) * 1e3;
    CHECK(std::abs(ex::reduce(E(), vd, 1.5) - double(sd + 1.5L)) <= tol);
    CHECK(std::abs(ex::reduce(E(), vd, 1.5, std::plus<>()) - double(sd + 1.5L)) <= tol);
    CHECK(std::abs(double(ex::reduce(E(), vf, 0.0f, ex::Plus{})) - double(sf)) <= 1e-4 * (1 + double(n)) * 1e3);
    CHECK(std::abs(ex::transform_reduce(E(), vd, vd, 2.0) - double(dot + 2.0L)) <= tol * 1e3);
    CHECK(std::abs(ex::transform_reduce(E(), vd, vd, 0.0, ex::Plus{}, ex::Multiplies{}) - double(dot)) <= tol * 1e3);
    CHECK(std::abs(double(ex::transform_reduce(E(), vf, vf, 0.0f)) - double(sq)) <= 1e-3 * (1 + double(sq)));
    const double mn = n ? *std::min_element(hd.begin(), hd.end()) : 0.0;
    const double mx = n ? *std::max_element(hd.begin(), hd.end()) : 0.0;
    CHECK(ex::reduce(E(), vd, 1e300, ex::Minimum{}) == (n ? std::min(mn, 1e300) : 1e300));
    CHECK(ex::reduce(E(), vd, -1e300, ex::Maximum{}) == (n ? std::max(mx, -1e300) : -1e300));
    CHECK(ex::reduce(E(), vi, 0, ex::Maximum{}) == (n ? std::max(0, *std::max_element(hi.begin(), hi.end())) : 0));
    // a user's op (no vendor path): the largest |x|, and transform_reduce's one-View form
    auto absmax = WEFT_LAMBDA(double a, double b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b) ? b : a; };
    double ra = 0;
    for (double x : hd) ra = std::abs(ra) < std::abs(x) ? x : ra;
    CHECK(ex::reduce(E(), vd, 0.0, absmax) == ra);
    long sqi = 0;
    for (int x : hi) sqi += static_cast<long>(x % 100) * (x % 100);
    CHECK(ex::transform_reduce(
              E(), vi, 0L, ex::Plus{}, WEFT_LAMBDA(int x) { return static_cast<long>(x % 100) * (x % 100); }) == sqi);
  }
}

TEST_CASE_TEMPLATE("by-key scans, reduce_by_key and run_length_encode: every key and value type", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto run = [](auto key_tag, auto value_tag, std::size_t n, int pattern) {
    using K = decltype(key_tag);
    using T = decltype(value_tag);
    INFO("n = ", n, " pattern ", pattern, " key bytes ", sizeof(K), " value bytes ", sizeof(T));
    std::mt19937 g(77 + n + pattern);
    std::vector<K> keys(n);
    std::vector<T> vals(n);
    K key = K(1);
    for (std::size_t i = 0; i < n; ++i) {
      if (pattern == 0 && g() % 5 == 0) key = static_cast<K>(key + K(1));
      if (pattern == 2) key = static_cast<K>(g() % 3);  // short runs, keys recurring later
      keys[i] = key;
      vals[i] = static_cast<T>(static_cast<int>(g() % 200) - 100);
    }
    if constexpr (std::is_floating_point_v<K>) {
      if (n > 8) {  // -0.0 == +0.0 (one run), NaN != NaN (runs of one)
        keys[1] = K(-0.0);
        keys[2] = K(0.0);
        keys[5] = keys[6] = std::numeric_limits<K>::quiet_NaN();
      }
    }
    auto k = device_copy<weft::View<K*, M>>("keys", keys);
    auto v = device_copy<weft::View<T*, M>>("vals", vals);
    weft::View<K*, M> ok("out keys", n);
    weft::View<T*, M> ov("out sums", n), inc("inclusive", n), exc("exclusive", n);
    weft::View<std::int64_t*, M> counts("counts", n);
    weft::View<K*, M> ru("rle unique", n);
    const std::size_t runs = ex::reduce_by_key(E(), k, v, ok, ov);
    ex::inclusive_scan_by_key(E(), k, v, inc);
    ex::exclusive_scan_by_key(E(), k, v, exc, T(3));
    const std::size_t rle = ex::run_length_encode(E(), k, ru, counts);
    // serial reference: runs by ==
    std::vector<K> rk;
    std::vector<T> rs, ri(n), re(n);
    std::vector<std::int64_t> rc;
    for (std::size_t i = 0; i < n; ++i) {
      const bool start = i == 0 || !(keys[i] == keys[i - 1]);
      if (start) {
        rk.push_back(keys[i]);
        rs.push_back(T(0));
        rc.push_back(0);
      }
      re[i] = static_cast<T>(start ? T(3) : static_cast<T>(re[i - 1] + vals[i - 1]));
      rs.back() = static_cast<T>(rs.back() + vals[i]);
      ri[i] = rs.back();
      ++rc.back();
    }
    REQUIRE(runs == rk.size());
    REQUIRE(rle == rk.size());
    auto gk = host_vector(ok), gu = host_vector(ru);
    gk.resize(runs);
    gu.resize(runs);
    auto same_key = [](K a, K b) {
      if constexpr (std::is_floating_point_v<K>) return std::memcmp(&a, &b, sizeof a) == 0 || a == b;
      return a == b;
    };
    for (std::size_t j = 0; j < runs; ++j) {
      REQUIRE(same_key(gk[j], rk[j]));
      REQUIRE(same_key(gu[j], rk[j]));
    }
    auto gs = host_vector(ov);
    gs.resize(runs);
    check_close(gs, rs, 0);  // small integers: exact in every type
    check_close(host_vector(inc), ri, 0);
    check_close(host_vector(exc), re, 0);
    auto gc = host_vector(counts);
    gc.resize(runs);
    REQUIRE(gc == rc);
    // outputs sized to the runs work; one fewer raises before writing
    if (runs > 0) {
      weft::View<K*, M> ok2("exact keys", runs), ru2("exact unique", runs);
      weft::View<T*, M> ov2("exact sums", runs);
      weft::View<int*, M> c2("exact counts", runs);
      REQUIRE(ex::reduce_by_key(E(), k, v, ok2, ov2) == runs);
      REQUIRE(ex::run_length_encode(E(), k, ru2, c2) == runs);
      auto g2 = host_vector(c2);
      for (std::size_t j = 0; j < runs; ++j) REQUIRE(g2[j] == rc[j]);
      weft::View<K*, M> ok3("short keys", runs - 1);
      weft::View<T*, M> ov3("short sums", runs - 1);
      CHECK_THROWS_WITH_AS(ex::reduce_by_key(E(), k, v, ok3, ov3), doctest::Contains("give outputs as large"),
                           weft::Error);
      weft::View<int*, M> c3("short counts", runs - 1);
      CHECK_THROWS_WITH_AS(ex::run_length_encode(E(), k, ru2, c3), doctest::Contains("\"short counts\""), weft::Error);
    }
  };
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1025), std::size_t(65537)})
    for (int pattern : {0, 1, 2}) {
      run(std::int32_t{}, double{}, n, pattern);
      run(std::uint8_t{}, std::int64_t{}, n, pattern);
      run(double{}, float{}, n, pattern);
      run(float{}, std::uint32_t{}, n, pattern);
      run(std::int64_t{}, std::int32_t{}, n, pattern);
      run(std::int16_t{}, std::int16_t{}, n, pattern);  // no vendor instantiation: the portable path everywhere
    }
}

TEST_CASE_TEMPLATE("histogram of integers: exact bins (v - lo) * nb / (hi - lo); floating samples' top edge", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1025), std::size_t(65537)}) {
    INFO("n = ", n);
    std::mt19937_64 g(99 + n);
    std::vector<int> hi(n);
    std::vector<std::uint8_t> hu(n);
    std::vector<std::int64_t> hl(n);
    for (std::size_t i = 0; i < n; ++i) {
      hi[i] = static_cast<int>(g() % 40) - 15;  // some below lo, some at or above hi
      hu[i] = static_cast<std::uint8_t>(g());
      hl[i] = static_cast<std::int64_t>(g());
    }
    auto vi = device_copy<weft::View<int*, M>>("vi", hi);
    auto vu = device_copy<weft::View<std::uint8_t*, M>>("vu", hu);
    auto vl = device_copy<weft::View<std::int64_t*, M>>("vl", hl);
    weft::View<long*, M> b3("b3", 3);
    weft::View<int*, M> b7("b7", 7), b5("b5", 5);
    ex::histogram(E(), vi, b3, 0, 9);  // w = 3: 0-2, 3-5, 6-8 exactly
    ex::histogram(E(), vu, b7, 10, 250);
    ex::histogram(E(), vl, b5, std::numeric_limits<std::int64_t>::min() / 2, std::numeric_limits<std::int64_t>::max());
    std::vector<long> r3(3, 0);
    std::vector<int> r7(7, 0), r5(5, 0);
    for (int x : hi)
      if (x >= 0 && x < 9) ++r3[static_cast<std::size_t>(x / 3)];
    for (int x : hu)
      if (x >= 10 && x < 250) ++r7[static_cast<std::size_t>((x - 10) * 7 / 240)];
    const __int128 lo5 = std::numeric_limits<std::int64_t>::min() / 2, hi5 = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t x : hl)  // (hi - lo) * 5 > 2^64: the double formula
      if (x >= lo5 && x < hi5) {
        const double t = (double(x) - double(lo5)) * (5.0 / (double(hi5) - double(lo5)));
        ++r5[std::min<std::size_t>(4, static_cast<std::size_t>(t))];
      }
    REQUIRE(host_vector(b3) == r3);
    REQUIRE(host_vector(b7) == r7);
    REQUIRE(host_vector(b5) == r5);
  }
  // a double sample just below hi whose scaled value rounds to nb lands in the last bin, not past it
  weft::View<double*, M> edge("edge", 1);
  weft::View<long*, M> b("b", 10);
  weft_test::upload(edge, std::vector<double>{std::nextafter(1.0, 0.0)});
  ex::histogram(E(), edge, b, 0.0, 1.0);
  CHECK(host_vector(b)[9] == 1);
}

TEST_CASE_TEMPLATE("sort with std::less / std::greater on integer keys is the stable radix sort", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : sizes<E>()) {
    INFO("n = ", n);
    auto h = random_keys<std::int32_t>(n, 31 + n);
    for (auto& x : h) x %= 1000;  // duplicates: stability shows in the values
    std::vector<std::int32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    auto k = device_copy<weft::View<std::int32_t*, M>>("k", h);
    auto v = device_copy<weft::View<std::int32_t*, M>>("v", idx);
    weft::sort_by_key(E(), k, v, std::greater<>());
    std::vector<std::pair<std::int32_t, std::int32_t>> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = {h[i], idx[i]};
    std::stable_sort(ref.begin(), ref.end(), [](auto a, auto b) { return a.first > b.first; });
    const auto gk = host_vector(k), gv = host_vector(v);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(gk[i] == ref[i].first);
      REQUIRE(gv[i] == ref[i].second);
    }
    auto u = device_copy<weft::View<std::uint64_t*, M>>("u", random_keys<std::uint64_t>(n, 41 + n));
    auto hu = host_vector(u);
    weft::sort(E(), u, std::less<std::uint64_t>());
    std::sort(hu.begin(), hu.end());
    REQUIRE(host_vector(u) == hu);
    weft::sort(E(), u, std::greater<std::uint64_t>());
    std::reverse(hu.begin(), hu.end());
    REQUIRE(host_vector(u) == hu);
  }
}

TEST_CASE_TEMPLATE("the vendor paths (CUB on weft::Cuda) give the portable kernels' results", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const std::size_t n = 300007;
  std::mt19937 g(2026);
  std::vector<std::int64_t> hk(n);
  std::vector<double> hv(n);
  std::int64_t key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (g() % 4 == 0) key += 1 + g() % 3;
    hk[i] = key;
    hv[i] = std::uniform_real_distribution<double>(-1, 1)(g);
  }
  const auto keys = device_copy<weft::View<std::int64_t*, M>>("keys", hk);
  const auto vals = device_copy<weft::View<double*, M>>("vals", hv);
  auto [f1, p1] = vendor_and_portable([&] {
    weft::View<std::int64_t*, M> ok("ok", n);
    weft::View<double*, M> ov("ov", n);
    const std::size_t r = ex::reduce_by_key(E(), keys, vals, ok, ov);
    auto a = host_vector(ov);
    a.resize(r);
    return a;
  });
  check_close(f1, p1, 1e-12);
  auto [f2, p2] = vendor_and_portable([&] {
    weft::View<double*, M> out("out", n);
    ex::exclusive_scan_by_key(E(), keys, vals, out, 0.25);
    return host_vector(out);
  });
  check_close(f2, p2, 1e-12);
  auto [f3, p3] = vendor_and_portable([&] {
    auto w = device_copy<weft::View<std::int64_t*, M>>("w", hk);
    const std::size_t kept = ex::remove_if(
        E(), w, WEFT_LAMBDA(std::int64_t x) { return x % 3 == 0; });
    auto a = host_vector(w);
    a.resize(kept);
    const std::size_t u = ex::unique(E(), w);
    a.push_back(-1);
    auto b = host_vector(w);
    a.insert(a.end(), b.begin(), b.begin() + static_cast<std::ptrdiff_t>(u));
    return a;
  });
  REQUIRE(f3 == p3);
  auto [f4, p4] = vendor_and_portable([&] {  // an 8-byte struct is moved as its bits
    weft::View<Pair*, M> src("pairs", n), dst("selected", n);
    weft::parallel_for(
        "pairs", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(std::int64_t i) {
          src(i) = Pair{static_cast<float>(vals(i)), static_cast<std::int32_t>(i)};
        });
    const std::size_t c = ex::copy_if(
        E(), src, dst, WEFT_LAMBDA(const Pair& p) { return p.x > 0.5f; });
    auto a = host_vector(dst);
    std::vector<std::int64_t> tags;
    for (std::size_t i = 0; i < c; ++i) tags.push_back(a[i].tag);
    return tags;
  });
  REQUIRE(f4 == p4);
  REQUIRE(f4.size() > n / 5);
  auto [f5, p5] = vendor_and_portable([&] {
    weft::View<std::int32_t*, M> bins("bins", 1000);
    ex::histogram(E(), keys, bins, std::int64_t(0), key + 1);
    return host_vector(bins);
  });
  REQUIRE(f5 == p5);
  auto [f6, p6] = vendor_and_portable([&] {
    return std::vector<double>{ex::reduce(E(), vals, 0.0), ex::transform_reduce(E(), vals, vals, 0.0),
                               ex::reduce(E(), vals, 0.0, ex::Maximum{}),
                               static_cast<double>(ex::reduce(E(), keys, std::int64_t(0), ex::Minimum{}))};
  });
  check_close(f6, p6, 1e-12);
  auto [f7, p7] = vendor_and_portable([&] {
    auto s = device_copy<weft::View<std::int64_t*, M>>("s", hk);
    weft::sort(E(), s, std::greater<>());
    return host_vector(s);
  });
  REQUIRE(f7 == p7);
  auto [f8, p8] = vendor_and_portable([&] {  // floating keys: cub::DeviceMergeSort vs the tiled merge sort
    auto s = device_copy<weft::View<double*, M>>("s", hv);
    auto idx = device_copy<weft::View<std::int64_t*, M>>("idx", hk);
    weft::sort_by_key(E(), s, idx, std::greater<>());
    auto a = host_vector(idx);
    const auto b = host_vector(s);
    for (double x : b) a.push_back(static_cast<std::int64_t>(x * 1e6));
    return a;
  });
  REQUIRE(f8 == p8);
}

TEST_CASE_TEMPLATE("sort_by_key of floating keys with std::less / std::greater: stable, -0.0 and +0.0 keep their order",
                   E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  for (std::size_t n : {std::size_t(2), std::size_t(1025), std::size_t(65537)}) {
    INFO("n = ", n);
    std::mt19937 g(123 + n);
    std::vector<double> h(n);
    for (auto& x : h) {
      const int r = static_cast<int>(g() % 8);
      x = r == 0 ? -0.0 : r == 1 ? 0.0 : static_cast<double>(static_cast<int>(g() % 50) - 25) * 0.5;
    }
    std::vector<std::int32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    for (int desc = 0; desc < 2; ++desc) {
      auto k = device_copy<weft::View<double*, M>>("k", h);
      auto v = device_copy<weft::View<std::int32_t*, M>>("v", idx);
      std::vector<std::pair<double, std::int32_t>> ref(n);
      for (std::size_t i = 0; i < n; ++i) ref[i] = {h[i], idx[i]};
      if (desc) {
        weft::sort_by_key(E(), k, v, std::greater<double>());
        std::stable_sort(ref.begin(), ref.end(), [](auto a, auto b) { return a.first > b.first; });
      } else {
        weft::sort_by_key(E(), k, v, std::less<>());
        std::stable_sort(ref.begin(), ref.end(), [](auto a, auto b) { return a.first < b.first; });
      }
      const auto gk = host_vector(k);
      const auto gv = host_vector(v);
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(std::signbit(gk[i]) == std::signbit(ref[i].first));
        REQUIRE(gk[i] == ref[i].first);
        REQUIRE(gv[i] == ref[i].second);
      }
      auto f = device_copy<weft::View<float*, M>>("f", std::vector<float>(h.begin(), h.end()));
      weft::sort(E(), f, std::greater<>());
      auto gf = host_vector(f);
      REQUIRE(std::is_sorted(gf.begin(), gf.end(), std::greater<float>()));
    }
  }
}
