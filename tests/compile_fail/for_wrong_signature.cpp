// Must not compile: a parallel_for lambda that takes a pointer instead of an index.
#include <weft/weft.hpp>

int main() {
  weft::parallel_for(10, [](double*) {});
  return 0;
}
