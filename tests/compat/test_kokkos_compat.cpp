// Kokkos-style programs compiled unchanged through <weft/compat/kokkos.hpp>.
#include <weft/compat/kokkos.hpp>

#include "test_common.hpp"

namespace {

// Written as a Kokkos user would write it (from the Kokkos tutorials' shapes).
struct AxpbyFunctor {
  Kokkos::View<const double*> x;
  Kokkos::View<double*> y;
  double a, b;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { y(i) = a * x(i) + b * y(i); }
};

TEST_CASE("a Kokkos program of the core subset compiles and runs on Weft") {
  const int N = 1000, M = 64;
  Kokkos::View<double**, Kokkos::LayoutRight> A("A", N, M);
  Kokkos::View<double*> x("x", M), y("y", N);
  Kokkos::View<double*>::HostMirror h_x = Kokkos::create_mirror_view(x);
  for (int j = 0; j < M; ++j) h_x(j) = 1.0 + j;
  Kokkos::deep_copy(x, h_x);
  Kokkos::parallel_for(
      "init_A", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {N, M}),
      KOKKOS_LAMBDA(const int i, const int j) { A(i, j) = (i % 7) * 0.5 + j; });
  using team_policy = Kokkos::TeamPolicy<>;
  using member_type = team_policy::member_type;
  Kokkos::parallel_for(
      "yAx", team_policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member_type& team) {
        const int i = team.league_rank();
        double sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, M), [&](const int j, double& acc) { acc += A(i, j) * x(j); }, sum);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { y(i) = sum; });
      });
  Kokkos::fence();
  double result = 0;
  Kokkos::parallel_reduce(
      "dot", N, KOKKOS_LAMBDA(const int i, double& acc) { acc += y(i); }, result);
  double ref = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) ref += ((i % 7) * 0.5 + j) * (1.0 + j);
  CHECK(result == doctest::Approx(ref));

  Kokkos::View<double*> xs("xs", N);
  Kokkos::deep_copy(xs, 2.0);
  Kokkos::parallel_for("axpby", Kokkos::RangePolicy<>(0, N), AxpbyFunctor{xs, y, 3.0, 0.0});
  auto h_y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  CHECK(h_y(5) == 6.0);

  Kokkos::MinLoc<double, int>::value_type ml;
  Kokkos::parallel_reduce(
      "minloc", N,
      KOKKOS_LAMBDA(const int i, Kokkos::MinLoc<double, int>::value_type& v) {
        if (y(i) < v.val) {
          v.val = y(i);
          v.loc = i;
        }
      },
      Kokkos::MinLoc<double, int>(ml));
  CHECK(ml.val == 6.0);
  CHECK(ml.loc == 0);
  auto sub = Kokkos::subview(A, 3, Kokkos::ALL());
  CHECK(sub.extent(0) == size_t(M));
  Kokkos::View<int*> counts("counts", 1);
  Kokkos::parallel_for(
      N, KOKKOS_LAMBDA(const int) { Kokkos::atomic_add(&counts(0), 1); });
  auto h_counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  CHECK(h_counts(0) == N);
  Kokkos::View<double*> w(Kokkos::view_alloc(Kokkos::WithoutInitializing, "w"), 4);
  CHECK(w.label() == "w");
  CHECK(Kokkos::DefaultExecutionSpace::name() == std::string(WEFT_DEFAULT_BACKEND_NAME));
  int scanned = 0;
  Kokkos::parallel_scan(
      "scan", 10, KOKKOS_LAMBDA(const int i, int& u, const bool) { u += i; }, scanned);
  CHECK(scanned == 45);
}

}  // namespace

TEST_CASE("Kokkos::sort, Kokkos::Experimental algorithms and Kokkos::Random_XorShift64_Pool") {
  const int n = 1000;
  Kokkos::View<int*> v("v", n);
  Kokkos::Random_XorShift64_Pool<> pool(12345);
  Kokkos::parallel_for(
      "draw", n, KOKKOS_LAMBDA(const int i) {
        auto g = pool.get_state();
        v(i) = g.rand(100);
        pool.free_state(g);
      });
  Kokkos::sort(Kokkos::DefaultExecutionSpace(), v);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int i = 1; i < n; ++i) REQUIRE(h(i - 1) <= h(i));
  CHECK(h(0) >= 0);
  CHECK(h(n - 1) < 100);
  Kokkos::View<int*> s("s", n);
  Kokkos::Experimental::inclusive_scan(Kokkos::DefaultExecutionSpace(), v, s);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h(i);
  CHECK(hs(n - 1) == sum);
  CHECK(Kokkos::Experimental::min_element(Kokkos::DefaultExecutionSpace(), v) == 0);
  // Kokkos::BinSort as particle codes use it: bin the (sorted) values, permute a second array with them
  using KeyView = Kokkos::View<int*>;
  using BinOp = Kokkos::BinOp1D<KeyView>;
  Kokkos::View<double*> w("w", n);
  Kokkos::parallel_for(
      "w", n, KOKKOS_LAMBDA(const int i) { w(i) = 0.5 * i; });
  Kokkos::BinSort<KeyView, BinOp> bins(s, BinOp(10, 0, int(hs(n - 1))));
  bins.create_permute_vector();
  bins.sort(w);
  auto perm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bins.get_permute_vector());
  auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w);
  for (int i = 0; i < n; ++i) REQUIRE(hw(i) == 0.5 * perm(i));
  CHECK(perm(0) == 0);  // s ascending: the permutation is the identity, and stable
  CHECK(perm(n - 1) == std::size_t(n - 1));
  // Kokkos::sort of a sub-range, and Kokkos::Experimental::sort_by_key
  Kokkos::View<int*> r("r", 6), rv("rv", 6);
  auto hr = Kokkos::create_mirror_view(r);
  const int init[6] = {9, 5, 3, 4, 1, 0};
  for (int i = 0; i < 6; ++i) hr(i) = init[i];
  Kokkos::deep_copy(r, hr);
  Kokkos::sort(r, 1, 5);
  Kokkos::deep_copy(hr, r);
  const int want[6] = {9, 1, 3, 4, 5, 0};
  for (int i = 0; i < 6; ++i) CHECK(hr(i) == want[i]);
  CHECK_THROWS_WITH_AS(Kokkos::sort(r, 2, 7), doctest::Contains("[2, 7) is not inside \"r\" (6 elements)"),
                       weft::Error);
  Kokkos::parallel_for(
      "rv", 6, KOKKOS_LAMBDA(const int i) { rv(i) = 10 * i; });
  Kokkos::Experimental::sort_by_key(Kokkos::DefaultExecutionSpace(), r, rv);
  auto hrv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rv);
  const int moved[6] = {50, 10, 20, 30, 40, 0};  // keys 0 1 3 4 5 9 came from positions 5 1 2 3 4 0
  for (int i = 0; i < 6; ++i) CHECK(hrv(i) == moved[i]);
}

TEST_CASE("Kokkos::Experimental::half_t and bhalf_t") {
  Kokkos::View<Kokkos::Experimental::half_t*> h("h", 4);
  Kokkos::View<float*> out("out", 4);
  Kokkos::parallel_for(
      "halves", 4, KOKKOS_LAMBDA(int i) {
        h(i) = Kokkos::Experimental::half_t(0.5f * float(i) + 0.1f);
        out(i) = float(h(i)) + float(Kokkos::Experimental::bhalf_t(float(i)));
      });
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 4; ++i) CHECK(ho(i) == float(weft::half_t(0.5f * float(i) + 0.1f)) + float(i));
}
