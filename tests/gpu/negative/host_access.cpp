// Must abort: host code reads a View of GpuEmuSpace (device memory) directly.
#define WEFT_BOUNDS_CHECK 1
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmu> device_view("device_view", 10);
  return device_view(3) == 0.0 ? 0 : 1;
}
