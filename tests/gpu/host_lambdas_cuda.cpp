// CUDA builds: a user's kernels on the host spaces compile without nvcc's execution-space warnings
// (#20011/#20014, "calling a __host__ function from a __host__ __device__ function"), which this file's target
// turns into errors. Plain host lambdas and functors (Kokkos programs on DefaultHostExecutionSpace write them so)
// go through Weft's __host__ __device__ dispatch helpers, and WEFT_LAMBDAs (compiled for the device too) call the
// host team member's functions. Compiled only: test_parallel and test_team run the same patterns.
#include <cstdint>

#include <weft/weft.hpp>

namespace weft_host_lambdas {

struct PlainFunctor {  // no WEFT_INLINE_FUNCTION: a host-only functor
  weft::View<double*, weft::HostSpace> x;
  void operator()(int i) const { x(i) = 2.0 * i; }
  void operator()(int i, double& s) const { s += x(i); }
};

template <class E>
double patterns(int n) {
  weft::View<double*, E> x("x", n), y("y", n);
  double sum = 0, mx = 0;
  std::int64_t cnt = 0;
  // plain host lambdas: range, reduction (one and several results, a reducer), scan, MDRange
  weft::parallel_for("for", weft::RangePolicy<E>(0, n), [=](int i) { x(i) = i; });
  weft::parallel_reduce(
      "sum", weft::RangePolicy<E>(0, n), [=](int i, double& s) { s += x(i); }, sum);
  weft::parallel_reduce(
      "two", weft::RangePolicy<E>(0, n), [=](int i, double& s, std::int64_t& c) { s += x(i), c += 1; }, sum, cnt);
  weft::parallel_reduce(
      "max", weft::RangePolicy<E>(0, n), [=](int i, double& m) { m = x(i) > m ? x(i) : m; }, weft::Max<double>(mx));
  weft::parallel_scan("scan", weft::RangePolicy<E>(0, n), [=](int i, double& u, bool final) {
    u += x(i);
    if (final) y(i) = u;
  });
  weft::parallel_for("md", weft::MDRangePolicy<E, weft::Rank<2>>({0, 0}, {n, 2}), [=](int i, int j) { y(i) += j; });
  // host teams, with plain lambdas and with WEFT_LAMBDA: every member function and nested pattern
  using member = typename weft::TeamPolicy<E>::member_type;
  auto team_body = [=](const member& m) {
    const int l = m.league_rank();
    double s = 0;
    weft::parallel_for(weft::TeamThreadRange(m, n), [&](int i) { y(i) += l + m.team_size() + m.league_size(); });
    weft::parallel_reduce(
        weft::TeamThreadRange(m, n), [&](int i, double& a) { a += x(i); }, s);
    weft::parallel_scan(weft::TeamThreadRange(m, n), [&](int i, double& u, bool final) {
      u += x(i);
      if (final && l == 0) y(i) = u;
    });
    weft::parallel_for(weft::ThreadVectorRange(m, 4), [&](int) {});
    weft::parallel_reduce(
        weft::ThreadVectorRange(m, 4), [&](int k, double& a) { a += k; }, s);
    m.team_barrier();
    int v = m.team_rank();
    m.team_broadcast(v, 0);
    m.team_reduce(weft::Max<int>(v));
    v = m.team_scan(v);
    weft::single(weft::PerTeam(m), [&]() { y(l) += v; });
    weft::single(weft::PerThread(m), [&]() { s += 1; });
    weft::single(
        weft::PerTeam(m), [&](double& b) { b = s; }, s);
    double* scratch = static_cast<double*>(m.team_scratch(0).get_shmem(sizeof(double)));
    if (scratch && m.team_rank() == 0) *scratch = s;
  };
  weft::parallel_for("teams", weft::TeamPolicy<E>(4, 1).set_scratch_size(0, weft::PerTeam(64)), team_body);
  weft::parallel_for(
      "teams (WEFT_LAMBDA)", weft::TeamPolicy<E>(4, 1), WEFT_LAMBDA(const member& m) {
        double s = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, n), [&](int i, double& a) { a += x(i); }, s);
        m.team_barrier();
        int v = m.team_rank();
        m.team_broadcast(v, 0);
        weft::single(weft::PerTeam(m), [&]() { y(m.league_rank()) = s + v; });
      });
  return sum + mx + static_cast<double>(cnt);
}

double all(int n) {
  weft::View<double*, weft::HostSpace> x("x", n);
  double s = 0;
  weft::parallel_for("functor", weft::RangePolicy<weft::DefaultHostExecutionSpace>(0, n), PlainFunctor{x});
  weft::parallel_reduce("functor", weft::RangePolicy<weft::DefaultHostExecutionSpace>(0, n), PlainFunctor{x}, s);
  s += patterns<weft::Serial>(n);
  s += patterns<weft::DefaultHostExecutionSpace>(n);  // OpenMP in the cuda presets
  return s;
}

}  // namespace weft_host_lambdas
