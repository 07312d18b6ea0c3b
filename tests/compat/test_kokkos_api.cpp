// The Kokkos names real programs use beyond the core patterns, through the drop-in's own header names
// (<Kokkos_Core.hpp>, ...), each checked against an independent reference on the default backend.
#include <Kokkos_Core.hpp>
#include <Kokkos_MathematicalConstants.hpp>
#include <Kokkos_MathematicalFunctions.hpp>
#include <Kokkos_Random.hpp>
#include <Kokkos_Timer.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "test_common.hpp"

namespace {

static_assert(KOKKOS_VERSION == 40600 && KOKKOS_VERSION_MAJOR == 4 && KOKKOS_VERSION_MINOR == 6);
static_assert(KOKKOS_VERSION_GREATER_EQUAL(4, 0, 0) && KOKKOS_VERSION_LESS(5, 0, 0));
static_assert(std::is_same_v<Kokkos::HostSpace::execution_space, Kokkos::DefaultHostExecutionSpace>);
static_assert(std::is_same_v<Kokkos::HostSpace::device_type::memory_space, Kokkos::HostSpace>);
static_assert(std::is_same_v<Kokkos::SharedSpace::device_type::memory_space, Kokkos::SharedSpace>);
static_assert(
    std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space::execution_space, Kokkos::DefaultExecutionSpace>);
// SharedSpace is memory both the host and the default execution space reach (managed memory on GPU builds).
static_assert(Kokkos::SpaceAccessibility<Kokkos::DefaultExecutionSpace, Kokkos::SharedSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::SharedSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::DefaultExecutionSpace, Kokkos::SharedHostPinnedSpace>::accessible);
static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::SharedHostPinnedSpace>::accessible);
static_assert(Kokkos::is_view<Kokkos::View<double*>>::value && !Kokkos::is_view<double*>::value);
static_assert(Kokkos::is_view_v<const Kokkos::View<int**>>);

TEST_CASE("Kokkos::Timer measures wall-clock seconds and resets") {
  Kokkos::Timer t;
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const double a = t.seconds();
  CHECK(a >= 0.029);
  CHECK(a < 5.0);
  t.reset();
  CHECK(t.seconds() < a);
}

TEST_CASE(
    "Kokkos math functions in kernels give <cmath>'s values and independent references; constants are std::numbers'") {
  const int n = 257;
  Kokkos::View<double* [12]> out("math_out", n);
  Kokkos::parallel_for(
      "math", n, KOKKOS_LAMBDA(const int i) {
        const double x = 0.01 + 0.037 * i;
        out(i, 0) = Kokkos::sqrt(x);
        out(i, 1) = Kokkos::cbrt(x);
        out(i, 2) = Kokkos::exp(x / 4);
        out(i, 3) = Kokkos::log(x);
        out(i, 4) = Kokkos::pow(x, 1.5);
        out(i, 5) = Kokkos::fabs(-x) + Kokkos::abs(-i);  // abs of an int stays an int
        out(i, 6) = Kokkos::fmin(x, 3.0) + Kokkos::fmax(x, 3.0);
        out(i, 7) = Kokkos::fmod(x, 0.7);
        out(i, 8) = Kokkos::sin(x) * Kokkos::cos(x) + Kokkos::atan2(x, 2.0);
        out(i, 9) = Kokkos::Experimental::erf(x / 10) + Kokkos::tanh(x / 10);
        out(i, 10) = Kokkos::min(x, 2.5) + Kokkos::max(i, 100) + Kokkos::clamp(x, 1.0, 4.0);
        out(i, 11) = Kokkos::isnan(x) || Kokkos::isinf(x) || !Kokkos::isfinite(x) ? 1.0 : Kokkos::numbers::pi * x;
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < n; ++i) {
    const double x = 0.01 + 0.037 * i;
    CHECK(h(i, 0) == doctest::Approx(std::sqrt(x)).epsilon(1e-15));
    CHECK(h(i, 1) == doctest::Approx(std::cbrt(x)).epsilon(1e-15));
    CHECK(h(i, 2) == doctest::Approx(std::exp(x / 4)).epsilon(1e-15));
    CHECK(h(i, 3) == doctest::Approx(std::log(x)).epsilon(1e-14));
    CHECK(h(i, 4) == doctest::Approx(std::pow(x, 1.5)).epsilon(1e-15));
    CHECK(h(i, 5) == doctest::Approx(x + i).epsilon(1e-15));
    CHECK(h(i, 6) == doctest::Approx(std::fmin(x, 3.0) + std::fmax(x, 3.0)).epsilon(1e-15));
    CHECK(h(i, 7) == doctest::Approx(std::fmod(x, 0.7)).epsilon(1e-13));
    CHECK(h(i, 8) == doctest::Approx(std::sin(x) * std::cos(x) + std::atan2(x, 2.0)).epsilon(1e-14));
    CHECK(h(i, 9) == doctest::Approx(std::erf(x / 10) + std::tanh(x / 10)).epsilon(1e-14));
    CHECK(h(i, 10) == doctest::Approx(std::min(x, 2.5) + std::max(i, 100) + std::clamp(x, 1.0, 4.0)).epsilon(1e-15));
    CHECK(h(i, 11) == doctest::Approx(3.14159265358979323846 * x).epsilon(1e-15));
  }
  // The same against values computed independently (mpmath at 40 digits, of the double x the kernel computes): on the
  // host backends Kokkos:: forwards to std::, so the loop above alone could not catch a wrong forward.
  struct Ref {
    int i;
    double v[8];  // sqrt, cbrt, exp(x/4), log, pow(x, 1.5), fmod(x, 0.7), sin cos + atan2, erf + tanh
  };
  const Ref refs[] = {
      {0,
       {0.10000000000000000104, 0.21544346900318837367, 1.002503127605795085, -4.6051701859880913472,
        0.0010000000000000000312, 0.010000000000000000208, 0.014999291680624862168, 0.0021283784576360364242}},
      {1,
       {0.21679483388678799445, 0.36088260801386946921, 1.0118193024184848218, -3.0576076772720784629,
        0.010189357192679035763, 0.047000000000000000111, 0.070426490714076189064, 0.010003308427676731377}},
      {100,
       {1.9261360284258221414, 1.5480725260751601052, 2.5281808184188285953, 1.3110318766193436419,
        7.1459646654597992208, 0.20999999999999974243, 1.5300222363244348273, 0.75505572368424762854}},
      {256,
       {3.0792856314411625751, 2.1165733179187483562, 10.702742317650031793, 2.2493952644799265172,
        29.197786357325101436, 0.38199999999999989519, 1.4200146538167155477, 1.559032751064772072}},
  };
  const int column[8] = {0, 1, 2, 3, 4, 7, 8, 9};
  for (const Ref& r : refs)
    for (int c = 0; c < 8; ++c) {
      INFO("i = " << r.i << ", column " << column[c]);
      CHECK(h(r.i, column[c]) == doctest::Approx(r.v[c]).epsilon(4e-16 * 8));
    }
  CHECK(h(1, 11) == doctest::Approx(0.14765485471872028256).epsilon(4e-16));
  static_assert(std::is_same_v<decltype(Kokkos::abs(-3)), int>);
  static_assert(std::is_same_v<decltype(Kokkos::sqrt(2)), double>);  // integers compute in double, as std's
  static_assert(std::is_same_v<decltype(Kokkos::sqrt(2.0f)), float>);
  CHECK(Kokkos::numbers::pi_v<float> == std::numbers::pi_v<float>);
  CHECK(Kokkos::max({3, 9, -2}) == 9);
  CHECK(Kokkos::min({3, 9, -2}) == -2);
  CHECK(Kokkos::isnan(Kokkos::nan("")));
}

TEST_CASE("kokkos_malloc, kokkos_realloc and kokkos_free in the default memory space") {
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  const int n = 1000;
  auto* p = static_cast<double*>(Kokkos::kokkos_malloc<Mem>("raw_block", n * sizeof(double)));
  REQUIRE(p != nullptr);
  Kokkos::parallel_for(
      "fill_raw", n, KOKKOS_LAMBDA(const int i) { p[i] = 0.5 * i; });
  Kokkos::fence();
  auto* q = static_cast<double*>(Kokkos::kokkos_realloc<Mem>(p, 2 * n * sizeof(double)));  // grows, keeps the data
  Kokkos::View<double*, Mem, Kokkos::MemoryUnmanaged> qv(q, 2 * n);
  auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), qv);
  for (int i = 0; i < n; ++i) CHECK(hq(i) == 0.5 * i);
  auto* r = static_cast<double*>(Kokkos::kokkos_realloc<Mem>(q, 10 * sizeof(double)));  // shrinks
  Kokkos::View<double*, Mem, Kokkos::MemoryUnmanaged> rv(r, 10);
  auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rv);
  for (int i = 0; i < 10; ++i) CHECK(hr(i) == 0.5 * i);
  Kokkos::kokkos_free<Mem>(r);
  CHECK_THROWS_WITH_AS(Kokkos::kokkos_free<Mem>(r), doctest::Contains("was not allocated by kokkos_malloc"),
                       weft::Error);
  Kokkos::kokkos_free<Mem>(nullptr);  // as free(nullptr)
  void* h = Kokkos::kokkos_malloc<Kokkos::HostSpace>(64);
  CHECK_THROWS_WITH_AS(Kokkos::kokkos_free<Kokkos::DefaultHostExecutionSpace>(reinterpret_cast<char*>(h) + 8),
                       doctest::Contains("was not allocated"), weft::Error);
  Kokkos::kokkos_free<Kokkos::DefaultHostExecutionSpace>(h);  // an execution space names its memory space
}

enum Component { Density, MomentumX, MomentumY, Energy, NumComponents };

TEST_CASE("unscoped enumerators index Views; Array bounds for MDRangePolicy; Kokkos::Array") {
  const int nx = 13, ny = 7;
  Kokkos::View<double** [NumComponents]> U("U", nx, ny);
  Kokkos::parallel_for(
      "init_U", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({{0, 0}}, {{nx, ny}}), KOKKOS_LAMBDA(const int i, const int j) {
        U(i, j, Density) = 1.0 + i;
        U(i, j, MomentumX) = 0.5 * j;
        U(i, j, MomentumY) = i * j;
        U(i, j, Energy) = U(i, j, Density) + U(i, j, MomentumX);
      });
  Kokkos::Array<long, 3> lo{1, 2, 0}, hi{nx, ny, 3};
  double sum = 0;
  Kokkos::parallel_reduce(
      "sum_U", Kokkos::MDRangePolicy<Kokkos::Rank<3>>(lo, hi),
      KOKKOS_LAMBDA(const int i, const int j, const int c, double& acc) { acc += U(i, j, c); }, sum);
  double ref = 0;
  for (int i = 1; i < nx; ++i)
    for (int j = 2; j < ny; ++j) ref += (1.0 + i) + 0.5 * j + double(i) * j;
  CHECK(sum == ref);
  Kokkos::Array<double, 3> a{1.0, 2.0, 3.0};
  CHECK(a.size() == 3);
  CHECK(a[2] == 3.0);
  const auto [x, y, z] = a;
  CHECK(x + y + z == 6.0);
  Kokkos::Array<double, 3> b = a;
  CHECK(a == b);
  b[0] = 7;
  CHECK(a != b);
  [[maybe_unused]] Kokkos::Array<int, 0> empty{};  // size() is static: nvcc sees no use
  CHECK(empty.size() == 0);
  Kokkos::View<Kokkos::Array<double, 3>*> av("arrays", 8);
  Kokkos::parallel_for(
      "fill_arrays", 8, KOKKOS_LAMBDA(const int i) {
        for (int k = 0; k < 3; ++k) av(i)[k] = i * 10 + k;
      });
  auto hav = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), av);
  CHECK(hav(7)[2] == 72);
}

TEST_CASE("ViewAllocateWithoutInitializing and create_mirror_view(WithoutInitializing, ...)") {
  Kokkos::View<double*> v(Kokkos::ViewAllocateWithoutInitializing("uninit"), 100);
  CHECK(v.label() == "uninit");
  CHECK(v.extent(0) == 100);
  Kokkos::deep_copy(v, 3.0);
  auto hm = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, v);
  Kokkos::deep_copy(hm, v);
  CHECK(hm(99) == 3.0);
  auto hm2 = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, Kokkos::HostSpace(), v);
  CHECK(hm2.extent(0) == 100);
  auto hm3 = Kokkos::create_mirror(Kokkos::WithoutInitializing, Kokkos::HostSpace(), v);
  CHECK(hm3.data() != nullptr);
  Kokkos::View<double*> w(Kokkos::ViewAllocate("init"), 4);
  CHECK(w.label() == "init");
}

TEST_CASE("fill_random with a pool fills Views of any rank in the range; rand<Generator, T>::draw") {
  Kokkos::Random_XorShift64_Pool<> pool(12345);
  Kokkos::View<double**> a("rand_a", 256, 256);
  Kokkos::fill_random(a, pool, 1.0);
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  double mean = 0, lo = 1, hi = 0;
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      mean += ha(i, j);
      lo = std::min(lo, ha(i, j));
      hi = std::max(hi, ha(i, j));
    }
  mean /= 65536.0;
  CHECK(lo >= 0.0);
  CHECK(hi < 1.0);
  CHECK(std::abs(mean - 0.5) < 0.01);  // the standard error is 0.0011
  Kokkos::View<int***> b("rand_b", 9, 8, 7);
  Kokkos::fill_random(Kokkos::DefaultExecutionSpace(), b, pool, -5, 6);
  Kokkos::fence();
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  int seen[11] = {};
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 7; ++k) {
        REQUIRE(hb(i, j, k) >= -5);
        REQUIRE(hb(i, j, k) < 6);
        ++seen[hb(i, j, k) + 5];
      }
  for (int c : seen) CHECK(c > 0);  // 504 draws over 11 values: each appears
  Kokkos::View<double**> a2("rand_a2", 256, 256);
  Kokkos::fill_random(a2, pool, 1.0);  // a second fill from the pool draws new numbers
  auto ha2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a2);
  int same = 0;
  for (int i = 0; i < 256; ++i) same += ha2(i, 0) == ha(i, 0);
  CHECK(same == 0);

  using gen_type = Kokkos::Random_XorShift64_Pool<>::generator_type;
  Kokkos::View<int*> bad("rand_bad", 1);
  Kokkos::parallel_for(
      "draw", 1000, KOKKOS_LAMBDA(const int) {
        auto g = pool.get_state();
        const double d = Kokkos::rand<gen_type, double>::draw(g, 2.0, 3.0);
        const int k = Kokkos::rand<gen_type, int>::draw(g, 10);
        const float f = Kokkos::rand<gen_type, float>::draw(g);
        const unsigned long long u = Kokkos::rand<gen_type, unsigned long long>::draw(g, 5ull, 9ull);
        if (!(d >= 2.0 && d < 3.0) || k < 0 || k >= 10 || !(f >= 0.0f && f < 1.0f) || u < 5 || u >= 9)
          Kokkos::atomic_add(&bad(0), 1);
        pool.free_state(g);
      });
  auto hbad = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bad);
  CHECK(hbad(0) == 0);
  CHECK(Kokkos::rand<gen_type, int>::max() == std::numeric_limits<int>::max());
}

TEST_CASE("require(policy, WorkItemProperty), memory_fence, printf, num_threads, tags, hwloc") {
  int count = 0;
  Kokkos::parallel_reduce(
      "hinted",
      Kokkos::Experimental::require(Kokkos::RangePolicy<>(0, 100),
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight |
                                        Kokkos::Experimental::WorkItemProperty::HintIrregular),
      KOKKOS_LAMBDA(const int, int& c) {
        Kokkos::memory_fence();
        ++c;
      },
      count);
  CHECK(count == 100);
  CHECK(Kokkos::printf("Kokkos::printf from the host: %d\n", 42) > 0);
  CHECK(Kokkos::num_threads() == Kokkos::DefaultHostExecutionSpace().concurrency());
  using team_policy = Kokkos::TeamPolicy<>;
  auto f = KOKKOS_LAMBDA(const team_policy::member_type&){};
  CHECK(team_policy(4, Kokkos::AUTO).team_size_max(f, Kokkos::ParallelForTag()) >= 1);
  CHECK(team_policy(4, Kokkos::AUTO).team_size_recommended(f, Kokkos::ParallelReduceTag()) >= 1);
  CHECK(Kokkos::hwloc::get_available_numa_count() >= 1);
  CHECK(Kokkos::hwloc::get_available_cores_per_numa() >= 1);
  KOKKOS_ASSERT(count == 100);
  int on_host = 0;
  KOKKOS_IF_ON_HOST((on_host = 1;))
  KOKKOS_IF_ON_DEVICE((on_host = 2;))
  CHECK(on_host == 1);
}

}  // namespace
