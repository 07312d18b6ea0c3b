// Kokkos::Experimental::simd as Kokkos programs use it: a kernel over the default execution space that loads
// simd<double> chunks of Views, computes distances with Kokkos::sqrt, clamps them with where and adds them up with
// reduce (the lanes of a chunk past the end masked off), and a host loop with native_simd over
// simd_abi::ForSpace; each checked against a serial loop.
#include <Kokkos_Core.hpp>
#include <Kokkos_SIMD.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    using simd_t = Kokkos::Experimental::simd<double>;
    using mask_t = Kokkos::Experimental::simd_mask<double>;
    constexpr int width = static_cast<int>(simd_t::size());
    const int n = 10007;
    Kokkos::View<double*> x("x", n), y("y", n);
    auto hx = Kokkos::create_mirror_view(x);
    auto hy = Kokkos::create_mirror_view(y);
    for (int i = 0; i < n; ++i) hx(i) = std::sin(0.37 * i) * 3.0, hy(i) = std::cos(0.11 * i) * 2.0;
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(y, hy);

    double total = 0;
    Kokkos::parallel_reduce(
        "distances", (n + width - 1) / width,
        KOKKOS_LAMBDA(int c, double& acc) {
          const int i0 = c * width;
          const mask_t live([=](std::size_t lane) { return i0 + static_cast<int>(lane) < n; });
          simd_t vx(0.0), vy(0.0);
          Kokkos::Experimental::where(live, vx).copy_from(&x(i0), Kokkos::Experimental::simd_flag_default);
          Kokkos::Experimental::where(live, vy).copy_from(&y(i0), Kokkos::Experimental::simd_flag_default);
          simd_t d = Kokkos::sqrt(vx * vx + vy * vy);
          Kokkos::Experimental::where(d > simd_t(3.0), d) = simd_t(3.0);
          acc += Kokkos::Experimental::reduce(d, live, 0.0, std::plus<>());
        },
        total);
    double want = 0;
    for (int i = 0; i < n; ++i) want += std::min(std::sqrt(hx(i) * hx(i) + hy(i) * hy(i)), 3.0);
    if (std::abs(total - want) > 1e-9 * want) {
      std::printf("  Error: distances add up to %.15g, expected %.15g\n", total, want);
      status = 1;
    }

    // host: native_simd over the host space's ABI, element_aligned loads and stores
    using host_abi = Kokkos::Experimental::simd_abi::ForSpace<Kokkos::DefaultHostExecutionSpace>;
    using host_simd = Kokkos::Experimental::basic_simd<double, host_abi>;
    constexpr int hw = static_cast<int>(host_simd::size());
    const int m = n / hw * hw;
    for (int i = 0; i < m; i += hw) {
      host_simd a(&hx(i), Kokkos::Experimental::element_aligned_tag());
      host_simd b;
      b.copy_from(&hy(i), Kokkos::Experimental::simd_flag_default);
      const host_simd r = Kokkos::max(a, b) * 2.0 - Kokkos::abs(b);
      r.copy_to(&hx(i), Kokkos::Experimental::element_aligned_tag());
    }
    double worst = 0;
    for (int i = 0; i < m; ++i) {
      const double a = std::sin(0.37 * i) * 3.0, b = std::cos(0.11 * i) * 2.0;
      worst = std::max(worst, std::abs(hx(i) - (std::max(a, b) * 2.0 - std::abs(b))));
    }
    if (worst != 0) {
      std::printf("  Error: the host simd loop is off by %g\n", worst);
      status = 1;
    }
    std::printf("  simd: %d lanes in kernels, %d on the host, %d points: %s\n", width, hw, n,
                status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
