// The same program in raw OpenMP: the floor for compile time.
#include <vector>

int main() {
  std::vector<double> x(1000);
#pragma omp parallel for
  for (int i = 0; i < 1000; ++i) x[i] = i;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 1000; ++i) s += x[i];
  return s == 499500.0 ? 0 : 1;
}
