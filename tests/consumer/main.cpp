// Built against the installed Weft package: a reduction, summed over the ranks, whose closed form it checks.
#include <cstdio>

#include <weft/algorithms.hpp>
#include <weft/comm.hpp>
#include <weft/linalg.hpp>
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  const long n = 1000000;
  long sum = 0;
  weft::parallel_reduce(
      "consumer_sum", n, WEFT_LAMBDA(long i, long& acc) { acc += i; }, sum);
  auto world = weft::comm::world();
  const long total = world.allreduce(sum, weft::comm::Sum{});
  // linalg and algorithms from the installed package: a dot product and a sort, checked in closed form.
  weft::View<double*> x("x", 1000);
  weft::experimental::iota(weft::DefaultExecutionSpace(), x, 1.0);
  const double dot = weft::linalg::dot(weft::DefaultExecutionSpace(), x, x);  // sum of k^2, k = 1..1000
  weft::experimental::reverse(weft::DefaultExecutionSpace(), x);
  weft::sort(weft::DefaultExecutionSpace(), x);
  const bool sorted = weft::experimental::min_element(weft::DefaultExecutionSpace(), x) == 0 &&
                      weft::experimental::max_element(weft::DefaultExecutionSpace(), x) == 999;
  const bool ok = total == world.size() * (n * (n - 1) / 2) && dot == 1000.0 * 1001.0 * 2001.0 / 6.0 && sorted;
  std::printf("consumer on %s, %d rank(s) over %s: sum %ld %s\n", weft::DefaultExecutionSpace::name(), world.size(),
              weft::comm::to_string(world.backend()), total, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
