// parallel_reduce: every built-in reducer over 10^7 elements of float, double and int64 against a
// serial reference (long double for floating sums), MinLoc ties, several reductions in one kernel,
// functor reductions with arrays and init/join/final, results into Views, user reducers.
#include <cmath>
#include <cstdint>
#include <limits>

#include "test_common.hpp"

namespace {

constexpr int big_n = 10'000'000;

template <class E, class T>
void check_all_reducers(std::uint64_t seed) {
  INFO("value type size " << sizeof(T) << ", seed " << seed);
  weft::View<T*, E> x_dev("x", big_n);
  auto x = weft::create_mirror_view(x_dev);  // the host copy the references are computed from
  {
    auto vals = weft_test::random_values<double>(big_n, seed, -100.0, 100.0);
    for (int i = 0; i < big_n; ++i) x(i) = static_cast<T>(vals[i]);
    weft::deep_copy(x_dev, x);
  }
  long double ref_sum = 0;
  T ref_min = x(0), ref_max = x(0);
  std::int64_t ref_min_loc = 0, ref_max_loc = 0;
  for (int i = 0; i < big_n; ++i) {
    ref_sum += x(i);
    if (x(i) < ref_min) ref_min = x(i), ref_min_loc = i;
    if (x(i) > ref_max) ref_max = x(i), ref_max_loc = i;
  }
  weft::RangePolicy<E> p(0, big_n);
  auto xd = x_dev;
  T sum = 0;
  weft::parallel_reduce(
      "sum", p, WEFT_LAMBDA(int i, T& a) { a += xd(i); }, sum);
  if constexpr (std::is_floating_point_v<T>)
    CHECK(static_cast<long double>(sum) ==
          doctest::Approx(static_cast<double>(ref_sum)).epsilon(std::is_same_v<T, float> ? 1e-3 : 1e-12));
  else
    CHECK(sum == static_cast<T>(ref_sum));
  T mn = 0, mx = 0;
  weft::parallel_reduce(
      "min", p,
      WEFT_LAMBDA(int i, T& a) {
        if (xd(i) < a) a = xd(i);
      },
      weft::Min<T>(mn));
  weft::parallel_reduce(
      "max", p,
      WEFT_LAMBDA(int i, T& a) {
        if (xd(i) > a) a = xd(i);
      },
      weft::Max<T>(mx));
  CHECK(mn == ref_min);
  CHECK(mx == ref_max);
  using ML = weft::MinLoc<T, std::int64_t>;
  typename ML::value_type minloc{};
  weft::parallel_reduce(
      "minloc", p,
      WEFT_LAMBDA(int i, typename ML::value_type& a) {
        if (xd(i) < a.val) {
          a.val = xd(i);
          a.loc = i;
        }
      },
      ML(minloc));
  CHECK(minloc.val == ref_min);
  CHECK(minloc.loc == ref_min_loc);
  using XL = weft::MaxLoc<T, std::int64_t>;
  typename XL::value_type maxloc{};
  weft::parallel_reduce(
      "maxloc", p,
      WEFT_LAMBDA(int i, typename XL::value_type& a) {
        if (xd(i) > a.val) {
          a.val = xd(i);
          a.loc = i;
        }
      },
      XL(maxloc));
  CHECK(maxloc.val == ref_max);
  CHECK(maxloc.loc == ref_max_loc);
  typename weft::MinMax<T>::value_type minmax{};
  weft::parallel_reduce(
      "minmax", p,
      WEFT_LAMBDA(int i, typename weft::MinMax<T>::value_type& a) {
        if (xd(i) < a.min_val) a.min_val = xd(i);
        if (xd(i) > a.max_val) a.max_val = xd(i);
      },
      weft::MinMax<T>(minmax));
  CHECK(minmax.min_val == ref_min);
  CHECK(minmax.max_val == ref_max);
  using MML = weft::MinMaxLoc<T, std::int64_t>;
  typename MML::value_type mml{};
  weft::parallel_reduce(
      "minmaxloc", p,
      WEFT_LAMBDA(int i, typename MML::value_type& a) {
        if (xd(i) < a.min_val) {
          a.min_val = xd(i);
          a.min_loc = i;
        }
        if (xd(i) > a.max_val) {
          a.max_val = xd(i);
          a.max_loc = i;
        }
      },
      MML(mml));
  CHECK(mml.min_loc == ref_min_loc);
  CHECK(mml.max_loc == ref_max_loc);
  // Prod over values near 1, compared with the product computed in long double.
  long double ref_prod = 1;
  for (int i = 0; i < 1000; ++i) ref_prod *= 1 + x(i) / T(1000);
  T prod = 0;
  weft::parallel_reduce(
      "prod", weft::RangePolicy<E>(0, 1000), WEFT_LAMBDA(int i, T& a) { a *= 1 + xd(i) / T(1000); },
      weft::Prod<T>(prod));
  if constexpr (std::is_floating_point_v<T>)
    CHECK(static_cast<double>(prod) == doctest::Approx(static_cast<double>(ref_prod)).epsilon(1e-4));
}

TEST_CASE_TEMPLATE("Sum, Prod, Min, Max, MinLoc, MaxLoc, MinMax, MinMaxLoc over 10^7 elements", E,
                   WEFT_TEST_EXEC_SPACES) {
  check_all_reducers<E, double>(11);
  check_all_reducers<E, float>(12);
  check_all_reducers<E, std::int64_t>(13);
}

TEST_CASE_TEMPLATE("logical and bitwise reducers", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 100000;
  weft::RangePolicy<E> p(0, n);
  bool all_pos = false, any_big = true;
  weft::parallel_reduce(
      p, WEFT_LAMBDA(int i, bool& a) { a = a && (i >= 0); }, weft::LAnd<bool>(all_pos));
  weft::parallel_reduce(
      p, WEFT_LAMBDA(int i, bool& a) { a = a || (i > n); }, weft::LOr<bool>(any_big));
  CHECK(all_pos);
  CHECK_FALSE(any_big);
  unsigned band = 0, bor = 0;
  weft::parallel_reduce(
      p, WEFT_LAMBDA(int i, unsigned& a) { a &= (unsigned(i) | 0x10u); }, weft::BAnd<unsigned>(band));
  weft::parallel_reduce(
      p, WEFT_LAMBDA(int i, unsigned& a) { a |= unsigned(i) & 0xF0Fu; }, weft::BOr<unsigned>(bor));
  CHECK(band == 0x10u);
  CHECK(bor == 0xF0Fu);
  int empty_sum = 5;
  weft::parallel_reduce(
      weft::RangePolicy<E>(3, 3), WEFT_LAMBDA(int, int& a) { a += 1; }, empty_sum);
  CHECK(empty_sum == 0);
  double empty_min = 0;
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, 0), WEFT_LAMBDA(int, double& a) { a = 0; }, weft::Min<double>(empty_min));
  CHECK(empty_min == std::numeric_limits<double>::max());
}

TEST_CASE_TEMPLATE("MinLoc and MaxLoc ties go to the smallest index on any thread count", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 1000001;
  weft::View<int*, E> v("v", n);
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) { v(i) = (i % 1000 == 17) ? -5 : (i % 777 == 3 ? 9 : 0); });
  weft::MinLoc<int, int>::value_type mn{};
  weft::MaxLoc<int, int>::value_type mx{};
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n),
      WEFT_LAMBDA(int i, weft::MinLoc<int, int>::value_type& a) {
        if (v(i) < a.val || (v(i) == a.val && i < a.loc)) {
          a.val = v(i);
          a.loc = i;
        }
      },
      weft::MinLoc<int, int>(mn));
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n),
      WEFT_LAMBDA(int i, weft::MaxLoc<int, int>::value_type& a) {
        if (v(i) > a.val || (v(i) == a.val && i < a.loc)) {
          a.val = v(i);
          a.loc = i;
        }
      },
      weft::MaxLoc<int, int>(mx));
  CHECK(mn.val == -5);
  CHECK(mn.loc == 17);
  CHECK(mx.val == 9);
  CHECK(mx.loc == 3);
}

TEST_CASE_TEMPLATE("several reductions in one kernel", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 54321;
  double s = 0;
  int mx = 0;
  long count = 0;
  weft::parallel_reduce(
      "three", weft::RangePolicy<E>(0, n),
      WEFT_LAMBDA(int i, double& a, int& b, long& c) {
        a += 0.5 * i;
        if (i % 1000 > b) b = i % 1000;
        c += (i % 3 == 0);
      },
      s, weft::Max<int>(mx), count);
  CHECK(s == doctest::Approx(0.5 * double(n) * (n - 1) / 2));
  CHECK(mx == 999);
  CHECK(count == (n + 2) / 3);
}

template <class E>
struct ColumnSums {
  using value_type = double[];
  int value_count;
  weft::View<const double**, E> a;
  WEFT_INLINE_FUNCTION void operator()(int i, double* sums) const {
    for (int j = 0; j < value_count; ++j) sums[j] += a(i, j);
  }
};

struct MeanFunctor {
  using value_type = double;
  WEFT_INLINE_FUNCTION void operator()(int i, double& v) const { v += i; }
  WEFT_INLINE_FUNCTION void init(double& v) const { v = 0; }
  WEFT_INLINE_FUNCTION void join(double& d, const double& s) const { d += s; }
  WEFT_INLINE_FUNCTION void final(double& v) const { v /= 100.0; }
};

struct MaxAbsReducer {  // a user reducer with the Kokkos reducer interface
  using reducer = MaxAbsReducer;
  using value_type = double;
  double* result;
  WEFT_INLINE_FUNCTION void join(double& d, const double& s) const { d = std::fabs(s) > std::fabs(d) ? s : d; }
  WEFT_INLINE_FUNCTION void init(double& v) const { v = 0; }
  WEFT_INLINE_FUNCTION double& reference() const { return *result; }
};

TEST_CASE_TEMPLATE("functor reductions: value_type arrays, init/join/final, results into Views", E,
                   WEFT_TEST_EXEC_SPACES) {
  const int n = 2001, m = 5;
  weft::View<double**, E> a("a", n, m);
  auto ha = weft::create_mirror_view(a);
  auto vals = weft_test::random_values<double>(n * m, 77);
  double ref[m] = {};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      ha(i, j) = vals[i * m + j];
      ref[j] += vals[i * m + j];
    }
  weft::deep_copy(a, ha);
  double sums[m] = {};
  weft::parallel_reduce("columns", weft::RangePolicy<E>(0, n), ColumnSums<E>{m, a}, sums);
  for (int j = 0; j < m; ++j) CHECK(sums[j] == doctest::Approx(ref[j]).epsilon(1e-12));
  weft::View<double*, E> sums_view("sums_view", m);
  weft::parallel_reduce("columns_view", weft::RangePolicy<E>(0, n), ColumnSums<E>{m, a}, sums_view);
  auto hsums = weft_test::on_host(sums_view);
  for (int j = 0; j < m; ++j) CHECK(hsums(j) == doctest::Approx(ref[j]).epsilon(1e-12));

  double mean = 0;
  weft::parallel_reduce("mean", weft::RangePolicy<E>(0, 100), MeanFunctor{}, mean);
  CHECK(mean == doctest::Approx(49.5));
  weft::View<double, E> mean_view("mean_view");  // a device View: the kernel writes it, final() applied
  weft::parallel_reduce("mean_view", weft::RangePolicy<E>(0, 100), MeanFunctor{}, mean_view);
  CHECK(weft_test::on_host(mean_view)() == doctest::Approx(49.5));

  weft::View<double, E> into_view("into_view");
  weft::parallel_reduce(
      "into_view", weft::RangePolicy<E>(0, 10), WEFT_LAMBDA(int i, double& s) { s += i; }, into_view);
  E().fence();
  CHECK(weft_test::on_host(into_view)() == 45.0);
  weft::View<int, E> min_view("min_view");
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, 10),
      WEFT_LAMBDA(int i, int& s) {
        if (7 - i < s) s = 7 - i;
      },
      weft::Min<int, typename E::memory_space>(min_view));
  CHECK(weft_test::on_host(min_view)() == -2);

  double maxabs = 0;
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n),
      WEFT_LAMBDA(int i, double& v) {
        if (std::fabs(a(i, 0)) > std::fabs(v)) v = a(i, 0);
      },
      MaxAbsReducer{&maxabs});
  double ref_maxabs = 0;
  for (int i = 0; i < n; ++i) ref_maxabs = std::fabs(ha(i, 0)) > std::fabs(ref_maxabs) ? ha(i, 0) : ref_maxabs;
  CHECK(maxabs == ref_maxabs);
}

TEST_CASE_TEMPLATE("MDRange reductions", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 31, m = 29, k = 7;
  double s = 0;
  weft::parallel_reduce(
      weft::MDRangePolicy<E, weft::Rank<3>>({0, 0, 0}, {n, m, k}, {4, 8, 3}),
      WEFT_LAMBDA(int i, int j, int l, double& a) { a += i + 2.0 * j + 3.0 * l; }, s);
  double ref = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      for (int l = 0; l < k; ++l) ref += i + 2.0 * j + 3.0 * l;
  CHECK(s == doctest::Approx(ref));
}

/// A value type that cannot be made from 0 (no int constructor), as Kokkos's MDRange_f and TeamTeamSize tests and
/// public MD codes use: the default sum starts value-initialized.
struct Vec4 {
  double v[4];
  WEFT_INLINE_FUNCTION Vec4() : v{0, 0, 0, 0} {}
  WEFT_INLINE_FUNCTION void operator+=(const Vec4& o) {
    for (int c = 0; c < 4; ++c) v[c] += o.v[c];
  }
};
/// An aggregate (no constructor at all): value-initialization zeroes it.
struct Counts3 {
  long long c[3];
  WEFT_INLINE_FUNCTION void operator+=(const Counts3& o) {
    for (int k = 0; k < 3; ++k) c[k] += o.c[k];
  }
};

TEST_CASE_TEMPLATE("sums of user value types without an int constructor: range, MDRange, team and nested", E,
                   WEFT_TEST_EXEC_SPACES) {
  const int n = 1237, m = 29;
  Vec4 r;
  r.v[2] = 99;  // the result is overwritten, not added to
  weft::parallel_reduce(
      weft::RangePolicy<E>(0, n),
      WEFT_LAMBDA(int i, Vec4& a) {
        a.v[0] += 1;
        a.v[1] += i;
        a.v[2] += i % 7;
        a.v[3] -= 0.5 * i;
      },
      r);
  double ref[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i) ref[0] += 1, ref[1] += i, ref[2] += i % 7, ref[3] -= 0.5 * i;
  for (int c = 0; c < 4; ++c) CHECK(r.v[c] == ref[c]);

  Counts3 md;
  weft::parallel_reduce(
      weft::MDRangePolicy<E, weft::Rank<2>>({0, 0}, {n, m}, {8, 4}),
      WEFT_LAMBDA(int i, int j, Counts3& a) {
        a.c[0] += 1;
        a.c[1] += i * j;
        a.c[2] += (i + j) % 3 == 0;
      },
      md);
  long long mref[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) mref[0] += 1, mref[1] += 1LL * i * j, mref[2] += (i + j) % 3 == 0;
  for (int k = 0; k < 3; ++k) CHECK(md.c[k] == mref[k]);

  // a team reduction whose teams each add a nested TeamThreadRange sum and a ThreadVectorRange sum
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 37, inner = 53;
  Vec4 t;
  weft::parallel_reduce(
      weft::TeamPolicy<E>(league, weft::AUTO, 2),
      WEFT_LAMBDA(const member& tm, Vec4& a) {
        const int l = tm.league_rank();
        Vec4 across;
        weft::parallel_reduce(
            weft::TeamThreadRange(tm, inner), [&](int i, Vec4& b) { b.v[0] += l + i; }, across);
        Vec4 lanes;
        weft::parallel_reduce(
            weft::ThreadVectorRange(tm, inner), [&](int i, Vec4& b) { b.v[1] += i; }, lanes);
        weft::single(weft::PerTeam(tm), [&]() {
          a.v[0] += across.v[0];
          a.v[1] += lanes.v[1];
          a.v[2] += 1;
          a.v[3] += across.v[1] + lanes.v[0];  // the other components stay at their identity, 0
        });
      },
      t);
  double tref0 = 0, tref1 = 0;
  for (int l = 0; l < league; ++l)
    for (int i = 0; i < inner; ++i) tref0 += l + i, tref1 += i;
  CHECK(t.v[0] == tref0);
  CHECK(t.v[1] == tref1);
  CHECK(t.v[2] == league);
  CHECK(t.v[3] == 0);
}

}  // namespace
