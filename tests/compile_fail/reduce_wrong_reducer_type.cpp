// Must not compile: a double accumulator with a Sum<float> reducer.
#include <weft/weft.hpp>

int main() {
  float f = 0;
  weft::parallel_reduce(
      10, [](int, double& a) { a += 1; }, weft::Sum<float>(f));
  return 0;
}
