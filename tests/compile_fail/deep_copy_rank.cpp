// Must not compile: deep_copy between views of different ranks.
#include <weft/weft.hpp>

int main() {
  weft::View<double*> a("a", 4);
  weft::View<double**> b("b", 2, 2);
  weft::deep_copy(a, b);
  return 0;
}
