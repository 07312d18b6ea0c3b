// Built against the installed Weft package: a reduction whose closed form it checks.
#include <cstdio>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  const long n = 1000000;
  long sum = 0;
  weft::parallel_reduce(
      "consumer_sum", n, WEFT_LAMBDA(long i, long& acc) { acc += i; }, sum);
  const bool ok = sum == n * (n - 1) / 2;
  std::printf("consumer on %s: sum %ld %s\n", weft::DefaultExecutionSpace::name(), sum, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
