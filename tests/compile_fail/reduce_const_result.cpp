// Must not compile: a const result argument.
#include <weft/weft.hpp>

int main() {
  const double r = 0;
  weft::parallel_reduce(
      10, [](int, double& a) { a += 1; }, r);
  return 0;
}
