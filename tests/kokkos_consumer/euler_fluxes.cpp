// A finite-volume shape: conserved variables indexed by an unscoped enum, MDRangePolicy bounds as Kokkos::Array
// ({{...}}), device math (sqrt, pow, fmax), Kokkos::Array values and a max reduction, against a serial loop.
#include <Kokkos_Core.hpp>
#include <Kokkos_MathematicalFunctions.hpp>

enum Var { RHO, MX, MY, E, NVAR };
constexpr double gamma_gas = 1.4;

KOKKOS_INLINE_FUNCTION double sound_speed(double rho, double mx, double my, double e) {
  const double p = (gamma_gas - 1) * (e - 0.5 * (mx * mx + my * my) / rho);
  return Kokkos::sqrt(gamma_gas * p / rho) + Kokkos::sqrt(mx * mx + my * my) / rho;
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int nx = 96, ny = 80;
    Kokkos::View<double** [NVAR]> U("U", nx, ny);
    Kokkos::parallel_for(
        "init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({{0, 0}}, {{nx, ny}}), KOKKOS_LAMBDA(int i, int j) {
          U(i, j, RHO) = 1.0 + 0.1 * Kokkos::sin(0.1 * i) * Kokkos::cos(0.2 * j);
          U(i, j, MX) = 0.05 * i / nx;
          U(i, j, MY) = -0.03 * j / ny;
          U(i, j, E) = 2.5 + Kokkos::pow(0.01 * (i + j), 2.0);
        });
    double cmax = 0;
    Kokkos::parallel_reduce(
        "cfl", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({{0, 0}}, {{nx, ny}}),
        KOKKOS_LAMBDA(int i, int j, double& m) {
          m = Kokkos::fmax(m, sound_speed(U(i, j, RHO), U(i, j, MX), U(i, j, MY), U(i, j, E)));
        },
        Kokkos::Max<double>(cmax));
    double ref = 0;
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) {
        const double rho = 1.0 + 0.1 * std::sin(0.1 * i) * std::cos(0.2 * j), mx = 0.05 * i / nx, my = -0.03 * j / ny,
                     e = 2.5 + std::pow(0.01 * (i + j), 2.0);
        const double p = (gamma_gas - 1) * (e - 0.5 * (mx * mx + my * my) / rho);
        ref = std::max(ref, std::sqrt(gamma_gas * p / rho) + std::sqrt(mx * mx + my * my) / rho);
      }
    Kokkos::Array<int, 2> lo = {1, 1}, hi = {nx - 1, ny - 1};
    Kokkos::View<Kokkos::Array<double, NVAR>*> mean("mean", 1);
    Kokkos::parallel_for(
        "means", 1, KOKKOS_LAMBDA(int) {
          for (int v = RHO; v < NVAR; ++v) mean(0)[v] = 0;
        });
    Kokkos::parallel_for(
        "interior", Kokkos::MDRangePolicy<Kokkos::Rank<2>>(lo, hi), KOKKOS_LAMBDA(int i, int j) {
          for (int v = RHO; v < NVAR; ++v) Kokkos::atomic_add(&mean(0)[v], U(i, j, v));
        });
    auto hmean = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mean);
    double ref_rho = 0;
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j) ref_rho += 1.0 + 0.1 * std::sin(0.1 * i) * std::cos(0.2 * j);
    const double err = Kokkos::fabs(cmax - ref) / ref, err_rho = Kokkos::fabs(hmean(0)[RHO] - ref_rho) / ref_rho;
    if (err > 1e-13 || err_rho > 1e-12) status = 1;
    std::printf("euler: max wave speed %.12f (relative error %.2g), interior density %.6f (%.2g) %s\n", cmax, err,
                hmean(0)[RHO], err_rho, status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
