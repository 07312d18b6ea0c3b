// Must not compile: a scan lambda without the final flag.
#include <weft/weft.hpp>

int main() {
  long total = 0;
  weft::parallel_scan(
      10, [](int, long& u) { u += 1; }, total);
  return 0;
}
