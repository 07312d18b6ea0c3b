// perf/comm: Weft's comm layer against raw MPI on the same buffers, in the same run, interleaved.
//  - allreduce of 2^20 doubles: Communicator::allreduce on Views vs MPI_Allreduce on the same memory
//    (the layer adds the cross-rank agreement check and the instance fence; WEFT_COMM_CHECKS=0 drops the first)
//  - halo exchange (faces, width 1) of a global 256^3 double grid: Halo::exchange vs a hand-written
//    pack (OpenMP loops) / MPI_Irecv / MPI_Isend / MPI_Waitall / unpack on the same View.
// Rank 0 prints medians over the repetitions and the ratio raw/Weft of times (>= 1 means Weft is as fast);
// usage: mpiexec -n R weft-perf-comm [--reps K] [--n N] [--count C]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <weft/comm.hpp>
#include <weft/comm/mpi.hpp>
#include <weft/weft.hpp>

namespace {
using Grid = weft::View<double***, weft::LayoutRight, weft::HostSpace>;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// The hand-written baseline: faces only, one message per neighbour, OpenMP pack and unpack.
struct RawHalo {
  MPI_Comm comm;
  const weft::comm::CartesianDecomposition& dec;
  Grid u;
  std::vector<std::vector<double>> sbuf, rbuf;
  std::vector<int> peer, dim, side;
  RawHalo(MPI_Comm c, const weft::comm::CartesianDecomposition& d, Grid g) : comm(c), dec(d), u(g) {
    for (int k = 0; k < 3; ++k)
      for (int s : {-1, 1}) {
        const int p = dec.neighbor(k, s);
        if (p < 0) continue;
        std::size_t count = 1;
        for (int e = 0; e < 3; ++e) count *= e == k ? 1 : static_cast<std::size_t>(dec.local_extent(e));
        sbuf.emplace_back(count);
        rbuf.emplace_back(count);
        peer.push_back(p);
        dim.push_back(k);
        side.push_back(s);
      }
  }
  template <bool Pack>
  void copy(std::size_t m, long plane) {
    const long n0 = dec.local_extent(0), n1 = dec.local_extent(1), n2 = dec.local_extent(2);
    double* b = Pack ? sbuf[m].data() : rbuf[m].data();
    Grid v = u;
    if (dim[m] == 0) {
#pragma omp parallel for
      for (long j = 1; j <= n1; ++j)
        for (long k = 1; k <= n2; ++k) {
          double& x = v(plane, j, k);
          double& y = b[(j - 1) * n2 + (k - 1)];
          if (Pack)
            y = x;
          else
            x = y;
        }
    } else if (dim[m] == 1) {
#pragma omp parallel for
      for (long i = 1; i <= n0; ++i)
        for (long k = 1; k <= n2; ++k) {
          double& x = v(i, plane, k);
          double& y = b[(i - 1) * n2 + (k - 1)];
          if (Pack)
            y = x;
          else
            x = y;
        }
    } else {
#pragma omp parallel for
      for (long i = 1; i <= n0; ++i)
        for (long j = 1; j <= n1; ++j) {
          double& x = v(i, j, plane);
          double& y = b[(i - 1) * n1 + (j - 1)];
          if (Pack)
            y = x;
          else
            x = y;
        }
    }
  }
  void exchange() {
    std::vector<MPI_Request> req;
    for (std::size_t m = 0; m < peer.size(); ++m) {
      req.emplace_back();
      MPI_Irecv(rbuf[m].data(), static_cast<int>(rbuf[m].size()), MPI_DOUBLE, peer[m], 40 + 2 * dim[m] + (side[m] < 0),
                comm, &req.back());
    }
    for (std::size_t m = 0; m < peer.size(); ++m) {
      const long n = dec.local_extent(dim[m]);
      copy<true>(m, side[m] < 0 ? 1 : n);
      req.emplace_back();
      MPI_Isend(sbuf[m].data(), static_cast<int>(sbuf[m].size()), MPI_DOUBLE, peer[m], 40 + 2 * dim[m] + (side[m] > 0),
                comm, &req.back());
    }
    MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
    for (std::size_t m = 0; m < peer.size(); ++m) {
      const long n = dec.local_extent(dim[m]);
      copy<false>(m, side[m] < 0 ? 0 : n + 1);
    }
  }
};
}  // namespace

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  int reps = 21;
  long n = 256;
  long count = 1L << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (a == "--n")
      n = std::atol(argv[i + 1]);
    else if (a == "--count")
      count = std::atol(argv[i + 1]);
  }
  auto world = weft::comm::world();
  MPI_Comm raw = weft::comm::mpi_comm(world);
  const int me = world.rank(), p = world.size();
  using Exec = weft::DefaultHostExecutionSpace;
  Exec exec;

  // ---- allreduce ---------------------------------------------------------------------------------------
  weft::View<double*, weft::HostSpace> send("send", count), recv("recv", count);
  weft::parallel_for(
      "init", weft::RangePolicy<Exec>(0, count), WEFT_LAMBDA(long i) { send(i) = 1.0 + me + 1e-3 * (i % 977); });
  std::vector<double> t_weft, t_raw;
  for (int r = 0; r < reps; ++r) {
    for (int which = 0; which < 2; ++which) {
      const bool weft_first = r % 2 == 0;
      const bool use_weft = (which == 0) == weft_first;
      MPI_Barrier(raw);
      const double t0 = MPI_Wtime();
      if (use_weft)
        world.allreduce(exec, send, recv, weft::comm::Sum{});
      else
        MPI_Allreduce(send.data(), recv.data(), static_cast<int>(count), MPI_DOUBLE, MPI_SUM, raw);
      double dt = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, raw);
      (use_weft ? t_weft : t_raw).push_back(dt);
    }
  }
  // Check the result once against the closed form.
  const double want = p * 1.0 + p * (p - 1) / 2.0 + p * 1e-3 * (5 % 977);
  if (std::abs(recv(5) - want) > 1e-9 * want) {
    std::fprintf(stderr, "rank %d: allreduce result %.17g, expected %.17g\n", me, recv(5), want);
    return 1;
  }
  const double aw = median(t_weft), ar = median(t_raw);

  // ---- halo exchange -----------------------------------------------------------------------------------
  weft::comm::CartesianDecomposition dec(world, {n, n, n});
  const long l0 = dec.local_extent(0), l1 = dec.local_extent(1), l2 = dec.local_extent(2);
  Grid u("u", l0 + 2, l1 + 2, l2 + 2);
  weft::parallel_for(
      "init", weft::MDRangePolicy<Exec, weft::Rank<3>>({0L, 0L, 0L}, {l0 + 2, l1 + 2, l2 + 2}),
      WEFT_LAMBDA(long i, long j, long k) { u(i, j, k) = me * 1e6 + i * 1e4 + j * 1e2 + k; });
  weft::comm::Halo<Grid> halo(dec, u, 1, weft::comm::HaloShape::faces);
  RawHalo baseline(raw, dec, u);
  std::vector<double> h_weft, h_raw;
  for (int r = 0; r < reps; ++r) {
    for (int which = 0; which < 2; ++which) {
      const bool use_weft = (which == 0) == (r % 2 == 0);
      MPI_Barrier(raw);
      const double t0 = MPI_Wtime();
      if (use_weft)
        halo.exchange(exec);
      else
        baseline.exchange();
      double dt = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, raw);
      (use_weft ? h_weft : h_raw).push_back(dt);
    }
  }
  const double hw = median(h_weft), hr = median(h_raw);
  if (me == 0) {
    std::printf("perf/comm: %d ranks, %s with %d thread(s) per rank, %d interleaved repetitions, medians\n", p,
                Exec::name(), exec.concurrency(), reps);
    std::printf("%-44s %12s %12s %10s\n", "benchmark", "weft (ms)", "raw (ms)", "raw/weft");
    std::printf("%-44s %12.4f %12.4f %10.3f\n", ("allreduce " + std::to_string(count) + " doubles").c_str(), aw * 1e3,
                ar * 1e3, ar / aw);
    std::printf("%-44s %12.4f %12.4f %10.3f\n",
                ("halo faces w=1, " + std::to_string(n) + "^3 doubles (" + std::to_string(dec.dims(0)) + "x" +
                 std::to_string(dec.dims(1)) + "x" + std::to_string(dec.dims(2)) + ")")
                    .c_str(),
                hw * 1e3, hr * 1e3, hr / hw);
  }
  return 0;
}
