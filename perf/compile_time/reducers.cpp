// The compile-time probe of reductions: every built-in reducer once over the same data.
#include "api.hpp"

int main(int argc, char* argv[]) {
  ct::ScopeGuard guard(argc, argv);
  const int n = 1000;
  ct::View<double*> x("x", n);
  ct::parallel_for(
      "fill", n, CT_LAMBDA(int i) { x(i) = (i * 37) % 101 - 50.0; });
  double sum = 0, prod = 0, mn = 0, mx = 0;
  ct::parallel_reduce(
      "sum", n, CT_LAMBDA(int i, double& a) { a += x(i); }, ct::Sum<double>(sum));
  ct::parallel_reduce(
      "prod", 10, CT_LAMBDA(int i, double& a) { a *= 1.0 + x(i) / 100; }, ct::Prod<double>(prod));
  ct::parallel_reduce(
      "min", n, CT_LAMBDA(int i, double& a) { a = x(i) < a ? x(i) : a; }, ct::Min<double>(mn));
  ct::parallel_reduce(
      "max", n, CT_LAMBDA(int i, double& a) { a = x(i) > a ? x(i) : a; }, ct::Max<double>(mx));
  ct::MinLoc<double, int>::value_type minloc;
  ct::parallel_reduce(
      "minloc", n,
      CT_LAMBDA(int i, ct::MinLoc<double, int>::value_type& a) {
        if (x(i) < a.val) {
          a.val = x(i);
          a.loc = i;
        }
      },
      ct::MinLoc<double, int>(minloc));
  ct::MaxLoc<double, int>::value_type maxloc;
  ct::parallel_reduce(
      "maxloc", n,
      CT_LAMBDA(int i, ct::MaxLoc<double, int>::value_type& a) {
        if (x(i) > a.val) {
          a.val = x(i);
          a.loc = i;
        }
      },
      ct::MaxLoc<double, int>(maxloc));
  ct::MinMax<double>::value_type minmax;
  ct::parallel_reduce(
      "minmax", n,
      CT_LAMBDA(int i, ct::MinMax<double>::value_type& a) {
        if (x(i) < a.min_val) a.min_val = x(i);
        if (x(i) > a.max_val) a.max_val = x(i);
      },
      ct::MinMax<double>(minmax));
  ct::MinMaxLoc<double, int>::value_type mml;
  ct::parallel_reduce(
      "minmaxloc", n,
      CT_LAMBDA(int i, ct::MinMaxLoc<double, int>::value_type& a) {
        if (x(i) < a.min_val) {
          a.min_val = x(i);
          a.min_loc = i;
        }
        if (x(i) > a.max_val) {
          a.max_val = x(i);
          a.max_loc = i;
        }
      },
      ct::MinMaxLoc<double, int>(mml));
  bool all = false, any = false;
  ct::parallel_reduce(
      "land", n, CT_LAMBDA(int i, bool& a) { a = a && x(i) > -100; }, ct::LAnd<bool>(all));
  ct::parallel_reduce(
      "lor", n, CT_LAMBDA(int i, bool& a) { a = a || x(i) > 49; }, ct::LOr<bool>(any));
  unsigned band = 0, bor = 0;
  ct::parallel_reduce(
      "band", n, CT_LAMBDA(int i, unsigned& a) { a &= unsigned(i) | 0x100u; }, ct::BAnd<unsigned>(band));
  ct::parallel_reduce(
      "bor", n, CT_LAMBDA(int i, unsigned& a) { a |= unsigned(i); }, ct::BOr<unsigned>(bor));
  const bool ok = mn == -50 && mx == 50 && minloc.val == mn && maxloc.val == mx && minmax.min_val == mn &&
                  mml.max_val == mx && all && any && band == 0x100u && bor == 1023u && sum != 0 && prod != 0;
  return ok ? 0 : 1;
}
