// The compile-time probe of hierarchical parallelism: a team policy with level-0 scratch, nested
// TeamThreadRange for / reduce / scan, a team barrier and single().
#include "api.hpp"

int main(int argc, char* argv[]) {
  ct::ScopeGuard guard(argc, argv);
  using exec = ct::DefaultExecutionSpace;
  using member = ct::TeamPolicy<exec>::member_type;
  using scratch = ct::View<double*, exec::scratch_memory_space, ct::MemoryUnmanaged>;
  const int league = 64, n = 128;
  ct::View<double**> a("a", league, n);
  ct::View<double*> sums("sums", league), lasts("lasts", league);
  auto policy = ct::TeamPolicy<exec>(league, ct::AUTO).set_scratch_size(0, ct::PerTeam(scratch::shmem_size(n)));
  ct::parallel_for(
      "team", policy, CT_LAMBDA(const member& m) {
        const int l = m.league_rank();
        scratch tile(m.team_scratch(0), n);
        ct::parallel_for(ct::TeamThreadRange(m, n), [&](int i) { tile(i) = l + 0.5 * i; });
        m.team_barrier();
        double s = 0;
        ct::parallel_reduce(
            ct::TeamThreadRange(m, n), [&](int i, double& acc) { acc += tile(i); }, s);
        ct::parallel_scan(ct::TeamThreadRange(m, n), [&](int i, double& part, bool final) {
          part += tile(i);
          if (final) a(l, i) = part;
        });
        ct::single(ct::PerTeam(m), [&]() {
          sums(l) = s;
          lasts(l) = tile(n - 1);
        });
      });
  double total = 0;
  ct::parallel_reduce(
      "total", league, CT_LAMBDA(int l, double& acc) { acc += sums(l) - a(l, n - 1); }, total);
  return total == 0.0 ? 0 : 1;
}
