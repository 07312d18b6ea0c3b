// Must abort with a GpuEmu diagnostic: a shuffle that reads a lane its mask excludes.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::lane_id() < 16) (void)g::shfl_down(1.0f, 8u, 0x0000ffffu, 32);
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("shuffle_outside_mask", 2, 64, 256, Kernel{});
  return 0;
}
