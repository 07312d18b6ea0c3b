// Must not compile: a TeamPolicy functor that takes an index.
#include <weft/weft.hpp>

int main() {
  weft::parallel_for(weft::TeamPolicy<>(4, 1), [](int) {});
  return 0;
}
