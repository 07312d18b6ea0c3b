// The compile-time probe: one View, one parallel_for, one parallel_reduce.
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*> x("x", 1000);
  weft::parallel_for(
      "fill", 1000, WEFT_LAMBDA(int i) { x(i) = i; });
  double s = 0;
  weft::parallel_reduce(
      "sum", 1000, WEFT_LAMBDA(int i, double& a) { a += x(i); }, s);
  return s == 499500.0 ? 0 : 1;
}
