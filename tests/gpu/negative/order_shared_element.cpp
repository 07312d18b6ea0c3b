// Must stop (stream-order checker): kernels on two instances write one View's even and odd elements, which
// is no conflict, but the first also writes element 1, which the second writes too, with nothing ordering them.
// The checker judges by the elements each kernel touched, so only that element makes it a race.
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> v("v", 1000);
  weft::parallel_for("even", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 500), [=](int i) {
    v(2 * i) = i;
    if (i == 0) v(1) = -1;
  });
  weft::parallel_for("odd", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, 500), [=](int i) { v(2 * i + 1) = i; });
  weft::fence();
  return 0;
}
