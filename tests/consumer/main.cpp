// Built against the installed Weft package: a reduction, summed over the ranks, whose closed form it checks.
#include <cstdio>

#include <weft/comm.hpp>
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  const long n = 1000000;
  long sum = 0;
  weft::parallel_reduce(
      "consumer_sum", n, WEFT_LAMBDA(long i, long& acc) { acc += i; }, sum);
  auto world = weft::comm::world();
  const long total = world.allreduce(sum, weft::comm::Sum{});
  const bool ok = total == world.size() * (n * (n - 1) / 2);
  std::printf("consumer on %s, %d rank(s) over %s: sum %ld %s\n", weft::DefaultExecutionSpace::name(), world.size(),
              weft::comm::to_string(world.backend()), total, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
