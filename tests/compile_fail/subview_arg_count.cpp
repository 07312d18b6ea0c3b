// Must not compile: two subview arguments for a rank-3 View.
#include <weft/weft.hpp>

int main() {
  weft::View<double***> v("v", 2, 2, 2);
  auto s = weft::subview(v, 0, weft::ALL);
  return 0;
}
