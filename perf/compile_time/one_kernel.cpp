// The compile-time probe: one View, one parallel_for, one parallel_reduce.
#include "api.hpp"

int main(int argc, char* argv[]) {
  ct::ScopeGuard guard(argc, argv);
  ct::View<double*> x("x", 1000);
  ct::parallel_for(
      "fill", 1000, CT_LAMBDA(int i) { x(i) = i; });
  double s = 0;
  ct::parallel_reduce(
      "sum", 1000, CT_LAMBDA(int i, double& a) { a += x(i); }, s);
  return s == 499500.0 ? 0 : 1;
}
