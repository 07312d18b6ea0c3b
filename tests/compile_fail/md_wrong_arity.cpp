// Must not compile: a rank-3 MDRangePolicy with a two-index functor.
#include <weft/weft.hpp>

int main() {
  weft::parallel_for(weft::MDRangePolicy<weft::Rank<3>>({0, 0, 0}, {2, 2, 2}), [](int, int) {});
  return 0;
}
