// Must stop (stream-order checker): deep_copy(exec, host, device) only enqueues; the host reads the
// destination before exec.fence().
#define WEFT_BOUNDS_CHECK 1
#include <cstdio>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::GpuEmu exec;
  weft::View<double*, weft::GpuEmu> d("d", 1000);
  weft::View<double*, weft::HostSpace> h("h_result", 1000);
  weft::parallel_for("fill_d", weft::RangePolicy<weft::GpuEmu>(exec, 0, 1000), [=](int i) { d(i) = i; });
  weft::deep_copy(exec, h, d);
  std::printf("h(3) = %g\n", h(3));  // missing exec.fence()
  exec.fence();
  return 0;
}
