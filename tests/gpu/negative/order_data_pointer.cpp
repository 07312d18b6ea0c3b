// Must stop (stream-order checker): a kernel reads a View only through the pointer its data() returned while a
// kernel on another instance writes the View, with nothing ordering them. A raw pointer reaches elements the
// checker does not see one by one, so taking it in a kernel counts as touching the whole View.
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> x("x", 1000), y("y", 1000);
  weft::parallel_for("read_through_data", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 1000), [=](int i) {
    const double* p = x.data();
    y(i) = 2 * p[999 - i];
  });
  weft::parallel_for("write_x", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, 1000), [=](int i) { x(i) = i; });
  weft::fence();
  return 0;
}
