// weft-md: Lennard-Jones molecular dynamics in the style of miniMD. An FCC lattice (reduced density 0.8442)
// in a periodic box, velocities for temperature 1.44, velocity-Verlet with dt = 0.005, the LJ potential cut at
// 2.5 sigma and shifted to zero there. Neighbour lists (full, cutoff + skin 0.3) are rebuilt every 20 steps from
// cell lists made with an atomic count, an exclusive scan and a stable weft::sort_by_key of the atoms by cell
// (deterministic order: the same forces on every run and backend); forces run as a TeamPolicy kernel
// (one atom per thread, its neighbours over the vector lanes).
//
// Validation: (1) forces on a small perturbed lattice match an O(N^2) minimum-image loop on the host in long
// double to 1e-10 relative; (2) total energy drifts by at most 1e-3 of the kinetic energy over the run.
// Figure of merit: atom-steps per second.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <weft/algorithms.hpp>
#include <weft/weft.hpp>

#include "app_common.hpp"

namespace {
using Exec = weft_app::ExecSpace;
using Mem = Exec::memory_space;
using Vec3 = weft::View<double* [3], Mem>;
using IntV = weft::View<int*, Mem>;
using Neigh = weft::View<int**, weft::LayoutRight, Mem>;
using Range = weft::RangePolicy<Exec, weft::IndexType<std::int64_t>>;
using Team = weft::TeamPolicy<Exec>;

constexpr double density = 0.8442, temperature = 1.44, dt = 0.005, cutoff = 2.5, skin = 0.3;
constexpr int rebuild_every = 20;

/// SplitMix64: a counter-based hash, so every backend draws the same "random" numbers.
WEFT_INLINE_FUNCTION double uniform(std::uint64_t seed, std::uint64_t counter) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + counter * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0) - 0.5;  // [-0.5, 0.5)
}

struct Options {
  long n = 20;  // unit cells per dimension (4 atoms each)
  long steps = 100;
  bool progress = false;
  std::string json;
};

class Md {
 public:
  Md(long cells, double perturb, std::uint64_t seed)
      : cells_(cells),
        natoms_(4 * cells * cells * cells),
        box_(cells * std::cbrt(4.0 / density)),
        x_("x", natoms_),
        v_("v", natoms_),
        f_("f", natoms_) {
    const double rn = cutoff + skin;
    ncell_ = static_cast<int>(box_ / rn);
    if (ncell_ < 3)
      throw weft::Error("the box (" + std::to_string(box_) + " sigma) holds fewer than 3 neighbour cells of " +
                        std::to_string(rn) + " sigma per dimension; give at least --n 6");
    cell_of_ = IntV("cell_of", natoms_);
    count_ = IntV("cell_count", std::size_t(ncell_) * ncell_ * ncell_);
    offset_ = IntV("cell_offset", std::size_t(ncell_) * ncell_ * ncell_ + 1);
    fill_ = IntV("cell_sort_keys", natoms_);
    perm_ = IntV("cell_atoms", natoms_);
    numneigh_ = IntV("numneigh", natoms_);
    lattice(perturb, seed);
  }

  long natoms() const { return natoms_; }
  double box() const { return box_; }
  const Vec3& forces() const { return f_; }
  const Vec3& positions() const { return x_; }

  /// FCC positions (+ a perturbation of `perturb` lattice constants), velocities for the temperature.
  void lattice(double perturb, std::uint64_t seed) {
    auto x = x_, v = v_;
    const long c = cells_;
    const double a = box_ / static_cast<double>(c);
    weft::parallel_for(
        "md::lattice", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          const long cell = i / 4, b = i % 4, cx = cell / (c * c), cy = (cell / c) % c, cz = cell % c;
          const double off[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
          const long base[3] = {cx, cy, cz};
          for (int d = 0; d < 3; ++d) {
            x(i, d) = (static_cast<double>(base[d]) + off[b][d] + perturb * uniform(seed, 6 * i + d)) * a;
            v(i, d) = uniform(seed + 1, 6 * i + 3 + d);
          }
        });
    // Zero total momentum, then scale to the temperature.
    double p[3];
    for (int d = 0; d < 3; ++d) {
      double s = 0;
      weft::parallel_reduce(
          "md::momentum", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i, double& acc) { acc += v(i, d); }, s);
      p[d] = s / static_cast<double>(natoms_);
    }
    const double p0 = p[0], p1 = p[1], p2 = p[2];
    weft::parallel_for(
        "md::zero_momentum", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          v(i, 0) -= p0;
          v(i, 1) -= p1;
          v(i, 2) -= p2;
        });
    const double t = 2.0 * kinetic() / (3.0 * static_cast<double>(natoms_ - 1));
    const double s = std::sqrt(temperature / t);
    weft::parallel_for(
        "md::scale_velocities", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          for (int d = 0; d < 3; ++d) v(i, d) *= s;
        });
  }

  /// Cell lists (count, exclusive scan, fill), then full neighbour lists within cutoff + skin.
  void build_neighbors() {
    auto x = x_;
    auto cell_of = cell_of_, count = count_, offset = offset_, fill = fill_, perm = perm_;
    const int nc = ncell_;
    const double inv = static_cast<double>(nc) / box_;
    const std::int64_t ncells = std::int64_t(nc) * nc * nc;
    weft::deep_copy(exec_, count, 0);
    weft::parallel_for(
        "md::bin", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          int c[3];
          for (int d = 0; d < 3; ++d) {
            int k = static_cast<int>(x(i, d) * inv);
            c[d] = k < 0 ? 0 : (k >= nc ? nc - 1 : k);
          }
          const int id = (c[0] * nc + c[1]) * nc + c[2];
          cell_of(i) = id;
          weft::atomic_add(&count(id), 1);
        });
    weft::parallel_scan(
        "md::cell_offsets", Range(exec_, 0, ncells), WEFT_LAMBDA(std::int64_t c, int& upd, bool final) {
          if (final) offset(c) = upd;
          upd += count(c);
          if (final && c == ncells - 1) offset(ncells) = upd;
        });
    // The atoms of each cell, in atom order: a stable sort of the atom ids by cell (so the neighbour lists, and
    // with them the force sums, come out the same on every run and every backend).
    weft::deep_copy(exec_, fill, cell_of);
    weft::experimental::iota(exec_, perm, 0);
    weft::sort_by_key(exec_, fill, perm);
    for (;;) {
      if (neigh_.extent(1) == 0) neigh_ = Neigh("neighbors", natoms_, maxneigh_);
      const int most = fill_neighbors();
      if (most <= maxneigh_) break;
      maxneigh_ = most + most / 4;  // grow and rebuild: nothing is dropped
      neigh_ = Neigh();
    }
  }

  /// Forces from the neighbour lists (TeamPolicy: an atom per thread, its neighbours over the vector lanes).
  void compute_forces() {
    auto x = x_, f = f_;
    auto neigh = neigh_;
    auto numneigh = numneigh_;
    const double L = box_, rc2 = cutoff * cutoff;
    const std::int64_t n = natoms_;
    constexpr int vector = Exec::impl_is_host_space ? 1 : 8;
    constexpr int atoms_per_team = Exec::impl_is_host_space ? 64 : 16;
    const int league = static_cast<int>((n + atoms_per_team - 1) / atoms_per_team);
    weft::parallel_for(
        "md::forces", Team(exec_, league, Exec::impl_is_host_space ? 1 : atoms_per_team, vector),
        WEFT_LAMBDA(const Team::member_type& m) {
          const std::int64_t first = static_cast<std::int64_t>(m.league_rank()) * atoms_per_team;
          weft::parallel_for(weft::TeamThreadRange(m, atoms_per_team), [&](int t) {
            const std::int64_t i = first + t;
            if (i >= n) return;
            const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
            double fx = 0, fy = 0, fz = 0;
            weft::parallel_reduce(
                weft::ThreadVectorRange(m, numneigh(i)),
                [&](int k, double& ax, double& ay, double& az) {
                  const int j = neigh(i, k);
                  double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
                  dx -= L * rint(dx / L);
                  dy -= L * rint(dy / L);
                  dz -= L * rint(dz / L);
                  const double r2 = dx * dx + dy * dy + dz * dz;
                  if (r2 < rc2) {
                    const double sr2 = 1.0 / r2, sr6 = sr2 * sr2 * sr2;
                    const double fr = 48.0 * sr6 * (sr6 - 0.5) * sr2;
                    ax += fr * dx;
                    ay += fr * dy;
                    az += fr * dz;
                  }
                },
                fx, fy, fz);
            weft::single(weft::PerThread(m), [&]() {
              f(i, 0) = fx;
              f(i, 1) = fy;
              f(i, 2) = fz;
            });
          });
        });
  }

  /// Velocity-Verlet: half kick, drift (wrapped into the box), forces, half kick.
  void step(bool rebuild) {
    auto x = x_, v = v_, f = f_;
    const double L = box_;
    weft::parallel_for(
        "md::kick_drift", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          for (int d = 0; d < 3; ++d) {
            v(i, d) += 0.5 * dt * f(i, d);
            double y = x(i, d) + dt * v(i, d);
            y -= L * floor(y / L);
            x(i, d) = y < L ? y : 0.0;
          }
        });
    if (rebuild) build_neighbors();
    compute_forces();
    weft::parallel_for(
        "md::kick", Range(exec_, 0, natoms_), WEFT_LAMBDA(std::int64_t i) {
          for (int d = 0; d < 3; ++d) v(i, d) += 0.5 * dt * f(i, d);
        });
  }

  double kinetic() {
    auto v = v_;
    double k = 0;
    weft::parallel_reduce(
        "md::kinetic", Range(exec_, 0, natoms_),
        WEFT_LAMBDA(std::int64_t i, double& acc) {
          acc += 0.5 * (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
        },
        k);
    return k;
  }
  /// The shifted LJ energy from the neighbour lists (each pair is in both atoms' lists: halved).
  double potential() {
    auto x = x_;
    auto neigh = neigh_;
    auto numneigh = numneigh_;
    const double L = box_, rc2 = cutoff * cutoff;
    const double sr6c = 1.0 / (rc2 * rc2 * rc2), shift = 4.0 * sr6c * (sr6c - 1.0);
    double p = 0;
    weft::parallel_reduce(
        "md::potential", Range(exec_, 0, natoms_),
        WEFT_LAMBDA(std::int64_t i, double& acc) {
          for (int k = 0; k < numneigh(i); ++k) {
            const int j = neigh(i, k);
            double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
            dx -= L * rint(dx / L);
            dy -= L * rint(dy / L);
            dz -= L * rint(dz / L);
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < rc2) {
              const double sr2 = 1.0 / r2, sr6 = sr2 * sr2 * sr2;
              acc += 0.5 * (4.0 * sr6 * (sr6 - 1.0) - shift);
            }
          }
        },
        p);
    return p;
  }
  void fence() { exec_.fence(); }

  // The state and the neighbour-list fill stay public: nvcc's device lambdas may not sit in private member
  // functions.
  long cells_, natoms_;
  double box_;
  int ncell_ = 0, maxneigh_ = 96;
  Exec exec_;
  Vec3 x_, v_, f_;
  IntV cell_of_, count_, offset_, fill_, perm_, numneigh_;
  Neigh neigh_;

  /// Fills the lists up to their capacity and returns the largest count (larger than the capacity: rebuild).
  int fill_neighbors() {
    auto x = x_;
    auto cell_of = cell_of_, offset = offset_, perm = perm_, numneigh = numneigh_;
    auto neigh = neigh_;
    const int nc = ncell_, cap = maxneigh_;
    const double L = box_, rn2 = (cutoff + skin) * (cutoff + skin);
    int most = 0;
    weft::parallel_reduce(
        "md::neighbors", Range(exec_, 0, natoms_),
        WEFT_LAMBDA(std::int64_t i, int& mx) {
          const int c = cell_of(i), cx = c / (nc * nc), cy = (c / nc) % nc, cz = c % nc;
          int cnt = 0;
          for (int a = -1; a <= 1; ++a)
            for (int b = -1; b <= 1; ++b)
              for (int e = -1; e <= 1; ++e) {
                const int nb = (((cx + a + nc) % nc) * nc + (cy + b + nc) % nc) * nc + (cz + e + nc) % nc;
                for (int s = offset(nb); s < offset(nb + 1); ++s) {
                  const int j = perm(s);
                  if (j == i) continue;
                  double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
                  dx -= L * rint(dx / L);
                  dy -= L * rint(dy / L);
                  dz -= L * rint(dz / L);
                  if (dx * dx + dy * dy + dz * dz < rn2) {
                    if (cnt < cap) neigh(i, cnt) = j;
                    ++cnt;
                  }
                }
              }
          numneigh(i) = cnt < cap ? cnt : cap;
          mx = cnt > mx ? cnt : mx;
        },
        weft::Max<int>(most));
    return most;
  }
};

/// Forces of a small perturbed lattice against an O(N^2) minimum-image loop in long double.
double reference_force_error() {
  Md md(6, 0.05, 7);
  md.build_neighbors();
  md.compute_forces();
  md.fence();
  auto x = weft::create_mirror_view_and_copy(weft::HostSpace(), md.positions());
  auto f = weft::create_mirror_view_and_copy(weft::HostSpace(), md.forces());
  const long n = md.natoms();
  const long double L = md.box(), rc2 = cutoff * cutoff;
  double worst = 0, scale = 0;
  for (long i = 0; i < n; ++i) {
    long double ref[3] = {0, 0, 0};
    for (long j = 0; j < n; ++j) {
      if (j == i) continue;
      long double d[3], r2 = 0;
      for (int k = 0; k < 3; ++k) {
        d[k] = static_cast<long double>(x(i, k)) - x(j, k);
        d[k] -= L * std::nearbyint(d[k] / L);
        r2 += d[k] * d[k];
      }
      if (r2 >= rc2) continue;
      const long double sr2 = 1.0L / r2, sr6 = sr2 * sr2 * sr2, fr = 48.0L * sr6 * (sr6 - 0.5L) * sr2;
      for (int k = 0; k < 3; ++k) ref[k] += fr * d[k];
    }
    for (int k = 0; k < 3; ++k) {
      worst = std::max(worst, static_cast<double>(std::fabs(static_cast<long double>(f(i, k)) - ref[k])));
      scale = std::max(scale, static_cast<double>(std::fabs(ref[k])));
    }
  }
  return worst / scale;
}

int run(const Options& o) {
  weft_app::Progress progress("weft-md", o.progress);
  progress("reference forces (O(N^2) on the host)", true);
  const double force_err = reference_force_error();

  Md md(o.n, 0.0, 12345);
  md.build_neighbors();
  md.compute_forces();
  const double e0 = md.kinetic() + md.potential();
  const double k0 = md.kinetic();
  md.fence();
  const double t0 = weft_app::now();
  for (long s = 1; s <= o.steps; ++s) {
    md.step(s % rebuild_every == 0);
    progress("step " + std::to_string(s) + "/" + std::to_string(o.steps));
  }
  md.fence();
  const double elapsed = weft_app::now() - t0;
  const double k1 = md.kinetic(), e1 = k1 + md.potential();
  const double drift = std::fabs(e1 - e0) / k0;
  const bool ok = force_err <= 1e-10 && drift <= 1e-3;
  const double rate = static_cast<double>(md.natoms()) * static_cast<double>(o.steps) / elapsed;
  std::printf("weft-md: %ld atoms (%ld^3 FCC cells), box %.3f sigma, %ld steps, %s with %d thread(s)\n", md.natoms(),
              o.n, md.box(), o.steps, Exec::name(), weft_app::threads());
  std::printf("  time %.4f s: %.4g atom-steps per second\n", elapsed, rate);
  std::printf("  forces vs O(N^2) long-double reference (864 atoms): %.3e relative (limit 1e-10)\n", force_err);
  std::printf(
      "  energy per atom %.6f -> %.6f; drift %.3e of the kinetic energy (limit 1e-3); temperature %.4f -> %.4f\n",
      e0 / md.natoms(), e1 / md.natoms(), drift, 2.0 * k0 / (3.0 * (md.natoms() - 1)),
      2.0 * k1 / (3.0 * (md.natoms() - 1)));
  std::printf("Validation: %s\n", ok ? "PASSED" : "FAILED");
  weft_app::Result r;
  r.app = "weft-md";
  r.fom_name = "atom-steps per second";
  r.fom_unit = "atom-steps/s";
  r.fom = rate;
  r.valid = ok;
  char buf[200];
  std::snprintf(buf, sizeof buf, "force error %.2e <= 1e-10; energy drift %.2e <= 1e-3 of the kinetic energy",
                force_err, drift);
  r.validation = buf;
  r.metrics = {{"atoms", double(md.natoms())},
               {"steps", double(o.steps)},
               {"seconds", elapsed},
               {"force_error", force_err},
               {"energy_drift", drift}};
  r.write(o.json);
  return ok ? 0 : 1;
}
}  // namespace

const std::string kUsage = weft_app::usage_text(
    "weft-md",
    "Lennard-Jones molecular dynamics like miniMD (FCC lattice, velocity Verlet, neighbour lists); validated by\n"
    "the forces against an O(N^2) long-double loop and by the energy drift.",
    {{"--n N", "FCC unit cells per dimension, 4 N^3 atoms (at least 6)", "20"},
     {"--steps S", "velocity-Verlet steps of 0.005", "100"}});

int main(int argc, char* argv[]) {
  return weft_app::main(argc, argv, "weft-md", kUsage, [](weft_app::Args& args) {
    Options o;
    o.n = args.integer("--n", o.n, 1L << 12);
    o.steps = args.integer("--steps", o.steps, 1L << 30);
    o.progress = args.flag("--progress");
    o.json = args.text("--json", "");
    args.finish();
    if (4.0 * std::pow(static_cast<double>(o.n), 3) > 2.0e9)
      weft_app::usage_error("weft-md", "--n " + std::to_string(o.n) + " gives more than 2^31 atoms; Weft's md uses " +
                                           "32-bit atom indices: give a smaller --n");
    weft_app::check_memory("weft-md", 4.0 * std::pow(static_cast<double>(o.n), 3) * (10 * 8 + 100 * 4));
    return run(o);
  });
}
