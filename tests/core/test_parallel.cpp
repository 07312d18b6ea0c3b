// parallel_for over RangePolicy and MDRangePolicy (schedules, chunks, tags, index types) and
// parallel_scan (inclusive/exclusive use, totals, functors), checked against serial loops.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <weft/profiling.hpp>

#include "test_common.hpp"

namespace {

struct TagA {};
struct TagB {};

template <class E>
struct TaggedFunctor {
  weft::View<int*, E> out;
  WEFT_INLINE_FUNCTION void operator()(TagA, int i) const { out(i) = 1; }
  WEFT_INLINE_FUNCTION void operator()(TagB, int i) const { out(i) += 10; }
};

TEST_CASE_TEMPLATE("RangePolicy covers exactly [begin, end) under every schedule", E, WEFT_TEST_EXEC_SPACES) {
  for (const std::int64_t n : {0, 1, 2, 3, 7, 1000, 100003}) {
    for (const std::int64_t begin : {std::int64_t(0), std::int64_t(5)}) {
      INFO("n = " << n << ", begin = " << begin);
      weft::View<int*, E> hits("hits", n + begin);
      weft::parallel_for(
          "static", weft::RangePolicy<E>(begin, begin + n), WEFT_LAMBDA(std::int64_t i) { hits(i) += 1; });
      weft::parallel_for(
          "chunked", weft::RangePolicy<E>(begin, begin + n, weft::ChunkSize(7)),
          WEFT_LAMBDA(std::int64_t i) { hits(i) += 2; });
      weft::parallel_for(
          "dynamic", weft::RangePolicy<E, weft::Schedule<weft::Dynamic>>(begin, begin + n),
          WEFT_LAMBDA(std::int64_t i) { hits(i) += 4; });
      weft::parallel_for(
          "dynamic_chunk", weft::RangePolicy<E, weft::Schedule<weft::Dynamic>>(begin, begin + n, weft::ChunkSize(3)),
          WEFT_LAMBDA(std::int64_t i) { hits(i) += 8; });
      auto h = weft_test::on_host(hits);
      int wrong = 0;
      for (std::int64_t i = 0; i < n + begin; ++i) wrong += h(i) != (i < begin ? 0 : 15);
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE_TEMPLATE("static chunks cover [begin, end) once for signed and unsigned indices, near the ends", E,
                   WEFT_TEST_EXEC_SPACES) {
  // The host engine runs both static schedules through one loop (chunk <= 0: one contiguous share per thread):
  // chunks that end exactly at `end`, pass it, are larger than the range, and unsigned indices whose chunks start
  // past `end` (no wrap-around).
  for (const int chunk : {1, 3, 64}) {
    for (const unsigned n : {0u, 1u, 5u, 63u, 64u, 65u, 129u, 1000u}) {
      INFO("chunk = " << chunk << ", n = " << n);
      weft::View<int*, E> hits("hits", n + 2);
      weft::parallel_for(
          "chunked_unsigned", weft::RangePolicy<E, weft::IndexType<unsigned>>(2u, n + 2u, weft::ChunkSize(chunk)),
          WEFT_LAMBDA(unsigned i) { hits(i) += 1; });
      weft::parallel_for(
          "chunked_int", weft::RangePolicy<E, weft::IndexType<int>>(2, int(n) + 2, weft::ChunkSize(chunk)),
          WEFT_LAMBDA(int i) { hits(i) += 2; });
      auto h = weft_test::on_host(hits);
      int wrong = 0;
      for (unsigned i = 0; i < n + 2; ++i) wrong += h(i) != (i < 2 ? 0 : 3);
      CHECK(wrong == 0);
    }
  }
}

// A host-only functor (a plain operator(), as Kokkos programs on host spaces write them) of a given size: the host
// engine copies a static RangePolicy's functor of up to 112 bytes next to the range for its threads, and reads a
// larger one where the caller keeps it. Either way the result is the same and the Views' counts do not move.
template <class E, std::size_t Pad>
struct PaddedFunctor {
  weft::View<std::int64_t*, E> out;
  weft::View<int*, E> counts;
  char pad[Pad];
  void operator()(std::int64_t i) const {
    out(i) += i + pad[0] + pad[Pad - 1];
    counts(i) = out.use_count();  // copies made for the dispatch do not count
  }
};

template <class E, std::size_t Pad>
void check_padded(std::int64_t begin, std::int64_t n) {
  weft::View<std::int64_t*, E> out("out", begin + n);
  weft::View<int*, E> counts("counts", begin + n);
  PaddedFunctor<E, Pad> f{out, counts, {}};
  f.pad[0] = 3;
  f.pad[Pad - 1] = 4;
  const int held = out.use_count();  // out and f.out
  weft::parallel_for("padded", weft::RangePolicy<E>(begin, begin + n), f);
  weft::parallel_for("padded (again)", weft::RangePolicy<E>(begin, begin + n), f);
  CHECK(out.use_count() == held);
  auto h = weft_test::on_host(out);
  auto c = weft_test::on_host(counts);
  int wrong = 0;
  for (std::int64_t i = 0; i < begin + n; ++i)
    wrong += h(i) != (i < begin ? 0 : 2 * (i + 7)) || c(i) != (i < begin ? 0 : held);
  CHECK(wrong == 0);
}

TEST_CASE_TEMPLATE("host dispatch: functors either side of the packed-launch size, host-only operator()", E,
                   WEFT_TEST_HOST_SPACES) {
  // 2 x 24-byte Views, 32 with bounds checks (the label for device code)
  constexpr std::size_t at =
      weft::impl::host_packed_functor_max - sizeof(weft::View<std::int64_t*, E>) - sizeof(weft::View<int*, E>);
  static_assert(sizeof(PaddedFunctor<E, at>) == weft::impl::host_packed_functor_max,
                "at the limit: copied next to the range");
  static_assert(sizeof(PaddedFunctor<E, at + 1>) > weft::impl::host_packed_functor_max,
                "over it: read where the caller keeps it");
  for (const std::int64_t n : {0, 1, 5, 1001}) {
    INFO("n = " << n);
    check_padded<E, at>(3, n);
    check_padded<E, at + 1>(3, n);
  }
}

TEST_CASE_TEMPLATE("index types int and int64 and unsigned, and a plain count", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 1234;
  weft::View<long*, E> v("v", n);
  weft::parallel_for(
      weft::RangePolicy<E, weft::IndexType<int>>(0, n), WEFT_LAMBDA(int i) { v(i) = i; });
  weft::parallel_for(
      weft::RangePolicy<E, unsigned>(0u, unsigned(n)), WEFT_LAMBDA(unsigned i) { v(i) += 1; });
  weft::parallel_for(
      weft::RangePolicy<E, weft::IndexType<std::int64_t>>(0, n), WEFT_LAMBDA(std::int64_t i) { v(i) *= 2; });
  long s = 0;
  auto hv = weft_test::on_host(v);
  for (int i = 0; i < n; ++i) s += hv(i);
  CHECK(s == 2L * (long(n) * (n - 1) / 2 + n));
  // A plain count runs on the default execution space, so its View lives there (a View of E's memory would be
  // out of a device kernel's reach: GpuEmu stops such an access, a GPU faults).
  weft::View<long*> d("d", n);
  weft::parallel_for(
      n, WEFT_LAMBDA(int i) { d(i) = 3L * i; });
  auto hd = weft_test::on_host(d);
  long sd = 0;
  for (int i = 0; i < n; ++i) sd += hd(i);
  CHECK(sd == 3L * (long(n) * (n - 1) / 2));
  CHECK_THROWS_WITH_AS(
      weft::RangePolicy<E>(5, 3),
      doctest::Contains("RangePolicy bounds error: The lower bound (5) is greater than the upper bound (3)."),
      weft::Error);
  CHECK_THROWS_WITH_AS((weft::RangePolicy<E, weft::IndexType<int>>(0, std::int64_t(1) << 40)),
                       doctest::Contains("an unsafe implicit conversion is performed on a bound (1099511627776)"),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::RangePolicy<E, weft::IndexType<std::uint64_t>>(-1, 3)),
                       doctest::Contains("on a bound (-1)"), weft::Error);
}

namespace {
/// A functor that names its execution space: a count runs it there (Kokkos's rule), not on the default space.
template <class E>
struct OnItsSpace {
  using execution_space = E;
  using value_type = long;
  weft::View<long*, typename E::memory_space> v;
  WEFT_FUNCTION void operator()(int i) const { v(i) = 2L * i + 1; }
  WEFT_FUNCTION void operator()(int i, long& sum) const { sum += v(i); }
  WEFT_FUNCTION void operator()(int i, long& update, bool final) const {
    const long x = v(i);
    if (final) v(i) = update;
    update += x;
  }
};
struct NamesNoSpace {
  WEFT_FUNCTION void operator()(int) const {}
};
struct NamesADevice {
  using execution_space = weft::Device<weft::DefaultHostExecutionSpace, weft::HostSpace>;
  WEFT_FUNCTION void operator()(int) const {}
};
}  // namespace

TEST_CASE_TEMPLATE("a count runs on the functor's execution_space when it names one", E, WEFT_TEST_EXEC_SPACES) {
  static_assert(std::is_same_v<typename decltype(weft::impl::count_policy<OnItsSpace<E>>(3))::execution_space, E>);
  static_assert(std::is_same_v<typename decltype(weft::impl::count_policy<NamesNoSpace>(3))::execution_space,
                               weft::DefaultExecutionSpace>);
  static_assert(std::is_same_v<typename decltype(weft::impl::count_policy<NamesADevice>(3))::execution_space,
                               weft::DefaultExecutionSpace>);
  const int n = 1000;
  // The View lives in E's memory only: on a device-default build (GpuEmu) a host functor's count that ran on the
  // device would touch host memory there, which GpuEmu's host-access check stops.
  OnItsSpace<E> f{weft::View<long*, typename E::memory_space>("on-its-space", n)};
  weft::parallel_for(n, f);
  long sum = 0;
  weft::parallel_reduce("count-reduce", n, f, sum);
  CHECK(sum == long(n) * n);
  long total = 0;
  weft::parallel_scan(n, f, total);
  CHECK(total == long(n) * n);
  E().fence();
  auto h = weft_test::on_host(f.v);
  for (int i = 0; i < n; i += 97) CHECK(h(i) == long(i) * i);
}

TEST_CASE_TEMPLATE("work tags select the operator", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 513;
  TaggedFunctor<E> f{weft::View<int*, E>("out", n)};
  weft::parallel_for(weft::RangePolicy<E, TagA>(0, n), f);
  weft::parallel_for("b", weft::RangePolicy<E, TagB>(0, n), f);
  int wrong = 0;
  auto hout = weft_test::on_host(f.out);
  for (int i = 0; i < n; ++i) wrong += hout(i) != 11;
  CHECK(wrong == 0);
}

/// Counts the visits of each N-index (a functor: CUDA's device lambdas cannot be generic).
template <class V, int N>
struct MdHit {
  V hits;
  std::int64_t ext[N];
  template <class... I>
  WEFT_INLINE_FUNCTION void operator()(I... i) const {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    std::int64_t f = 0;
    for (int k = 0; k < N; ++k) f = f * ext[k] + idx[k];
    hits(f) += 1;
  }
};

template <class E, int N>
void check_mdrange(const std::int64_t (&lo)[N], const std::int64_t (&hi)[N], const std::int64_t (&tile)[N]) {
  std::int64_t ext[N];
  std::size_t total = 1;
  for (int k = 0; k < N; ++k) {
    ext[k] = hi[k];
    total *= static_cast<std::size_t>(hi[k]);
  }
  weft::View<int*, E> hits("hits", total);
  MdHit<weft::View<int*, E>, N> body{hits, {}};
  for (int k = 0; k < N; ++k) body.ext[k] = ext[k];
  using PR = weft::MDRangePolicy<E, weft::Rank<N, weft::Iterate::Right, weft::Iterate::Right>>;
  using PL = weft::MDRangePolicy<E, weft::Rank<N, weft::Iterate::Left, weft::Iterate::Left>>;
  weft::parallel_for("md_right", PR(lo, hi, tile), body);
  weft::parallel_for("md_left", PL(lo, hi, tile), body);
  weft::parallel_for("md_default_tiles", weft::MDRangePolicy<E, weft::Rank<N>>(lo, hi), body);
  // tiles in one order, points within a tile in the other (each thread counts its tiles on from its first)
  using PRL = weft::MDRangePolicy<E, weft::Rank<N, weft::Iterate::Right, weft::Iterate::Left>>;
  using PLR = weft::MDRangePolicy<E, weft::Rank<N, weft::Iterate::Left, weft::Iterate::Right>>;
  weft::parallel_for("md_right_left", PRL(lo, hi, tile), body);
  weft::parallel_for("md_left_right", PLR(lo, hi, tile), body);
  std::size_t wrong = 0;
  auto h = weft_test::on_host(hits);
  for (std::size_t f = 0; f < total; ++f) {
    std::int64_t rem = static_cast<std::int64_t>(f);
    bool inside = true;
    for (int k = N - 1; k >= 0; --k) {
      const std::int64_t i = rem % ext[k];
      rem /= ext[k];
      inside = inside && i >= lo[k];
    }
    wrong += h(f) != (inside ? 5 : 0);
  }
  CHECK(wrong == 0);
}

TEST_CASE_TEMPLATE("MDRangePolicy ranks 2..6 with tiles that do not divide the extents", E, WEFT_TEST_EXEC_SPACES) {
  check_mdrange<E, 2>({0, 1}, {17, 13}, {4, 5});
  check_mdrange<E, 3>({1, 0, 2}, {9, 7, 11}, {2, 3, 4});
  check_mdrange<E, 4>({0, 0, 0, 1}, {5, 4, 3, 6}, {2, 3, 2, 4});
  check_mdrange<E, 5>({0, 1, 0, 0, 0}, {3, 4, 3, 2, 5}, {2, 2, 2, 1, 3});
  check_mdrange<E, 6>({0, 0, 1, 0, 0, 0}, {2, 3, 3, 2, 3, 4}, {1, 2, 2, 2, 2, 3});
  weft::View<int**, E> empty("empty", 4, 4);
  weft::parallel_for(
      weft::MDRangePolicy<E, weft::Rank<2>>({2, 0}, {2, 4}), WEFT_LAMBDA(int i, int j) { empty(i, j) = 1; });
  CHECK(weft_test::on_host(empty)(2, 0) == 0);
  CHECK_THROWS_WITH_AS((weft::MDRangePolicy<E, weft::Rank<2>>({3, 0}, {2, 4})),
                       doctest::Contains("The lower bound (3) is greater than its upper bound (2) in dimension 0."),
                       weft::Error);
  // Several bad dimensions: the innermost is named (Iterate::Right: the last), as Kokkos does.
  CHECK_THROWS_WITH_AS((weft::MDRangePolicy<E, weft::Rank<2>>({3, 9}, {2, 4})), doctest::Contains("in dimension 1."),
                       weft::Error);
}

TEST_CASE_TEMPLATE("MDRange iteration order: Right makes the last index fastest", E, weft::Serial) {
  const int n = 3, m = 4;
  weft::View<int**, E> order("order", n, m);
  int counter = 0;
  weft::parallel_for(weft::MDRangePolicy<E, weft::Rank<2, weft::Iterate::Right, weft::Iterate::Right>>({0, 0}, {n, m}),
                     [&](int i, int j) { order(i, j) = counter++; });
  CHECK(order(0, 1) == 1);
  CHECK(order(1, 0) == m);
  counter = 0;
  weft::parallel_for(
      weft::MDRangePolicy<E, weft::Rank<2, weft::Iterate::Left, weft::Iterate::Left>>({0, 0}, {n, m}, {n, m}),
      [&](int i, int j) { order(i, j) = counter++; });
  CHECK(order(1, 0) == 1);
  CHECK(order(0, 1) == n);
  // Tiles of 1 x 2, visited in the outer direction: Left walks dimension 0's tiles first, Right dimension 1's.
  counter = 0;
  weft::parallel_for(
      weft::MDRangePolicy<E, weft::Rank<2, weft::Iterate::Left, weft::Iterate::Right>>({0, 0}, {n, m}, {1, 2}),
      [&](int i, int j) { order(i, j) = counter++; });
  CHECK(order(0, 1) == 1);
  CHECK(order(1, 0) == 2);
  CHECK(order(0, 2) == 2 * n);
  CHECK(order(n - 1, m - 1) == n * m - 1);
  counter = 0;
  weft::parallel_for(
      weft::MDRangePolicy<E, weft::Rank<2, weft::Iterate::Right, weft::Iterate::Right>>({0, 0}, {n, m}, {1, 2}),
      [&](int i, int j) { order(i, j) = counter++; });
  CHECK(order(0, 2) == 2);
  CHECK(order(1, 0) == m);
  CHECK(order(n - 1, m - 1) == n * m - 1);
}

template <class E>
struct ScanFunctor {
  using value_type = std::int64_t;
  weft::View<const std::int64_t*, E> in;
  weft::View<std::int64_t*, E> out;
  WEFT_INLINE_FUNCTION void operator()(int i, value_type& update, bool final) const {
    update += in(i);
    if (final) out(i) = update;  // inclusive
  }
};

TEST_CASE_TEMPLATE("parallel_scan: exclusive and inclusive, with totals, against a serial scan", E,
                   WEFT_TEST_EXEC_SPACES) {
  for (const int n : {0, 1, 5, 1000, 1000003}) {
    INFO("n = " << n << ", seed = 42");
    weft::View<std::int64_t*, E> in("in", n), ex("ex", n), inc("inc", n);
    auto vals = weft_test::random_values<double>(n, 42, -1000, 1000);
    std::vector<std::int64_t> ivals(n);
    for (int i = 0; i < n; ++i) ivals[i] = static_cast<std::int64_t>(vals[i]);
    weft_test::upload(in, ivals);
    std::int64_t total = -1;
    weft::parallel_scan(
        "exclusive", weft::RangePolicy<E>(0, n),
        WEFT_LAMBDA(int i, std::int64_t& update, const bool final) {
          if (final) ex(i) = update;
          update += in(i);
        },
        total);
    ScanFunctor<E> f{in, inc};
    std::int64_t total2 = -1;
    weft::parallel_scan("inclusive", weft::RangePolicy<E>(0, n), f, total2);
    std::int64_t run = 0;
    int wrong = 0;
    auto hex = weft_test::on_host(ex);
    auto hinc = weft_test::on_host(inc);
    for (int i = 0; i < n; ++i) {
      wrong += hex(i) != run;
      run += ivals[i];
      wrong += hinc(i) != run;
    }
    CHECK(wrong == 0);
    CHECK(total == run);
    CHECK(total2 == run);
  }
  weft::View<double*, E> d("d", 100);
  weft::parallel_scan(
      weft::RangePolicy<E>(0, 100), WEFT_LAMBDA(int i, double& u, bool final) {
        if (final) d(i) = u;
        u += 0.5;
      });
  CHECK(weft_test::on_host(d)(99) == 49.5);
  weft::View<float, E> total_view("total");
  weft::parallel_scan(
      "view_total", 10, WEFT_LAMBDA(int i, float& u, bool) { u += float(i); }, total_view);
  CHECK(weft_test::on_host(total_view)() == 45.0f);
}

// A scan whose join is associative but not commutative: the value is the run of indices [first, last] joined
// so far; joining runs that are not adjacent in index order (or in the wrong order) poisons the value. The pad
// changes the value's size, which changes how many indices a GPU thread takes (8, 5, 2 and 1 here).
template <int B>
struct RunPad {
  char pad[B];
};
template <>
struct RunPad<0> {};
template <int B>
struct Run : RunPad<B> {
  std::int32_t first, last;  // first == -1: empty; first == -2: runs joined out of order
};
struct RunTag {};

template <class E, int B>
struct RunScan {
  using value_type = Run<B>;
  weft::View<std::int32_t*, E> ok;
  std::int64_t begin;
  WEFT_INLINE_FUNCTION void init(value_type& v) const { v.first = v.last = -1; }
  WEFT_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (s.first == -1) return;
    if (d.first == -1) {
      d.first = s.first;
      d.last = s.last;
    } else if (d.first == -2 || s.first == -2 || d.last + 1 != s.first) {
      d.first = -2;
    } else {
      d.last = s.last;
    }
  }
  WEFT_INLINE_FUNCTION void operator()(RunTag, std::int64_t i, value_type& u, bool final) const {
    const auto k = static_cast<std::int32_t>(i - begin);
    if (final) ok(k) = (k == 0 ? u.first == -1 : u.first == 0 && u.last == k - 1) ? 1 : 0;
    value_type mine;
    mine.first = mine.last = k;
    join(u, mine);
  }
};

template <class E, int B>
void check_run_scan() {
  INFO("value of " << sizeof(Run<B>) << " bytes");
  for (const std::int64_t n : {0, 1, 2, 2047, 2049, 100003, 300007}) {
    INFO("n = " << n);
    const std::int64_t begin = 3;
    weft::View<std::int32_t*, E> ok("ok", n);
    RunScan<E, B> f{ok, begin};
    Run<B> total;
    total.first = total.last = 7;
    weft::parallel_scan("runs", weft::RangePolicy<E, RunTag>(begin, begin + n), f, total);
    auto h = weft_test::on_host(ok);
    std::int64_t bad = 0;
    for (std::int64_t k = 0; k < n; ++k) bad += h(k) != 1;
    CHECK(bad == 0);
    CHECK(total.first == (n ? 0 : -1));
    if (n) CHECK(total.last == n - 1);
    weft::View<Run<B>, E> tv("total_view");
    weft::parallel_scan("runs_view_total", weft::RangePolicy<E, RunTag>(begin, begin + n), f, tv);
    const Run<B> t = weft_test::on_host(tv)();
    CHECK(t.first == total.first);
    CHECK(t.last == total.last);
  }
}

TEST_CASE_TEMPLATE("parallel_scan joins in index order (a non-commutative join, values of 8 to 72 bytes)", E,
                   WEFT_TEST_EXEC_SPACES) {
  check_run_scan<E, 0>();
  check_run_scan<E, 1>();
  check_run_scan<E, 24>();
  check_run_scan<E, 64>();
}

TEST_CASE_TEMPLATE("nested dispatch inside a kernel runs inline", E, WEFT_TEST_HOST_SPACES) {
  weft::View<int*, E> out("out", 8);
  weft::parallel_for(weft::RangePolicy<E>(0, 8), [=](int i) {
    int s = 0;
    weft::parallel_reduce(
        weft::RangePolicy<E>(0, i + 1), [&](int j, int& a) { a += j; }, s);
    out(i) = s;
  });
  for (int i = 0; i < 8; ++i) CHECK(out(i) == i * (i + 1) / 2);
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("partition_space gives independent instances that run concurrently", E, WEFT_TEST_EXEC_SPACES) {
  auto parts = weft::experimental::partition_space(E(), 1, 1);
  CHECK(parts[0].impl_instance_id() != parts[1].impl_instance_id());
  CHECK(parts[0].impl_instance_id() != E().impl_instance_id());
  CHECK(parts[0].concurrency() >= 1);
  if constexpr (weft_test::is_host_space_v<E>)
    CHECK(parts[0].concurrency() + parts[1].concurrency() <= std::max(2, E().concurrency()));
  const int n = 100000;
  weft::View<double*, E> a("a", n), b("b", n);
  std::thread other([&] {
    weft::parallel_for(
        weft::RangePolicy<E>(parts[1], 0, n), WEFT_LAMBDA(int i) { b(i) = 2.0 * i; });
    parts[1].fence();
  });
  weft::parallel_for(
      weft::RangePolicy<E>(parts[0], 0, n), WEFT_LAMBDA(int i) { a(i) = 1.0 * i; });
  parts[0].fence();
  other.join();
  double s = 0;
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i, double& acc) { acc += b(i) - 2 * a(i); }, s);
  CHECK(s == 0.0);
  CHECK_THROWS_AS(weft::experimental::partition_space(E(), 1, 0), weft::Error);
  // Non-finite weights were accepted (INFINITY gave one instance every thread and the others one): refused as NaN is.
  CHECK_THROWS_WITH_AS(weft::experimental::partition_space(E(), INFINITY, 1.0),
                       doctest::Contains("weight inf is not a positive finite number"), weft::Error);
  CHECK_THROWS_AS(weft::experimental::partition_space(E(), 1.0, NAN), weft::Error);
  // weights in a container (a temporary std::vector, a std::array): a std::vector of instances, each usable
  for (const auto& parts2 : {weft::experimental::partition_space(E(), std::vector<int>{1, 3}),
                             weft::experimental::partition_space(E(), std::array<double, 2>{2.0, 2.0})}) {
    REQUIRE(parts2.size() == 2);
    for (const E& p : parts2) {
      CHECK(p.concurrency() >= 1);
      std::int64_t t = 0;
      weft::parallel_reduce(
          weft::RangePolicy<E>(p, 0, 1000), WEFT_LAMBDA(int i, std::int64_t& acc) { acc += i; }, t);
      CHECK(t == 999 * 1000 / 2);
    }
  }
  CHECK(weft::experimental::partition_space(E(), std::vector<float>{1.f, 1.f, 1.f}).size() == 3);
  CHECK_THROWS_WITH_AS(weft::experimental::partition_space(E(), std::vector<int>{}), doctest::Contains("no weights"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(weft::experimental::partition_space(E(), std::vector<int>{1, -2}),
                       doctest::Contains("weight -2.000000 is not a positive finite number"), weft::Error);
}

struct TagT {};

template <class E>
struct TaggedMdTeam {
  weft::View<int**, E> v;
  WEFT_INLINE_FUNCTION void operator()(TagT, int i, int j) const { v(i, j) = 1; }
  WEFT_INLINE_FUNCTION void operator()(TagT, const typename weft::TeamPolicy<E, TagT>::member_type& m) const {
    v(m.league_rank(), 0) += 10;
  }
};

/// What the program's own tool callbacks saw (weft::profiling::set_callbacks).
std::vector<std::string> g_seen;
std::uint64_t g_next_id = 100;
std::map<std::uint64_t, std::string> g_kernel_names;  // the id a begin callback gave -> the kernel's name

TEST_CASE_TEMPLATE("profiling callbacks inside the program: kernels, fences, regions, allocations, copies, sections", E,
                   WEFT_TEST_EXEC_SPACES) {
  namespace prof = weft::profiling;
  const prof::Callbacks before = prof::callbacks();
  prof::Callbacks c;
  c.begin_parallel_for = [](const char* n, std::uint32_t, std::uint64_t* id) {
    *id = ++g_next_id;
    g_kernel_names[*id] = n;
    g_seen.push_back("begin_for " + std::string(n));
  };
  c.end_parallel_for = [](std::uint64_t id) { g_seen.push_back("end_for " + g_kernel_names[id]); };
  c.begin_parallel_reduce = [](const char* n, std::uint32_t, std::uint64_t* id) {
    *id = ++g_next_id;
    g_kernel_names[*id] = n;
    g_seen.push_back("begin_reduce " + std::string(n));
  };
  c.end_parallel_reduce = [](std::uint64_t id) { g_seen.push_back("end_reduce " + g_kernel_names[id]); };
  c.push_region = [](const char* n) { g_seen.push_back("push " + std::string(n)); };
  c.pop_region = [] { g_seen.push_back("pop"); };
  c.allocate_data = [](prof::SpaceHandle h, const char* label, const void*, std::uint64_t bytes) {
    if (std::string(label) == "cb_view") g_seen.push_back("alloc " + std::to_string(bytes) + " " + h.name);
  };
  c.deallocate_data = [](prof::SpaceHandle, const char* label, const void*, std::uint64_t bytes) {
    if (std::string(label) == "cb_view") g_seen.push_back("dealloc " + std::to_string(bytes));
  };
  c.begin_deep_copy = [](prof::SpaceHandle, const char* dst, const void*, prof::SpaceHandle, const char*, const void*,
                         std::uint64_t bytes) {
    g_seen.push_back("copy " + std::string(dst) + " " + std::to_string(bytes));
  };
  c.create_profile_section = [](const char* n, std::uint32_t* id) {
    *id = 7;
    g_seen.push_back("section " + std::string(n));
  };
  c.start_profile_section = [](std::uint32_t id) { g_seen.push_back("start " + std::to_string(id)); };
  c.declare_metadata = [](const char* k, const char* v) { g_seen.push_back(std::string(k) + "=" + v); };
  c.profile_event = [](const char* n) { g_seen.push_back("event " + std::string(n)); };
  g_seen.clear();
  prof::set_callbacks(c);
  CHECK(prof::is_enabled());
  {
    weft::View<double*, E> v("cb_view", 16);
    prof::push_region("outer");
    weft::parallel_for(
        "cb_for", weft::RangePolicy<E>(0, 16), WEFT_LAMBDA(int i) { v(i) = i; });
    double s = 0;
    weft::parallel_reduce(
        "cb_reduce", weft::RangePolicy<E>(0, 16), WEFT_LAMBDA(int i, double& a) { a += v(i); }, s);
    CHECK(s == 120.0);
    prof::pop_region();
    weft::deep_copy(v, 1.0);
    const auto id = prof::create_section("sec");
    prof::start_section(id);
    prof::declare_metadata("key", "value");
    prof::mark_event("here");
  }
  prof::set_callbacks({});
  weft::parallel_for("after", weft::RangePolicy<E>(0, 4), WEFT_LAMBDA(int){});
  const std::string space = E::memory_space::name();
  const std::vector<std::string> want = {"alloc 128 " + space,
                                         "push outer",
                                         "begin_for cb_for",
                                         "end_for cb_for",
                                         "begin_reduce cb_reduce",
                                         "end_reduce cb_reduce",
                                         "pop",
                                         "copy cb_view 128",
                                         "section sec",
                                         "start 7",
                                         "key=value",
                                         "event here",
                                         "dealloc 128"};
  std::vector<std::string> got;
  for (const std::string& e : g_seen)  // the backend's own kernels and copies (initialization, fills) aside
    if ((e.rfind("copy ", 0) != 0 && e.find("_for ") == std::string::npos && e.find("_reduce ") == std::string::npos) ||
        e.find("cb_") != std::string::npos)
      got.push_back(e);
  CHECK(got == want);
  if (got != want)
    for (const std::string& e : g_seen) MESSAGE(e);
  g_kernel_names.clear();
  prof::set_callbacks(before);
}

struct TagSquares {};
/// A scan functor with one operator() per tag and no value_type (a public MD code's neighbour-list offsets): each
/// tag's update type is deduced from its own operator().
template <class E>
struct TwoScans {
  weft::View<const int*, E> counts;
  weft::View<long long*, E> offsets;
  weft::View<double*, E> squares;
  WEFT_INLINE_FUNCTION void operator()(TagT, int i, long long& update, bool final) const {
    if (final) offsets(i) = update;
    update += counts(i);
  }
  WEFT_INLINE_FUNCTION void operator()(TagSquares, int i, double& update, bool final) const {
    if (final) squares(i) = update;
    update += 0.5 * counts(i) * counts(i);
  }
};

TEST_CASE_TEMPLATE("parallel_scan(policy, functor) with one operator() per work tag and no value_type", E,
                   WEFT_TEST_EXEC_SPACES) {
  const int n = 4099;
  std::vector<int> c(n);
  std::mt19937 gen(4242);
  for (int& x : c) x = static_cast<int>(gen() % 50);
  weft::View<int*, E> counts("counts", n);
  weft_test::upload(counts, c);
  TwoScans<E> f{counts, weft::View<long long*, E>("offsets", n), weft::View<double*, E>("squares", n)};
  weft::parallel_scan(weft::RangePolicy<E, TagT>(0, n), f);
  weft::parallel_scan("squares", weft::RangePolicy<E, TagSquares>(0, n), f);
  auto off = weft_test::on_host(f.offsets);
  auto sq = weft_test::on_host(f.squares);
  long long ref = 0;
  double ref_sq = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    bad += off(i) != ref || sq(i) != ref_sq;
    ref += c[i];
    ref_sq += 0.5 * c[i] * c[i];
  }
  CHECK(bad == 0);
  static_assert(std::is_same_v<typename weft::impl::scan_update_type<TwoScans<E>, TagSquares>::type, double>);
  static_assert(std::is_same_v<typename weft::impl::scan_update_type<TwoScans<E>, TagT>::type, long long>);
}

TEST_CASE_TEMPLATE("work tags on MDRange and Team policies, traits accepted, extents of 1", E, WEFT_TEST_EXEC_SPACES) {
  TaggedMdTeam<E> f{weft::View<int**, E>("v", 3, 1)};
  weft::parallel_for(weft::MDRangePolicy<E, weft::Rank<2>, TagT>({0, 0}, {3, 1}), f);
  weft::parallel_for(weft::TeamPolicy<E, TagT>(3, 1), f);
  CHECK(weft_test::on_host(f.v)(2, 0) == 11);
  weft::View<const int**, E, weft::MemoryTraits<weft::RandomAccess | weft::Restrict>> ra = f.v;
  CHECK(weft_test::on_host(ra)(1, 0) == 11);
  weft::View<double[1][1], E> one("one");
  CHECK(one.size() == 1);
  static_assert(weft::SpaceAccessibility<E, typename E::memory_space>::accessible);
  static_assert(weft::SpaceAccessibility<weft::HostSpace, typename E::memory_space>::accessible ==
                weft_test::is_host_space_v<E>);
  static_assert(std::is_same_v<typename weft::View<double*, E>::execution_space, E>);
}

}  // namespace

namespace {

// Several host threads dispatching to one instance at once (the default one): the instance runs their kernels one
// after the other, as Kokkos's (the next test); results are those of the same work dispatched from one thread.
TEST_CASE_TEMPLATE("host backends: concurrent dispatch to one instance from several threads", E,
                   WEFT_TEST_HOST_SPACES) {
  constexpr int threads = 4, rounds = 25, n = 20011;
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      weft::View<long*, typename E::memory_space> v("v", n), scan("scan", n);
      for (int r = 0; r < rounds; ++r) {
        const long k = 1 + t * rounds + r;
        weft::parallel_for(
            "concurrent_fill", weft::RangePolicy<E>(E(), 0, n), WEFT_LAMBDA(int i) { v(i) = k * (i % 7); });
        long sum = 0;
        weft::parallel_reduce(
            "concurrent_sum", weft::RangePolicy<E>(E(), 0, n), WEFT_LAMBDA(int i, long& a) { a += v(i); }, sum);
        long total = 0;
        weft::parallel_scan(
            "concurrent_scan", weft::RangePolicy<E>(E(), 0, n),
            WEFT_LAMBDA(int i, long& part, bool final) {
              part += v(i);
              if (final) scan(i) = part;
            },
            total);
        long expect = 0;
        for (int i = 0; i < n; ++i) expect += k * (i % 7);
        wrong[t] += (sum != expect) + (total != expect) + (scan(n - 1) != expect) + (scan(n / 2) == 0);
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(wrong[t] == 0);
}

// Kokkos's ExecSpaceThreadSafety: kernels given to one instance by two threads at once never overlap (each counts
// itself in and out of a shared counter and sees only itself inside); a fence from another thread waits for the
// kernel running; a dispatch nested in a kernel still runs inline; a second instance runs beside the first.
TEST_CASE_TEMPLATE("host backends: one instance runs its kernels one at a time, whichever thread gives them", E,
                   WEFT_TEST_HOST_SPACES) {
  int inside = 0, overlaps = 0, ran = 0, ready = 0;
  auto work = [&](const E& exec, const char* label) {
    __atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);  // both threads start together
    while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2) std::this_thread::yield();
    for (int r = 0; r < 40; ++r) {
      weft::parallel_for(label, weft::RangePolicy<E>(exec, 0, 1), [&](int) {
        if (__atomic_add_fetch(&inside, 1, __ATOMIC_ACQ_REL) != 1) __atomic_add_fetch(&overlaps, 1, __ATOMIC_RELAXED);
        for (volatile int spin = 0; spin < 100000; spin = spin + 1) {
        }
        int nested = 0;  // nested on the same instance: inline, no deadlock
        weft::parallel_reduce(
            "nested", weft::RangePolicy<E>(exec, 0, 3), [](int i, int& a) { a += i; }, nested);
        if (nested != 3) __atomic_add_fetch(&overlaps, 100, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        __atomic_sub_fetch(&inside, 1, __ATOMIC_ACQ_REL);
      });
      long sum = 0;
      weft::parallel_reduce(
          label, weft::RangePolicy<E>(exec, 0, 1),
          [&](int, long& a) {
            if (__atomic_add_fetch(&inside, 1, __ATOMIC_ACQ_REL) != 1)
              __atomic_add_fetch(&overlaps, 1, __ATOMIC_RELAXED);
            for (volatile int spin = 0; spin < 100000; spin = spin + 1) {
            }
            a += 1;
            __atomic_sub_fetch(&inside, 1, __ATOMIC_ACQ_REL);
          },
          sum);
      if (sum != 1) __atomic_add_fetch(&overlaps, 1000, __ATOMIC_RELAXED);
    }
  };
  const E exec;
  std::thread a([&] { work(exec, "thread_a"); });
  std::thread b([&] { work(exec, "thread_b"); });
  a.join();
  b.join();
  CHECK(overlaps == 0);
  CHECK(ran == 80);
  // A fence from another thread returns only once the kernel running on the instance has finished.
  int finished = 0, started = 0;
  std::thread k([&] {
    weft::parallel_for("slow", weft::RangePolicy<E>(exec, 0, 1), [&](int) {
      __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      __atomic_store_n(&finished, 1, __ATOMIC_RELEASE);
    });
  });
  while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) std::this_thread::yield();
  exec.fence("waits for slow");
  CHECK(__atomic_load_n(&finished, __ATOMIC_ACQUIRE) == 1);
  k.join();
}

}  // namespace

// The policies' and Views' messages are built out of line (impl::compose and friends): each sentence, numbers in place.
TEST_CASE_TEMPLATE("policy and View errors keep their whole messages", E, WEFT_TEST_HOST_SPACES) {
  using doctest::Contains;
  CHECK_THROWS_WITH_AS(weft::RangePolicy<E>(0, 10).set_chunk_size(-3),
                       Contains("weft::RangePolicy: chunk size -3 is negative"), weft::Error);
  CHECK_THROWS_WITH_AS((weft::RangePolicy<E, weft::IndexType<unsigned>>(-2, 5)),
                       Contains("weft::RangePolicy bound type error: an unsafe implicit conversion is performed on a "
                                "bound (-2), which may not preserve its original value."),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::MDRangePolicy<E, weft::Rank<2>, weft::IndexType<unsigned>>({0, -1}, {2, 3})),
                       Contains("weft::MDRangePolicy bound type error: an unsafe implicit conversion is performed on "
                                "a bound (-1) in dimension (1), which may not preserve its original value."),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::MDRangePolicy<E, weft::Rank<2>>({0, 0}, {4, 4}, {2, -1})),
                       Contains("weft::MDRangePolicy: tile size -1 is negative in dimension 1"), weft::Error);
  CHECK_THROWS_WITH_AS(weft::TeamPolicy<E>(-4, 1), Contains("weft::TeamPolicy: league size -4 is negative"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(weft::TeamPolicy<E>(4, 1).set_scratch_size(2, weft::PerTeam(64)),
                       Contains("weft::TeamPolicy::set_scratch_size: level 2 does not exist; use 0 (fast, small) or 1 "
                                "(large)"),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<double**, E>("neg", 3, -2)),
                       Contains("weft::View \"neg\": extent 1 is negative (-2); extents must be >= 0"), weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<double**, weft::LayoutRight, E>("nolayout", weft::LayoutRight(3))),
                       Contains("weft::View \"nolayout\": the layout gives no extent for dimension 1 of a rank-2 view"),
                       weft::Error);
  weft::LayoutLeft padded(8, 3);
  padded.stride = 5;
  CHECK_THROWS_WITH_AS((weft::View<double**, weft::LayoutLeft, E>("padded", padded)),
                       Contains("weft::View \"padded\": the layout's stride (5) is less than the extent it pads (8); "
                                "give a stride of at least that extent"),
                       weft::Error);
  weft::View<double*, E> one("one", 4);
  CHECK_THROWS_WITH_AS(([&] { weft::View<double[3], E> fixed = one; }()),
                       Contains("weft::View \"one\": assigned to a view whose type fixes extent 0 at 3, but it is 4"),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<double**, E>("huge", std::int64_t(1) << 40, std::int64_t(1) << 30)),
                       Contains("weft::View \"huge\": extents (1099511627776, 1073741824) of 8-byte elements need "),
                       weft::Error);
}
