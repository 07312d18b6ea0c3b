// Containers on every enabled execution space: UniqueToken (live tokens unique under contention), DualView (the
// flags, syncs both ways, the both-modified error, resize/realloc, subviews) and ScatterView (sum/prod/min/max
// against serial references with seeded inputs, duplicated and atomic, reset, rank 2).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <weft/containers.hpp>

#include "test_common.hpp"

namespace {

template <class E, weft::UniqueTokenScope Scope>
void check_tokens_unique(const weft::UniqueToken<E, Scope>& token, int n) {
  weft::View<int*, E> held("held", token.size());
  weft::View<int*, E> bad("bad", 3);  // [0] a token seen held by another thread, [1] out of range, [2] acquisitions
  weft::parallel_for(
      "tokens", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        const int t = token.acquire();
        if (t < 0 || t >= token.size()) {
          weft::atomic_add(&bad(1), 1);
          return;
        }
        if (weft::atomic_exchange(&held(t), 1) != 0) weft::atomic_add(&bad(0), 1);
        // some work while the token is held, so that holders overlap
        double x = i;
        for (int k = 0; k < 200; ++k) x = x * 0.5 + 1.0;
        if (x < 0) weft::atomic_add(&bad(0), 1000);
        if (weft::atomic_exchange(&held(t), 0) != 1) weft::atomic_add(&bad(0), 1);
        token.release(t);
        weft::atomic_add(&bad(2), 1);
      });
  auto h = weft_test::on_host(bad);
  CHECK(h(0) == 0);
  CHECK(h(1) == 0);
  CHECK(h(2) == n);
}

TEST_CASE_TEMPLATE("UniqueToken: every live token is unique, on every scope and size", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 200000;
  weft::UniqueToken<E> instance;
  CHECK(instance.size() == E().concurrency());
  check_tokens_unique(instance, n);
  weft::UniqueToken<E, weft::UniqueTokenScope::Global> global;
  CHECK(global.size() >= 1);
  check_tokens_unique(global, n);
  // Fewer tokens than threads: threads wait for one, and still never share.
  weft::UniqueToken<E> few(2);
  CHECK(few.size() == 2);
  check_tokens_unique(few, n / 4);
  weft::UniqueToken<E> one(1);
  check_tokens_unique(one, 2000);
  // The RAII helper releases on scope exit.
  weft::View<int*, E> seen("seen", 1);
  weft::parallel_for(
      "acquire_unique_token", weft::RangePolicy<E>(0, 1000), WEFT_LAMBDA(int) {
        weft::AcquireUniqueToken<E> lock(one);
        weft::atomic_max(&seen(0), lock.value() + 1);
      });
  CHECK(weft_test::on_host(seen)(0) == 1);
  CHECK_THROWS_AS(weft::UniqueToken<E>(0), weft::Error);
}

/// Bitset's search against a bit-by-bit reference: in the hint's block, the first bit of the kind sought at or after
/// the offset going up (reverse: at or before it going down), around the block; none, the same offset in the next
/// (or previous) block, wrapping around the set.
weft::pair<bool, unsigned> bitset_find_reference(const std::vector<char>& bits, unsigned hint, unsigned direction,
                                                 bool want) {
  const unsigned n = static_cast<unsigned>(bits.size()), blocks = (n + 31) / 32;
  unsigned block = hint / 32;
  if (block >= blocks) block = 0;
  const unsigned offset = hint % 32;
  for (unsigned k = 0; k < 32; ++k) {
    const unsigned at = (direction & 1u) ? (offset + 32 - k) % 32 : (offset + k) % 32;
    const unsigned i = block * 32 + at;
    if (i < n && (bits[i] != 0) == want) return {true, i};
  }
  long long next = static_cast<long long>(block) + ((direction & 2u) ? -1 : 1);
  if (next < 0) next = blocks - 1;
  if (next >= blocks) next = 0;
  return {false, static_cast<unsigned>(next) * 32 + offset};
}

TEST_CASE_TEMPLATE("Bitset: kernels set, reset and test concurrently; count, set(), search near a hint, deep_copy", E,
                   WEFT_TEST_EXEC_SPACES) {
  using bitset = weft::Bitset<E>;
  for (unsigned n : {0u, 1u, 31u, 32u, 33u, 1000u, 100003u}) {
    const std::uint64_t seed = 0xb175e7 + n;
    INFO("size " << n << ", seed " << seed);
    bitset b(weft::view_alloc("bits"), n);
    CHECK(b.is_allocated());
    CHECK(b.size() == n);
    CHECK(b.count() == 0u);
    // a seeded pattern, each of its bits set by three work items: exactly one set() per bit reports the change
    const auto r = weft_test::random_values<double>(n, seed, 0.0, 1.0);
    std::vector<char> want(n);
    std::vector<unsigned> idx;
    for (unsigned i = 0; i < n; ++i)
      if ((want[i] = r[i] < 0.37)) idx.push_back(i);
    const unsigned m = static_cast<unsigned>(idx.size());
    weft::View<unsigned*, E> targets("targets", m);
    weft_test::upload(targets, idx);
    unsigned changed = 0;
    weft::parallel_reduce(
        weft::RangePolicy<E>(0, 3 * m), WEFT_LAMBDA(unsigned k, unsigned& c) { c += b.set(targets(k % m)) ? 1u : 0u; },
        changed);
    CHECK(changed == m);
    CHECK(b.count() == m);
    // out of range: no effect
    unsigned outside = 0;
    weft::parallel_reduce(
        weft::RangePolicy<E>(0, 1), WEFT_LAMBDA(int, unsigned& c) { c += b.set(n) + b.reset(n + 7) + b.test(n); },
        outside);
    CHECK(outside == 0u);
    // read back through a ConstBitset
    weft::ConstBitset<E> cb(b);
    CHECK(cb.count() == m);
    weft::View<int*, E> seen("seen", n);
    weft::parallel_for(
        weft::RangePolicy<E>(0, n), WEFT_LAMBDA(unsigned i) { seen(i) = cb.test(i) ? 1 : 0; });
    auto hs = weft_test::on_host(seen);
    int wrong = 0;
    for (unsigned i = 0; i < n; ++i) wrong += hs(i) != want[i];
    CHECK(wrong == 0);
    // the search, on every direction, from hints in every block (and past the end, which starts at block 0)
    const unsigned hints = n ? 2 * ((n + 31) / 32) + 5 : 3;
    std::vector<unsigned> hv(hints);
    std::mt19937 gen(static_cast<unsigned>(seed));
    for (auto& h : hv) h = gen() % (n + 64);
    weft::View<unsigned*, E> hint_view("hints", hints);
    weft_test::upload(hint_view, hv);
    weft::View<unsigned* [8][2], E> found("found", hints);
    weft::parallel_for(
        weft::RangePolicy<E>(0, hints), WEFT_LAMBDA(unsigned k) {
          for (unsigned d = 0; d < 4; ++d) {
            const auto s = b.find_any_set_near(hint_view(k), d);
            const auto u = b.find_any_unset_near(hint_view(k), d);
            found(k, d, 0) = s.first, found(k, d, 1) = s.second;
            found(k, 4 + d, 0) = u.first, found(k, 4 + d, 1) = u.second;
          }
        });
    auto hf = weft_test::on_host(found);
    int bad = 0;
    for (unsigned k = 0; k < hints && n > 0; ++k)
      for (unsigned d = 0; d < 4; ++d)
        for (int kind = 0; kind < 2; ++kind) {
          const auto ref = bitset_find_reference(want, hv[k], d, kind == 0);
          const unsigned col = kind * 4 + d;
          if ((hf(k, col, 0) != 0) != ref.first || hf(k, col, 1) != ref.second) {
            if (++bad < 5)
              MESSAGE("hint " << hv[k] << " direction " << d << (kind ? " unset" : " set") << ": got " << hf(k, col, 0)
                              << "," << hf(k, col, 1) << " want " << ref.first << "," << ref.second);
          }
        }
    CHECK(bad == 0);
    // deep_copy to a host bitset and back; set() and reset() of all bits
    weft::Bitset<weft::DefaultHostExecutionSpace> host(n);
    weft::deep_copy(host, b);
    CHECK(host.count() == m);
    b.set();
    CHECK(b.count() == n);
    b.reset();
    CHECK(b.count() == 0u);
    weft::deep_copy(b, host);
    CHECK(b.count() == m);
    // every bit reset concurrently: each reports the change once
    unsigned cleared = 0;
    weft::parallel_reduce(
        weft::RangePolicy<E>(0, 2 * n), WEFT_LAMBDA(unsigned k, unsigned& c) { c += b.reset(k % n) ? 1u : 0u; },
        cleared);
    CHECK(cleared == m);
    CHECK(b.count() == 0u);
  }
  // no allocation without a size; sizes must match to copy
  bitset none;
  CHECK_FALSE(none.is_allocated());
  CHECK(none.max_hint() == 0u);
  bitset a(10), c(11);
  CHECK_THROWS_WITH_AS(
      weft::deep_copy(a, c),
      doctest::Contains("the destination has 10 bits and the source 11; give bitsets of the same size"), weft::Error);
}

TEST_CASE_TEMPLATE("DualVector: std::vector's operations against std::vector, then read and filled in kernels", E,
                   WEFT_TEST_EXEC_SPACES) {
  using vec = weft::DualVector<long long, E>;
  std::mt19937_64 gen(0xd0a1);
  INFO("seed 0xd0a1");
  vec v(37, 5);
  std::vector<long long> ref(37, 5);
  CHECK(v.is_allocated());
  CHECK(v.span() >= v.size());
  // a seeded mix of push_back, insert (one, many, a range), pop_back and resize, mirrored on std::vector
  for (int step = 0; step < 400; ++step) {
    const int op = static_cast<int>(gen() % 6);
    const long long x = static_cast<long long>(gen() % 1000) - 500;
    const std::size_t at = ref.empty() ? 0 : gen() % (ref.size() + 1);
    if (op == 0) {
      v.push_back(x), ref.push_back(x);
    } else if (op == 1) {
      auto r = v.insert(v.begin() + at, x);
      ref.insert(ref.begin() + at, x);
      CHECK(r == v.begin() + at);
    } else if (op == 2) {
      const std::size_t c = gen() % 9;
      v.insert(v.begin() + at, c, x);
      ref.insert(ref.begin() + at, c, x);
    } else if (op == 3) {
      const std::vector<long long> more = {x, x + 1, x + 2};
      v.insert(v.begin() + at, more.begin(), more.end());
      ref.insert(ref.begin() + at, more.begin(), more.end());
    } else if (op == 4 && !ref.empty()) {
      v.pop_back(), ref.pop_back();
    } else if (op == 5) {
      const std::size_t n = ref.size() + gen() % 5;
      v.resize(n, x);  // assign: every element x, as Kokkos::vector's resize(n, value)
      ref.assign(n, x);
    }
    REQUIRE(v.size() == ref.size());
  }
  int bad = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) bad += v[i] != ref[i];
  CHECK(bad == 0);
  CHECK(std::equal(v.begin(), v.end(), ref.begin(), ref.end()));
  // the device side after a sync: a kernel's sum of the elements equals the host's
  v.sync_device();
  auto d = v.view_device();
  const std::size_t n = v.size();
  long long sum = 0;
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(std::size_t i, long long& a) { a += d(i); }, sum);
  CHECK(sum == std::accumulate(ref.begin(), ref.end(), 0LL));
  // assign with the device side current fills the device; a host sync then sees it
  v.assign(n + 3, 7);
  CHECK(v.need_sync_host());
  v.sync_host();
  CHECK(std::count(v.begin(), v.end(), 7LL) == static_cast<long>(n + 3));
  // sorted searches
  vec s;
  CHECK_FALSE(s.is_allocated());
  for (int i = 0; i < 50; ++i) s.push_back(3 * i);
  CHECK(s.is_sorted());
  CHECK(s.find(27) == s.begin() + 9);
  CHECK(s.find(28) == s.end());
  CHECK(s.lower_bound(0, 50, 28) == 10);
  // an empty vector takes an insert at begin()
  vec e;
  e.insert(e.begin(), 4, 9);
  CHECK(e.size() == 4);
  CHECK(e[3] == 9);
  CHECK_THROWS_WITH_AS(e.insert(s.begin(), 1),  // an iterator of another vector
                       doctest::Contains("the iterator is not in [begin(), end()]"), weft::Error);
}

TEST_CASE_TEMPLATE("OffsetView: Fortran-style indices, kernels, subviews, mirrors, copies, unmanaged, errors", E,
                   WEFT_TEST_EXEC_SPACES) {
  using ov2 = weft::OffsetView<double**, E>;
  ov2 a("a", {-3, 4}, {2, 6});  // a(-3:4, 2:6)
  CHECK(a.is_allocated());
  CHECK(a.label() == "a");
  CHECK(a.rank() == 2);
  CHECK(a.begin(0) == -3);
  CHECK(a.end(0) == 5);
  CHECK(a.begin(1) == 2);
  CHECK(a.end(1) == 7);
  CHECK(a.extent(0) == 8);
  CHECK(a.extent(1) == 5);
  // a kernel over the offset indices; the View underneath holds (i - begin, j - begin)
  weft::parallel_for(
      weft::MDRangePolicy<E, weft::Rank<2>>({a.begin(0), a.begin(1)}, {a.end(0), a.end(1)}),
      WEFT_LAMBDA(std::int64_t i, std::int64_t j) { a(i, j) = 100.0 * i + j; });
  auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), a);
  CHECK(h.begin(0) == -3);
  CHECK(h.begin(1) == 2);
  auto hv = weft_test::on_host(a.view());
  int bad = 0;
  for (std::int64_t i = -3; i <= 4; ++i)
    for (std::int64_t j = 2; j <= 6; ++j) bad += h(i, j) != 100.0 * i + j || hv(i + 3, j - 2) != 100.0 * i + j;
  CHECK(bad == 0);
  // subviews take offset indices: ALL keeps the begin, a range starts at 0, an index drops the dimension
  auto col = weft::subview(a, weft::ALL, 4);
  CHECK(col.rank() == 1);
  CHECK(col.begin(0) == -3);
  auto part = weft::subview(a, weft::make_pair(-1, 2), weft::ALL);
  CHECK(part.begin(0) == 0);
  CHECK(part.extent(0) == 3);
  CHECK(part.begin(1) == 2);
  auto hc = weft::create_mirror_view_and_copy(weft::HostSpace(), col);
  auto hp = weft::create_mirror_view_and_copy(weft::HostSpace(), part);
  for (std::int64_t i = -3; i <= 4; ++i) bad += hc(i) != 100.0 * i + 4;
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 2; j <= 6; ++j) bad += hp(i, j) != 100.0 * (i - 1) + j;
  auto one = weft::subview(a, -3, 6);
  CHECK(one.rank() == 0);
  CHECK(weft_test::on_host(one.view())() == -300.0 + 6);
  CHECK(bad == 0);
  // an OffsetView made inside a kernel over a View and its begins, as Kokkos's offsets tests do
  weft::View<int**, E> base("base", 10, 10);
  weft::parallel_for(
      weft::RangePolicy<E>(0, 10), WEFT_LAMBDA(int i) {
        for (int j = 0; j < 10; ++j) base(i, j) = 10 * i + j;
      });
  int errors = 0;
  weft::parallel_reduce(
      weft::RangePolicy<E>(-3, 4),
      WEFT_LAMBDA(int ii, int& e) {
        for (int jj = -3; jj <= 3; ++jj) {
          weft::OffsetView<int**, E> o(base, {ii, jj});
          e += o(3, 3) != 10 * (3 - ii) + (3 - jj);
        }
      },
      errors);
  CHECK(errors == 0);
  // copies with Views and values; equality with the View (begins aside) and with another OffsetView
  weft::View<double**, E> plain("plain", 8, 5);
  weft::deep_copy(plain, a);
  ov2 b("b", {-3, 4}, {2, 6});
  weft::deep_copy(b, 7.0);
  weft::deep_copy(b, plain);
  auto hb = weft::create_mirror_view_and_copy(weft::HostSpace(), b);
  for (std::int64_t i = -3; i <= 4; ++i)
    for (std::int64_t j = 2; j <= 6; ++j) bad += hb(i, j) != 100.0 * i + j;
  CHECK(bad == 0);
  ov2 from_view = plain;
  CHECK(from_view.begin(0) == 0);
  CHECK(from_view == plain);
  CHECK(plain == from_view);
  ov2 copy = a;
  CHECK(copy == a);
  CHECK_FALSE(ov2(a.view(), {0, 0}) == a);  // same View, other begins
  // unmanaged over a pointer: ends are one past the last
  double* p = plain.data();
  weft::OffsetView<double**, E> u(p, {-2, 1}, {6, 6});
  CHECK(u.extent(0) == 8);
  CHECK(u.extent(1) == 5);
  CHECK(u.view() == plain);
  CHECK_THROWS_WITH_AS((weft::OffsetView<double**, E>(p, {0}, {1, 1, 1})),
                       doctest::Contains("begins.size() (1) != Rank (2)"), weft::Error);
  CHECK_THROWS_WITH_AS((weft::OffsetView<double*, E>(p, {0}, {-1})),
                       doctest::Contains("(ends[0] (-1) - begins[0] (0)) must be non-negative"), weft::Error);
  CHECK_THROWS_WITH_AS((weft::OffsetView<double*, E>(p, {-1}, {INT64_MAX})), doctest::Contains("overflows"),
                       weft::Error);
  CHECK_THROWS_WITH_AS((ov2("bad", {3, 1}, {0, 0})), doctest::Contains("range 0 {3, 1} does not give a size"),
                       weft::Error);
  ov2 none;
  CHECK_FALSE(none.is_allocated());
}

TEST_CASE_TEMPLATE("DualView: flags, syncs both ways and the both-modified error", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  using DV = weft::DualView<double**, weft::LayoutLeft, M>;
  const std::uint64_t seed = 20261202;
  INFO("seed ", seed);
  const int n = 37, m = 5;
  const auto values = weft_test::random_values<double>(n * m, seed);
  DV dv("dual", n, m);
  CHECK(dv.extent(0) == n);
  CHECK(dv.extent(1) == m);
  CHECK(dv.label() == "dual");
  CHECK(!dv.need_sync_host());
  CHECK(!dv.need_sync_device());
  static_assert(std::is_same_v<std::decay_t<decltype(dv.template view<weft::HostSpace>())>, typename DV::t_host>);
  static_assert(
      std::is_same_v<std::decay_t<decltype(dv.template view<M>())>,
                     std::conditional_t<std::is_same_v<M, weft::HostSpace>, typename DV::t_host, typename DV::t_dev>>);
  CHECK(DV::impl_aliased == std::is_same_v<M, weft::HostSpace>);

  // host -> device
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) dv.h_view(i, j) = values[i * m + j];
  dv.modify_host();
  CHECK(dv.need_sync_device());
  CHECK(dv.template need_sync<M>() == true);
  dv.sync_device();
  CHECK(!dv.need_sync_device());
  auto d = dv.view_device();
  weft::parallel_for(
      "twice", weft::MDRangePolicy<E, weft::Rank<2>>({0, 0}, {n, m}),
      WEFT_LAMBDA(int i, int j) { d(i, j) = 2.0 * d(i, j) + j; });
  dv.template modify<M>();
  if (!DV::impl_aliased) CHECK(dv.h_view(3, 2) == values[3 * m + 2]);  // not yet copied back
  CHECK(dv.need_sync_host());
  dv.sync_host();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) REQUIRE(dv.h_view(i, j) == 2.0 * values[i * m + j] + j);

  // both sides modified: a sync in either direction would discard writes
  dv.modify_device();
  dv.modify_host();
  try {
    dv.sync_host();
    FAIL("sync_host after both sides were modified did not raise");
  } catch (const weft::Error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("\"dual\"") != std::string::npos);
    CHECK(msg.find("both the host and the device") != std::string::npos);
  }
  CHECK_THROWS_AS(dv.sync_device(), weft::Error);
  dv.clear_sync_state();
  CHECK(!dv.need_sync_host());
  CHECK(!dv.need_sync_device());

  // a sync on an instance, then fenced
  dv.h_view(0, 0) = -7.5;
  dv.modify_host();
  E exec;
  dv.sync_device(exec);
  exec.fence();
  double first = 0;
  weft::deep_copy(first, weft::subview(dv.d_view, 0, 0));
  CHECK(first == -7.5);

  // a subview shares the flags; copies of the DualView share them too
  auto col = weft::subview(dv, weft::ALL, 1);
  DV copy = dv;
  col.h_view(4) = 99.0;
  col.modify_host();
  CHECK(dv.need_sync_device());
  CHECK(copy.need_sync_device());
  copy.sync_device();
  CHECK(!col.need_sync_device());
  double moved = 0;
  weft::deep_copy(moved, weft::subview(dv.d_view, 4, 1));
  CHECK(moved == 99.0);

  // resize keeps what fits on both sides; realloc discards and clears the flags
  const double kept = dv.h_view(5, 3);
  dv.resize(n + 10, m - 1);
  CHECK(dv.extent(0) == n + 10);
  CHECK(dv.h_view(5, 3) == kept);
  double kept_dev = 0;
  weft::deep_copy(kept_dev, weft::subview(dv.d_view, 5, 3));
  CHECK(kept_dev == kept);
  dv.modify_host();
  dv.realloc(4, 4);
  CHECK(dv.extent(1) == 4);
  CHECK(!dv.need_sync_device());

  // adopting a device View copies its contents to the host side
  weft::View<double**, weft::LayoutLeft, M> src("src", 3, 2);
  weft::deep_copy(src, 1.25);
  DV adopted(src);
  CHECK(adopted.h_view(2, 1) == 1.25);
  // A default-constructed DualView has nothing to modify or sync: both do nothing (as Kokkos's).
  DV empty;
  empty.modify_host();
  empty.sync_device();
  CHECK(!empty.need_sync_device());
}

template <class E, class Dup, class Contrib>
void check_scatter_sum(const char* what) {
  INFO(what);
  using SV = weft::ScatterView<double*, weft::LayoutRight, E, weft::ScatterSum, Dup, Contrib>;
  const int bins = 1 << 10, n = 1 << 17;
  const std::uint64_t seed = 97;
  INFO("seed ", seed);
  std::mt19937_64 gen(seed);
  std::vector<int> bin(n);
  std::vector<double> weight(n);
  for (int i = 0; i < n; ++i) {
    bin[i] = static_cast<int>(gen() % bins);
    weight[i] = static_cast<double>(gen() % 16) - 4.0;  // integers: every order of the sums is exact
  }
  std::vector<double> expect(bins, 3.0);
  for (int i = 0; i < n; ++i) expect[bin[i]] += weight[i];
  weft::View<int*, E> b("bins", n);
  weft::View<double*, E> w("weights", n);
  weft_test::upload(b, bin);
  weft_test::upload(w, weight);
  weft::View<double*, E> hist("hist", bins);
  weft::deep_copy(hist, 3.0);  // contribute adds to what is there
  SV scatter(hist);
  // Copies per host thread; on a device, ScatterDuplicated contributes atomically to the View itself.
  CHECK(scatter.impl_copies() == (SV::impl_host_duplicated ? E().concurrency() : 1));
  for (int round = 0; round < 2; ++round) {
    weft::parallel_for(
        "histogram", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
          auto a = scatter.access();
          a(b(i)) += w(i);
        });
    weft::contribute(hist, scatter);
    scatter.reset();
    if (round == 0) {
      auto h = weft_test::on_host(hist);
      for (int k = 0; k < bins; ++k) REQUIRE(h(k) == expect[k]);
      for (int k = 0; k < bins; ++k) expect[k] += expect[k] - 3.0;
    }
  }
  auto h = weft_test::on_host(hist);
  for (int k = 0; k < bins; ++k) REQUIRE(h(k) == expect[k]);
}

TEST_CASE_TEMPLATE("ScatterView: a histogram of seeded contributions, duplicated and atomic", E,
                   WEFT_TEST_EXEC_SPACES) {
  using Default = weft::ScatterView<double*, weft::LayoutRight, E>;
  if constexpr (E::impl_is_host_space) {
    static_assert(Default::is_duplicated && !Default::is_atomic);
    check_scatter_sum<E, weft::ScatterDuplicated, weft::ScatterNonAtomic>("duplicated");
  } else {
    static_assert(!Default::is_duplicated && Default::is_atomic);
    // Kokkos's spelling for every space: on a device it is one View, contributed to atomically.
    using Dup = weft::ScatterView<double*, weft::LayoutRight, E, weft::ScatterSum, weft::ScatterDuplicated,
                                  weft::ScatterNonAtomic>;
    static_assert(
        Dup::impl_device_duplicated &&
        std::is_same_v<typename Dup::Access::value_reference, weft::ScatterValue<double, weft::ScatterSum, true>>);
    check_scatter_sum<E, weft::ScatterDuplicated, weft::ScatterNonAtomic>("duplicated on a device");
  }
  check_scatter_sum<E, weft::ScatterNonDuplicated, weft::ScatterAtomic>("atomic");
}

/// Adds i % 5 + 1 to bin (7 i) % bins for i < n through the ScatterView (scatter_round), or to e (expected).
template <class E>
void scatter_round(const weft::ScatterView<std::int64_t*, weft::LayoutRight, E>& scatter, int n, int bins) {
  weft::parallel_for(
      "counts", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        auto a = scatter.access();
        a((i * 7) % bins) += i % 5 + 1;
      });
}
std::vector<std::int64_t> expected(int n, int bins, std::vector<std::int64_t> e) {
  e.resize(bins, 0);
  for (int i = 0; i < n; ++i) e[(i * 7) % bins] += i % 5 + 1;
  return e;
}

TEST_CASE_TEMPLATE("ScatterView: resize keeps the values, realloc does not, reset_except", E, WEFT_TEST_EXEC_SPACES) {
  weft::View<std::int64_t*, E> counts("counts", 100);
  weft::ScatterView<std::int64_t*, weft::LayoutRight, E> scatter(counts);
  scatter_round(scatter, 5000, 100);
  weft::contribute(scatter.subview(), scatter);
  scatter.reset_except(scatter.subview());
  std::vector<std::int64_t> want = expected(5000, 100, {});
  // resize: the first 100 values stay, the new ones start at zero; the copies are made for 150 and reset
  scatter.resize(150);
  CHECK(scatter.extent(0) == 150);
  CHECK(counts.extent(0) == 100);  // the caller's handle keeps the old View, as with weft::resize
  scatter_round(scatter, 7000, 150);
  weft::contribute(scatter.subview(), scatter);
  scatter.reset();
  want = expected(7000, 150, want);
  auto h = weft_test::on_host(scatter.subview());
  for (int k = 0; k < 150; ++k) REQUIRE(h(k) == want[k]);
  // realloc: new extents, no values kept (the next round starts from a cleared View)
  scatter.realloc(40);
  weft::deep_copy(scatter.subview(), std::int64_t(0));
  scatter_round(scatter, 3000, 40);
  weft::contribute(scatter.subview(), scatter);
  h = weft_test::on_host(scatter.subview());
  want = expected(3000, 40, {});
  for (int k = 0; k < 40; ++k) REQUIRE(h(k) == want[k]);
}

TEST_CASE_TEMPLATE("ScatterView: prod, min and max, rank 2, and errors", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 30000, cells = 64;
  const std::uint64_t seed = 4242;
  INFO("seed ", seed);
  std::mt19937_64 gen(seed);
  std::vector<int> cell(n);
  std::vector<double> value(n);
  for (int i = 0; i < n; ++i) {
    cell[i] = static_cast<int>(gen() % cells);
    value[i] = std::uniform_real_distribution<double>(-100, 100)(gen);
  }
  weft::View<int*, E> c("cell", n);
  weft::View<double*, E> v("value", n);
  weft_test::upload(c, cell);
  weft_test::upload(v, value);

  weft::View<double*, E> lo("lo", cells), hi("hi", cells), prod("prod", cells);
  weft::deep_copy(lo, 1e300);
  weft::deep_copy(hi, -1e300);
  weft::deep_copy(prod, 1.0);
  auto slo = weft::create_scatter_view<weft::ScatterMin>(lo);
  auto shi = weft::create_scatter_view<weft::ScatterMax>(hi);
  auto sprod = weft::create_scatter_view<weft::ScatterProd>(prod);
  weft::parallel_for(
      "min_max_prod", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        slo.access()(c(i)).update(v(i));
        shi.access()(c(i)).update(v(i));
        if (i % 97 == 0) sprod.access()(c(i)) *= (i % 2 ? 2.0 : 0.5);  // powers of two: exact in any order
      });
  weft::contribute(lo, slo);
  weft::contribute(hi, shi);
  weft::contribute(prod, sprod);
  std::vector<double> elo(cells, 1e300), ehi(cells, -1e300), eprod(cells, 1.0);
  for (int i = 0; i < n; ++i) {
    elo[cell[i]] = std::min(elo[cell[i]], value[i]);
    ehi[cell[i]] = std::max(ehi[cell[i]], value[i]);
    if (i % 97 == 0) eprod[cell[i]] *= (i % 2 ? 2.0 : 0.5);
  }
  auto hlo = weft_test::on_host(lo);
  auto hhi = weft_test::on_host(hi);
  auto hprod = weft_test::on_host(prod);
  for (int k = 0; k < cells; ++k) {
    CHECK(hlo(k) == elo[k]);
    CHECK(hhi(k) == ehi[k]);
    CHECK(hprod(k) == eprod[k]);
  }

  // rank 2, LayoutLeft: each point adds 1 to its 3x3 neighbourhood (clipped at the edges)
  const int nx = 23, ny = 17;
  weft::View<std::int64_t**, weft::LayoutLeft, E> grid("grid", nx, ny);
  auto sgrid = weft::create_scatter_view(grid);
  weft::parallel_for(
      "stencil", weft::MDRangePolicy<E, weft::Rank<2>>({0, 0}, {nx, ny}), WEFT_LAMBDA(int i, int j) {
        auto a = sgrid.access();
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            if (i + di >= 0 && i + di < nx && j + dj >= 0 && j + dj < ny) a(i + di, j + dj) += 1;
      });
  weft::contribute(grid, sgrid);
  auto hg = weft_test::on_host(grid);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const int ex = 1 + (i > 0) + (i < nx - 1), ey = 1 + (j > 0) + (j < ny - 1);
      REQUIRE(hg(i, j) == ex * ey);
    }
  // into a View of another layout (the strided combine): the View's totals, and the reset copies add nothing
  sgrid.reset();
  weft::View<std::int64_t**, weft::LayoutRight, E> grid_right("grid_right", nx, ny);
  weft::contribute(grid_right, sgrid);
  auto hr = weft_test::on_host(grid_right);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const int ex = 1 + (i > 0) + (i < nx - 1), ey = 1 + (j > 0) + (j < ny - 1);
      REQUIRE(hr(i, j) == ex * ey);
    }

  weft::View<double*, E> wrong("wrong", cells + 1);
  try {
    weft::contribute(wrong, shi);
    FAIL("contribute into a View of another shape did not raise");
  } catch (const weft::Error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("\"wrong\"") != std::string::npos);
    CHECK(msg.find(std::to_string(cells + 1)) != std::string::npos);
  }
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("UnorderedMap: concurrent inserts with duplicates, a full map, rehash, erase, sets", E,
                   WEFT_TEST_EXEC_SPACES) {
  using Map = weft::UnorderedMap<std::int64_t, std::int64_t, E>;
  using AtomicAdd = typename weft::UnorderedMapInsertOpTypes<typename Map::value_view, std::uint32_t>::AtomicAdd;
  const int n = 1000000, distinct = n / 2;
  const std::uint64_t seed = 777;
  INFO("seed ", seed);
  std::mt19937_64 gen(seed);
  std::vector<std::int64_t> pool(distinct);
  for (auto& k : pool) k = static_cast<std::int64_t>(gen() >> 4);  // 60-bit keys (distinct with near certainty)
  std::vector<std::int64_t> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = pool[i < distinct ? i : gen() % distinct];  // every key at least once
  std::unordered_map<std::int64_t, std::int64_t> ref;
  for (int i = 0; i < n; ++i) ref[keys[i]] += i;

  weft::View<std::int64_t*, E> k("keys", n);
  weft_test::upload(k, keys);
  Map map(distinct);
  CHECK(map.capacity() >= static_cast<std::uint32_t>(distinct));
  weft::View<int*, E> outcome("outcome", 3);  // success, existing, failed
  weft::parallel_for(
      "insert", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        const auto r = map.insert(k(i), std::int64_t(i), AtomicAdd());
        weft::atomic_add(&outcome(r.success() ? 0 : r.existing() ? 1 : 2), 1);
      });
  auto ho = weft_test::on_host(outcome);
  CHECK(ho(0) == static_cast<int>(ref.size()));
  CHECK(ho(1) == n - static_cast<int>(ref.size()));
  CHECK(ho(2) == 0);
  CHECK(!map.failed_insert());
  CHECK(map.size() == ref.size());
  // every key found, with the sum of its inserts' values; keys never inserted are not found
  weft::View<std::int64_t*, E> found("found", distinct);
  weft::View<int*, E> missing("missing", 1);
  weft::View<std::int64_t*, E> absent("absent", 1000);
  std::vector<std::int64_t> absent_keys(1000);
  for (auto& a : absent_keys) a = -static_cast<std::int64_t>(gen() >> 8) - 1;  // negative: never in the pool
  weft_test::upload(absent, absent_keys);
  weft::parallel_for(
      "find", weft::RangePolicy<E>(0, distinct), WEFT_LAMBDA(int i) {
        const auto at = map.find(k(i));
        if (!map.valid_at(at) || map.key_at(at) != k(i)) {
          weft::atomic_add(&missing(0), 1);
          return;
        }
        found(i) = map.value_at(at);
        if (i < 1000 && map.exists(absent(i))) weft::atomic_add(&missing(0), 1000);
      });
  CHECK(weft_test::on_host(missing)(0) == 0);
  auto hf = weft_test::on_host(found);
  int wrong_values = 0;
  for (int i = 0; i < distinct; ++i) wrong_values += hf(i) != ref[keys[i]];
  CHECK(wrong_values == 0);

  // a full map: inserts beyond its capacity fail, say so, and lose nothing that was reported inserted
  Map small(100);
  const int more = static_cast<int>(small.capacity()) + 500;
  weft::View<int*, E> ok("ok", more);
  weft::parallel_for(
      "overfill", weft::RangePolicy<E>(0, more), WEFT_LAMBDA(int i) {
        const auto r = small.insert(k(i), std::int64_t(1));
        ok(i) = r.success() ? 1 : r.failed() ? 0 : -1;
      });
  CHECK(small.failed_insert());
  auto hok = weft_test::on_host(ok);
  int inserted = 0;
  for (int i = 0; i < more; ++i) {
    REQUIRE(hok(i) >= 0);
    inserted += hok(i);
  }
  CHECK(inserted == static_cast<int>(small.capacity()));
  CHECK(small.size() == small.capacity());
  // rehash keeps what is there; the failed keys then go in
  CHECK(small.rehash(static_cast<std::uint32_t>(more)));
  CHECK(!small.failed_insert());
  CHECK(small.size() == static_cast<std::uint32_t>(inserted));
  weft::parallel_for(
      "refill", weft::RangePolicy<E>(0, more), WEFT_LAMBDA(int i) {
        if (ok(i) == 0) ok(i) = small.insert(k(i), std::int64_t(1)).success() ? 2 : 3;
      });
  CHECK(small.size() == static_cast<std::uint32_t>(more));
  CHECK(!small.failed_insert());

  // erase every other key between begin_erase and end_erase
  small.begin_erase();
  CHECK(small.erasable());
  weft::parallel_for(
      "erase", weft::RangePolicy<E>(0, more), WEFT_LAMBDA(int i) {
        if (i % 2 == 0) small.erase(k(i));
      });
  small.end_erase();
  CHECK(small.size() == static_cast<std::uint32_t>(more / 2));
  weft::View<int*, E> wrong("wrong", 1);
  weft::parallel_for(
      "after_erase", weft::RangePolicy<E>(0, more), WEFT_LAMBDA(int i) {
        if (small.exists(k(i)) != (i % 2 == 1)) weft::atomic_add(&wrong(0), 1);
      });
  CHECK(weft_test::on_host(wrong)(0) == 0);
  small.clear();
  CHECK(small.size() == 0);

  // a set
  weft::UnorderedMap<std::int64_t, void, E> set(distinct);
  weft::parallel_for(
      "set_insert", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) { set.insert(k(i)); });
  CHECK(set.size() == ref.size());
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("complex: arithmetic and functions in kernels against std::complex, reductions, atomics", E,
                   WEFT_TEST_EXEC_SPACES) {
  using C = weft::complex<double>;
  const int n = 5000;
  const std::uint64_t seed = 31337;
  INFO("seed ", seed);
  const auto re = weft_test::random_values<double>(n, seed, -3.0, 3.0);
  const auto im = weft_test::random_values<double>(n, seed + 1, -3.0, 3.0);
  weft::View<double*, E> vr("re", n), vi("im", n);
  weft_test::upload(vr, re);
  weft_test::upload(vi, im);
  weft::View<C**, E> out("out", n, 9);
  weft::parallel_for(
      "complex_ops", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        const C z(vr(i), vi(i)), w(vi(i) + 0.5, -vr(i));
        out(i, 0) = z * w;
        out(i, 1) = z / w;
        out(i, 2) = weft::sqrt(z);
        out(i, 3) = weft::exp(z);
        out(i, 4) = weft::log(z);
        out(i, 5) = weft::pow(z, 2.5);
        out(i, 6) = C(weft::abs(z), weft::arg(z));
        out(i, 7) = weft::conj(z) + 2.0 * z - z / 4.0;
        out(i, 8) = weft::sin(z) * weft::cos(w);
      });
  auto h = weft_test::on_host(out);
  int bad = 0;
  auto close = [&](const C& got, std::complex<double> want) {
    const double err = std::abs(std::complex<double>(got) - want), scale = std::max(1.0, std::abs(want));
    if (err > 1e-12 * scale) ++bad;
  };
  std::complex<double> sum(0, 0);
  for (int i = 0; i < n; ++i) {
    const std::complex<double> z(re[i], im[i]), w(im[i] + 0.5, -re[i]);
    close(h(i, 0), z * w);
    close(h(i, 1), z / w);
    close(h(i, 2), std::sqrt(z));
    close(h(i, 3), std::exp(z));
    close(h(i, 4), std::log(z));
    close(h(i, 5), std::pow(z, 2.5));
    close(h(i, 6), {std::abs(z), std::arg(z)});
    close(h(i, 7), std::conj(z) + 2.0 * z - z / 4.0);
    close(h(i, 8), std::sin(z) * std::cos(w));
    sum += z;
  }
  CHECK(bad == 0);
  // a reduction and an atomic sum of the same values
  C total;
  weft::parallel_reduce(
      "complex_sum", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i, C& s) { s += C(vr(i), vi(i)); }, total);
  CHECK(std::abs(std::complex<double>(total) - sum) < 1e-9);
  weft::View<C*, E> acc("acc", 1);
  weft::parallel_for(
      "complex_atomic", weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) { weft::atomic_add(&acc(0), C(vr(i), vi(i))); });
  CHECK(std::abs(std::complex<double>(weft_test::on_host(acc)(0)) - sum) < 1e-9);
  // conversions and stream output
  const std::complex<double> s(1.5, -2.0);
  const C c = s;
  CHECK(c.real() == 1.5);
  CHECK(std::complex<double>(c) == s);
  std::ostringstream os;
  os << C(1, 2);
  CHECK(os.str() == "(1,2)");
  CHECK(weft::complex<float>(C(0.5, 0.25)).imag() == 0.25f);
  CHECK(C(3, 0) == 3.0);
}

TEST_CASE_TEMPLATE(
    "DynRankView: the rank from the extents, kernels at ranks 0 to 7, Views in and out, mirrors, "
    "deep_copy, resize, subdynrankview",
    E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  using DRV = weft::DynRankView<double, E>;
  // rank = the extents given, before the first unset one; the rest read as 1
  const std::size_t ext[7] = {3, 2, 4, 1, 2, 3, 2};
  for (unsigned r = 0; r <= 7; ++r) {
    std::size_t e[7];
    for (unsigned k = 0; k < 7; ++k) e[k] = k < r ? ext[k] : weft::dyn_rank_unset;
    DRV v("v", e[0], e[1], e[2], e[3], e[4], e[5], e[6]);
    CHECK(v.rank() == r);
    CHECK(weft::rank(v) == r);
    std::size_t size = 1;
    for (unsigned k = 0; k < 7; ++k) {
      CHECK(v.extent(k) == (k < r ? ext[k] : 1));
      if (k < r) size *= ext[k];
    }
    CHECK(v.size() == size);
    CHECK(v.label() == "v");
  }
  // a kernel writes a rank-3 DynRankView with as many indices as its rank; the host checks against the formula
  DRV a("a", 5, 4, 3);
  weft::parallel_for(
      "drv_fill", weft::MDRangePolicy<E, weft::Rank<3>>({0, 0, 0}, {5, 4, 3}),
      WEFT_LAMBDA(int i, int j, int k) { a(i, j, k) = 100.0 * i + 10.0 * j + k + 0.5; });
  auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), a);
  static_assert(std::is_same_v<typename decltype(h)::memory_space, weft::HostSpace>);
  CHECK(h.rank() == 3);
  int wrong = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) wrong += h(i, j, k) != 100.0 * i + 10.0 * j + k + 0.5;
  CHECK(wrong == 0);
  CHECK(h.access(4, 3, 2, 0, 0) == 432.5);  // access() takes extra zero indices
  // a rank-0 DynRankView is one element
  DRV s("s");
  weft::parallel_for(
      "drv_scalar", weft::RangePolicy<E>(0, 1), WEFT_LAMBDA(int) { s() = 7.25; });
  CHECK(weft_test::on_host(s.impl_view())(0, 0, 0, 0, 0, 0, 0) == 7.25);
  // a View becomes a DynRankView of its rank, sharing the elements (and the reference count)
  weft::View<double**, E> w("w", 6, 7);
  {
    DRV dw = w;
    CHECK(dw.rank() == 2);
    CHECK(dw.extent(0) == 6);
    CHECK(dw.extent(1) == 7);
    CHECK(dw.data() == w.data());
    CHECK(w.use_count() == 2);
    weft::parallel_for(
        "drv_from_view", weft::RangePolicy<E>(0, 6), WEFT_LAMBDA(int i) {
          for (int j = 0; j < 7; ++j) dw(i, j) = i * 7 + j;
        });
    weft::DynRankView<const double, E> cdw = dw;  // adding const
    CHECK(cdw.data() == dw.data());
  }
  CHECK(w.use_count() == 1);
  auto hw = weft_test::on_host(w);
  wrong = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j) wrong += hw(i, j) != i * 7 + j;
  CHECK(wrong == 0);
  // deep_copy: DynRankView <- View, View <- DynRankView, a scalar; ranks must agree
  DRV b("b", 6, 7);
  weft::deep_copy(b, w);
  weft::View<double**, E> back("back", 6, 7);
  weft::deep_copy(back, b);
  auto hb = weft_test::on_host(back);
  wrong = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j) wrong += hb(i, j) != i * 7 + j;
  CHECK(wrong == 0);
  DRV flat("flat", 42);
  CHECK_THROWS_WITH_AS(weft::deep_copy(flat, w), doctest::Contains("has rank 1 but its source \"w\" has rank 2"),
                       weft::Error);
  weft::deep_copy(flat, 2.5);
  auto hf = weft::create_mirror_view_and_copy(weft::HostSpace(), flat);
  CHECK(hf(41) == 2.5);
  // resize keeps the elements that fit and follows the new rank; realloc only reshapes
  weft::resize(b, 8, 7);
  CHECK(b.rank() == 2);
  CHECK(b.extent(0) == 8);
  auto hr = weft::create_mirror_view_and_copy(weft::HostSpace(), b);
  CHECK(hr(5, 6) == 41.0);
  CHECK(hr(7, 6) == 0.0);
  weft::realloc(b, 3, 2, 2);
  CHECK(b.rank() == 3);
  CHECK(b.size() == 12);
  // subdynrankview: indices drop dimensions, ranges keep them; views the same elements
  auto sub = weft::subdynrankview(a, weft::ALL, 2, std::pair<int, int>(1, 3));
  CHECK(sub.rank() == 2);
  CHECK(sub.extent(0) == 5);
  CHECK(sub.extent(1) == 2);
  auto hs = weft::create_mirror_view_and_copy(weft::HostSpace(), sub);
  wrong = 0;
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 2; ++k) wrong += hs(i, k) != 100.0 * i + 20.0 + (k + 1) + 0.5;
  CHECK(wrong == 0);
  CHECK_THROWS_WITH_AS(weft::subdynrankview(a, weft::ALL, 2), doctest::Contains("2 arguments for rank 3"), weft::Error);
  // arguments past the rank are ignored (Kokkos allows them): ALL or 0 on the extent-1 dimensions
  auto sub_plus = weft::subdynrankview(a, weft::ALL, 2, std::pair<int, int>(1, 3), weft::ALL, 0);
  CHECK(sub_plus.rank() == 2);
  CHECK(sub_plus.extent(1) == 2);
  CHECK(sub_plus.extent(2) == 1);
  auto hsp = weft::create_mirror_view_and_copy(weft::HostSpace(), sub_plus);
  CHECK(hsp(4, 1) == 100.0 * 4 + 20.0 + 2 + 0.5);
  CHECK(hsp(4, 1, 0) == hsp(4, 1));  // an index past the rank, 0, is allowed
  // a default-constructed one has extents 0, as Kokkos's
  DRV empty;
  CHECK(empty.rank() == 0);
  CHECK(empty.extent(0) == 0);
  CHECK(!empty.is_allocated());
  // a host DynRankView of any layout is its own host mirror view
  weft::DynRankView<double, weft::LayoutStride, weft::HostSpace> strided =
      weft::subdynrankview(h, 1, weft::ALL, weft::ALL);
  CHECK(weft::create_mirror_view(weft::HostSpace(), strided).data() == strided.data());
  // view_alloc keeps its own copy of the label it was given (a temporary string here)
  auto props = weft::view_alloc(weft::WithoutInitializing, a.label() + "_copy");
  DRV labelled(props, 2, 2);
  CHECK(labelled.label() == "a_copy");
  weft::View<double*, M> plain(props, 3);
  CHECK(plain.label() == "a_copy");
  // a mirror has the rank and extents, on the host
  auto m = weft::create_mirror(a);
  CHECK(m.rank() == 3);
  CHECK(m.extent(2) == 3);
  static_assert(weft::is_dyn_rank_view_v<decltype(m)>);
  static_assert(!weft::is_dyn_rank_view_v<weft::View<double*, M>>);
}

}  // namespace

TEST_CASE_TEMPLATE("DynamicView: chunks, growth keeps the elements, copies see resizes, deep_copy, errors", E,
                   WEFT_TEST_EXEC_SPACES) {
  using DV = weft::DynamicView<double*, E>;
  DV d("dyn", 1000, 20000);       // chunks of 1024, 20 of them
  CHECK_FALSE(d.is_allocated());  // no elements yet, as in Kokkos
  CHECK(d.chunk_size() == 1024);
  CHECK(d.chunk_max() == 20);
  CHECK(d.size() == 0);
  CHECK(d.label() == "dyn");
  CHECK_FALSE(DV().is_allocated());
  std::mt19937 gen(2024);
  const std::size_t n1 = 1500 + gen() % 3000, n2 = n1 + 5000 + gen() % 8000;
  d.resize_serial(n1);
  CHECK(d.is_allocated());
  CHECK(d.size() == n1);
  CHECK(d.extent(0) == n1);
  CHECK(d.allocation_extent() == ((n1 + 1023) / 1024) * 1024);
  // a kernel fills it from a seeded View; a reduction reads it back
  const auto vals = weft_test::random_values<double>(n2, 99);
  weft::View<double*, E> src("src", n2);
  {
    auto h = weft::create_mirror_view(src);
    for (std::size_t i = 0; i < n2; ++i) h(i) = vals[i];
    weft::deep_copy(src, h);
  }
  weft::parallel_for(
      "fill", weft::RangePolicy<E>(0, n1), WEFT_LAMBDA(int i) { d(i) = src(i); });
  double sum = 0, ref = 0;
  weft::parallel_reduce(
      "sum", weft::RangePolicy<E>(0, n1), WEFT_LAMBDA(int i, double& a) { a += d(i); }, sum);
  for (std::size_t i = 0; i < n1; ++i) ref += vals[i];
  CHECK(sum == doctest::Approx(ref).epsilon(1e-12));
  // a copy made before the resize sees it; the kept elements stay, the new ones are zero
  const DV copy = d;
  weft::DynamicView<const double*, E> ro = d;
  CHECK(d.use_count() == 3);
  d.resize_serial(n2);
  CHECK(copy.size() == n2);
  CHECK(ro.size() == n2);
  weft::View<double*, E> out("out", n2);
  weft::deep_copy(out, ro);
  auto ho = weft_test::on_host(out);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n2; ++i) bad += ho(i) != (i < n1 ? vals[i] : 0.0);
  CHECK(bad == 0);
  // deep_copy View -> DynamicView -> DynamicView of another chunk size -> host mirror
  weft::deep_copy(d, src);
  weft::DynamicView<double*, E> other("other", 300, n2);  // chunks of 512
  other.resize_serial(n2);
  weft::deep_copy(other, d);
  auto m = weft::create_mirror(other);
  static_assert(std::is_same_v<typename decltype(m)::memory_space, weft::HostSpace>);
  CHECK(m.size() == n2);
  weft::deep_copy(m, other);
  bad = 0;
  for (std::size_t i = 0; i < n2; ++i) bad += m(i) != vals[i];
  CHECK(bad == 0);
  // shrinking frees whole chunks and every copy sees the new size
  d.resize_serial(700);
  CHECK(copy.size() == 700);
  CHECK(d.allocation_extent() == 1024);
  d.resize_serial(0);
  CHECK(d.allocation_extent() == 0);
  CHECK_FALSE(d.is_allocated());
  // errors name the view, the sizes and what to do
  CHECK_THROWS_WITH_AS(
      d.resize_serial(20481),
      doctest::Contains("\"dyn\": resize_serial(20481) exceeds its 20480 elements (20 chunks of 1024)"), weft::Error);
  CHECK_THROWS_WITH_AS(d.resize_serial(-1), doctest::Contains("is negative"), weft::Error);
  // sizes near SIZE_MAX are refused, not wrapped to a few chunks (then size() ~1.8e19 and a crash on access)
  constexpr std::size_t huge = std::numeric_limits<std::size_t>::max();
  for (std::size_t n : {huge, huge - 1, huge - 1023})
    CHECK_THROWS_WITH_AS(d.resize_serial(n), doctest::Contains("exceeds its 20480 elements"), weft::Error);
  CHECK(d.size() == 0);
  CHECK_THROWS_WITH_AS((weft::DynamicView<double*, E>("huge", 1024, huge)),
                       doctest::Contains("more than 2^32-1; give a larger min_chunk_size"), weft::Error);
  // deep_copy copies the elements both sides hold, as Kokkos: a DynamicView of 700 into a View of n2 and back
  d.resize_serial(700);
  weft::View<double*, E> zeros("zeros", n2);
  weft::deep_copy(d, zeros);      // d's 700 elements set to 0
  weft::deep_copy(zeros, other);  // zeros = vals (n2 elements)
  weft::deep_copy(zeros, d);      // the first 700 back to 0
  auto hz = weft_test::on_host(zeros);
  bad = 0;
  for (std::size_t i = 0; i < n2; ++i) bad += hz(i) != (i < 700 ? 0.0 : vals[i]);
  CHECK(bad == 0);
}

/// Checks a block partitioning: offsets from 0 to the row count, in order, and no block of more than one row costs
/// more than twice its share plus the heaviest row (a row alone may cost anything).
template <class Host>
void check_blocks(const Host& h, std::size_t blocks, std::size_t c) {
  REQUIRE(h.row_block_offsets.extent(0) == blocks + 1);
  CHECK(h.row_block_offsets(0) == 0);
  CHECK(h.row_block_offsets(blocks) == h.numRows());
  const double total = double(h.row_map(h.numRows())) + double(c) * h.numRows();
  std::size_t heaviest = 0;
  for (std::size_t r = 0; r < h.numRows(); ++r)
    heaviest = std::max<std::size_t>(heaviest, h.row_map(r + 1) - h.row_map(r) + c);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t first = h.row_block_offsets(b), last = h.row_block_offsets(b + 1);
    REQUIRE(first <= last);
    double cost = 0;
    for (std::size_t r = first; r < last; ++r) cost += double(h.row_map(r + 1) - h.row_map(r) + c);
    CAPTURE(b);
    if (last - first > 1) CHECK(cost <= total / blocks + heaviest);
    // and a row heavier than two shares sits alone
    for (std::size_t r = first; r < last; ++r)
      if (double(h.row_map(r + 1) - h.row_map(r) + c) > 2 * total / blocks) CHECK(last - first == 1);
  }
}

TEST_CASE_TEMPLATE("StaticCrsGraph: built from rows, mirrored, rows read in kernels, blocks balanced", E,
                   WEFT_TEST_EXEC_SPACES) {
  using G = weft::StaticCrsGraph<int, E>;
  static_assert(std::is_same_v<typename G::row_map_type::value_type, const std::size_t> &&
                std::is_same_v<typename G::entries_type::memory_space, typename E::memory_space>);
  const std::uint64_t seed = 20261204;
  INFO("seed ", seed);
  std::mt19937_64 gen(seed);
  const int rows = 700;
  std::vector<std::vector<int>> input(rows);
  for (int r = 0; r < rows; ++r) {
    const int len = r == 350 ? 9000 : int(gen() % 40);  // one heavy row
    for (int k = 0; k < len; ++k) input[r].push_back(int(gen() % 100000));
  }
  G g;
  CHECK(!g.is_allocated());
  g = weft::create_staticcrsgraph<G>("graph", input);
  CHECK(g.is_allocated());
  CHECK(g.numRows() == std::size_t(rows));
  auto h = weft::create_mirror(g);
  static_assert(std::is_same_v<typename decltype(h)::entries_type::memory_space, weft::HostSpace>);
  std::size_t k = 0;
  int max_ref = 0;
  for (int r = 0; r < rows; ++r) {
    REQUIRE(h.row_map(r + 1) - h.row_map(r) == input[r].size());
    const auto row = h.rowConst(r);
    REQUIRE(row.length == int(input[r].size()));
    for (int j = 0; j < row.length; ++j, ++k) {
      CHECK(row(j) == input[r][j]);
      CHECK(row.colidx(j) == h.entries(k));
      max_ref = std::max(max_ref, input[r][j]);
    }
  }
  CHECK(weft::maximum_entry(g) == max_ref);
  // rowConst in a kernel of the graph's space: each row's sum against a serial sum
  weft::View<long*, E> sums("sums", rows);
  weft::parallel_for(
      weft::RangePolicy<E>(0, rows), WEFT_LAMBDA(int r) {
        const auto row = g.rowConst(r);
        long s = 0;
        for (int j = 0; j < row.length; ++j) s += row(j);
        sums(r) = s;
      });
  const auto hs = weft_test::on_host(sums);
  for (int r = 0; r < rows; ++r) {
    long s = 0;
    for (int v : input[r]) s += v;
    CHECK(hs(r) == s);
  }
  // a copy shares the Views; a graph over existing Views
  G same(g.entries, g.row_map);
  CHECK(same.entries.data() == g.entries.data());

  for (std::size_t blocks : {1u, 3u, 75u, 1000u}) {
    for (std::size_t c : {0u, 4u}) {
      CAPTURE(blocks);
      CAPTURE(c);
      g.create_block_partitioning(blocks, c);
      check_blocks(weft::create_mirror(g), blocks, c);
    }
  }
  CHECK_THROWS_WITH_AS(g.create_block_partitioning(0), doctest::Contains("num_blocks is 0"), weft::Error);
  // empty rows only: every row in block 0
  G empty = weft::create_staticcrsgraph<G>("empty", std::vector<int>(5, 0));
  empty.create_block_partitioning(4, 0);
  const auto he = weft::create_mirror(empty);
  CHECK(he.row_block_offsets(0) == 0);
  for (int b = 1; b <= 4; ++b) CHECK(he.row_block_offsets(b) == 5);
  CHECK(weft::maximum_entry(empty) == 0);
  CHECK_THROWS_WITH_AS(weft::create_staticcrsgraph<G>("neg", std::vector<int>{3, -1}),
                       doctest::Contains("row 1 has a negative length (-1)"), weft::Error);
  // a 16-bit size type counts 65535 entries: one more was wrapped into row_map silently
  using G16 = weft::StaticCrsGraph<int, E, void, void, std::uint16_t>;
  const G16 full = weft::create_staticcrsgraph<G16>("full16", std::vector<int>{40000, 25535});
  CHECK(weft::create_mirror(full).row_map(2) == 65535);
  CHECK_THROWS_WITH_AS(weft::create_staticcrsgraph<G16>("wide16", std::vector<int>{1, 40000, 30000}),
                       doctest::Contains("create_staticcrsgraph \"wide16\": rows 0 to 2 hold 70001 entries, more than "
                                         "its size_type counts (at most 65535); give the graph a wider SizeType"),
                       weft::Error);
  // a DynRankView whose resize throws keeps its rank and extents (it took the new rank first)
  weft::DynRankView<double, weft::HostSpace> drv("drv", 3, 4);
  CHECK_THROWS_AS(weft::resize(drv, std::size_t(1) << 40, std::size_t(1) << 40, 4), weft::Error);
  CHECK(drv.rank() == 2);
  CHECK(drv.extent(0) == 3);
  CHECK(drv.extent(1) == 4);
  CHECK(drv.size() == 12);

  // entries of an array type: three values per entry
  using G3 = weft::StaticCrsGraph<unsigned[3], E>;
  G3 g3 = weft::create_staticcrsgraph<G3>("three", std::vector<std::size_t>{2, 0, 4});
  CHECK(g3.entries.extent(0) == 6);
  CHECK(g3.entries.extent(1) == 3);
  CHECK(g3.numRows() == 3);
}

// A DynRankView of team scratch (Kokkos's DynRankView_TeamScratch): shmem_size sizes the request, the constructor in
// the kernel takes its rank from the extents given, and a TeamThreadMDRange fills and reads it back.
TEST_CASE_TEMPLATE("DynRankView on team scratch", E, WEFT_TEST_EXEC_SPACES) {
  using drv = weft::DynRankView<int, typename E::scratch_memory_space>;
  using member = typename weft::TeamPolicy<E>::member_type;
  const std::size_t n0 = 10, n1 = 4, n2 = 3;
  const std::size_t bytes = drv::shmem_size(n0, n1, n2);
  CHECK(bytes >= n0 * n1 * n2 * sizeof(int));
  weft::View<unsigned, E> errors("errors");
  weft::parallel_for(
      "drv_scratch", weft::TeamPolicy<E>(2, weft::AUTO).set_scratch_size(0, weft::PerTeam(bytes)),
      WEFT_LAMBDA(const member& m) {
        drv scr(m.team_scratch(0), n0, n1, n2);
        unsigned bad = 0;
        if (scr.rank() != 3 || scr.extent(0) != n0 || scr.extent(1) != n1 || scr.extent(2) != n2) bad |= 1u;
        weft::parallel_for(weft::TeamThreadMDRange(m, n0, n1, n2),
                           [&](auto i, auto j, auto k) { scr(i, j, k) = int(i * 100 + j * 10 + k); });
        m.team_barrier();
        weft::parallel_for(weft::TeamThreadMDRange(m, n0, n1, n2), [&](auto i, auto j, auto k) {
          if (scr(i, j, k) != int(i * 100 + j * 10 + k)) weft::atomic_or(&errors(), 2u);
        });
        if (bad) weft::atomic_or(&errors(), bad);
      });
  CHECK(weft_test::on_host(errors)() == 0u);
}
