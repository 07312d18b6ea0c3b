// Must stop (stream-order checker): the host reads managed memory a kernel on an instance writes, without
// fencing the instance first.
#define WEFT_BOUNDS_CHECK 1
#include <cstdio>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmuUVMSpace> v("managed", 100);
  weft::parallel_for("write_managed", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 100), [=](int i) { v(i) = i + 1.0; });
  const double seen = v(7);  // no inst[0].fence(): under lazy mode this is still 0
  inst[0].fence();
  std::printf("read %g\n", seen);
  return 0;
}
