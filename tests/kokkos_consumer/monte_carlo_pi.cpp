// The tutorials' dart sampler: a random pool, generators per thread, Kokkos::rand<Generator, T>::draw and
// fill_random, checked against pi within five standard errors.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

template <class GeneratorPool>
struct generate_random {
  using rnd_type = typename GeneratorPool::generator_type;
  Kokkos::View<long*> hits;
  GeneratorPool rand_pool;
  long samples;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    rnd_type rand_gen = rand_pool.get_state();
    long in = 0;
    for (long k = 0; k < samples; ++k) {
      const double x = Kokkos::rand<rnd_type, double>::draw(rand_gen, -1.0, 1.0);
      const double y = rand_gen.drand(-1.0, 1.0);
      if (x * x + y * y <= 1.0) ++in;
    }
    hits(i) = in;
    rand_pool.free_state(rand_gen);
  }
};

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int threads = 1024;
    const long samples = 1000;
    Kokkos::Random_XorShift64_Pool<> pool(5374857);
    Kokkos::View<long*> hits("hits", threads);
    Kokkos::parallel_for(threads, generate_random<Kokkos::Random_XorShift64_Pool<>>{hits, pool, samples});
    long in = 0;
    Kokkos::parallel_reduce(
        threads, KOKKOS_LAMBDA(int i, long& acc) { acc += hits(i); }, in);
    const double n = double(threads) * samples, p = Kokkos::numbers::pi / 4;
    const double estimate = 4.0 * in / n, sigma = 4.0 * Kokkos::sqrt(p * (1 - p) / n);
    if (Kokkos::fabs(estimate - Kokkos::numbers::pi) > 5 * sigma) status = 1;
    Kokkos::View<double**> u("u", 300, 200);
    Kokkos::fill_random(u, pool, 2.0, 4.0);
    double lo = 10, hi = 0, mean = 0;
    Kokkos::parallel_reduce(
        Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {300, 200}),
        KOKKOS_LAMBDA(int i, int j, double& m) { m += u(i, j); }, mean);
    auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
    for (int i = 0; i < 300; ++i)
      for (int j = 0; j < 200; ++j) {
        lo = Kokkos::min(lo, hu(i, j));
        hi = Kokkos::max(hi, hu(i, j));
      }
    mean /= 60000.0;
    if (lo < 2.0 || hi >= 4.0 || Kokkos::fabs(mean - 3.0) > 5 * (2.0 / Kokkos::sqrt(12.0 * 60000))) status = 1;
    std::printf("pi ~ %.5f (sigma %.5f); fill_random in [%.4f, %.4f), mean %.4f %s\n", estimate, sigma, lo, hi, mean,
                status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
