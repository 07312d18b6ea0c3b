// Must abort: a View of HostSpace memory captured in a kernel of the device space (GpuEmu). On a GPU this
// is an illegal address; the emulator (bounds checks on) stops at the first access and names the View.
#define WEFT_BOUNDS_CHECK 1
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::HostSpace> host_view("host_view", 64);
  weft::parallel_for(
      "host_view_in_kernel", weft::RangePolicy<weft::GpuEmu>(0, 64), WEFT_LAMBDA(int i) { host_view(i) = i; });
  weft::fence();
  return 0;
}
