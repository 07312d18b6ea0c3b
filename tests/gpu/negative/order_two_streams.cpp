// Must stop (stream-order checker): a kernel on a second instance reads what a kernel on the first writes,
// with nothing ordering them (no fence, no event).
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> x("x", 1000), y("y", 1000);
  weft::parallel_for("produce_x", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 1000), [=](int i) { x(i) = i; });
  const weft::View<const double*, weft::GpuEmu> xc = x;
  weft::parallel_for("consume_x", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, 1000), [=](int i) { y(i) = 2 * xc(i); });
  weft::fence();
  return 0;
}
