// Must not compile: three extents for a rank-2 View with one runtime extent.
#include <weft/weft.hpp>

int main() {
  weft::View<double* [3]> v("v", 4, 3, 2);
  return 0;
}
