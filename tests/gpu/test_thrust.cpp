// weft/thrust.hpp (CUDA builds): Thrust's transform, sort_by_key, inclusive_scan and reduce on Weft Views through
// weft::begin/end, on a non-default instance through weft::thrust_policy, each checked against the same operation
// as a Weft kernel (or a host loop for the sort), on seeded random inputs. Compiled and linked in CI; runs on a GPU.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <weft/thrust.hpp>

#include "test_common.hpp"

namespace {

struct AffineOp {
  __host__ __device__ double operator()(double x) const { return 2.0 * x + 1.0; }
};

weft::Cuda second_instance() { return weft::experimental::partition_space(weft::Cuda(), 1, 1)[0]; }

}  // namespace

TEST_CASE("weft/thrust.hpp: transform, sort_by_key, inclusive_scan and reduce on Views, on an instance's stream") {
  const int n = 1 << 20;
  const weft::Cuda exec = second_instance();
  std::mt19937_64 gen(20261202);
  std::vector<double> hx(n);
  std::vector<std::uint32_t> hk(n);
  for (int i = 0; i < n; ++i) hx[i] = std::uniform_real_distribution<double>(-1, 1)(gen), hk[i] = gen() % 100000;
  weft::View<double*, weft::CudaSpace> x("x", n), y("y", n), want("want", n);
  weft::View<std::uint32_t*, weft::CudaSpace> keys("keys", n);
  weft::View<int*, weft::CudaSpace> idx("idx", n);
  weft_test::upload(x, hx);
  weft_test::upload(keys, hk);

  SUBCASE("transform") {
    thrust::transform(weft::thrust_policy(exec), weft::begin(x), weft::end(x), weft::begin(y), AffineOp{});
    weft::parallel_for(
        "reference", weft::RangePolicy<weft::Cuda>(exec, 0, n), WEFT_LAMBDA(int i) { want(i) = 2.0 * x(i) + 1.0; });
    exec.fence();
    auto got = weft_test::on_host(y);
    auto ref = weft_test::on_host(want);
    for (int i = 0; i < n; ++i) REQUIRE(got(i) == ref(i));
  }
  SUBCASE("sort_by_key: stable, the values follow their keys") {
    weft::parallel_for(
        "iota", weft::RangePolicy<weft::Cuda>(exec, 0, n), WEFT_LAMBDA(int i) { idx(i) = i; });
    thrust::stable_sort_by_key(weft::thrust_policy(exec), weft::begin(keys), weft::end(keys), weft::begin(idx));
    exec.fence();
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
    auto k = weft_test::on_host(keys);
    auto v = weft_test::on_host(idx);
    for (int i = 0; i < n; ++i) {
      REQUIRE(v(i) == order[i]);
      REQUIRE(k(i) == hk[order[i]]);
    }
  }
  SUBCASE("inclusive_scan and reduce") {
    thrust::inclusive_scan(weft::thrust_policy(exec), weft::begin(x), weft::end(x), weft::begin(y));
    weft::parallel_scan(
        "reference", weft::RangePolicy<weft::Cuda>(exec, 0, n), WEFT_LAMBDA(int i, double& s, bool final) {
          s += x(i);
          if (final) want(i) = s;
        });
    const double sum = thrust::reduce(weft::thrust_policy(exec), weft::begin(x), weft::end(x), 0.0);
    double weft_sum = 0;
    weft::parallel_reduce(
        "reference", weft::RangePolicy<weft::Cuda>(exec, 0, n), WEFT_LAMBDA(int i, double& s) { s += x(i); }, weft_sum);
    exec.fence();
    CHECK(sum == doctest::Approx(weft_sum).epsilon(1e-12));
    auto got = weft_test::on_host(y);
    auto ref = weft_test::on_host(want);
    for (int i = 0; i < n; i += 997) REQUIRE(got(i) == doctest::Approx(ref(i)).epsilon(1e-9));
  }
  SUBCASE("a strided View is refused with its label") {
    auto whole = weft::subview(x, std::make_pair(0, n));  // contiguous: accepted
    weft::View<double**, weft::LayoutLeft, weft::CudaSpace> m("matrix", 4, 4);
    auto row = weft::subview(m, 1, weft::ALL);  // stride 4
    CHECK_THROWS_WITH_AS(weft::begin(row), doctest::Contains("\"matrix\" has stride 4"), weft::Error);
    CHECK_NOTHROW(weft::begin(whole));
  }
}
