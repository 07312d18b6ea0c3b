// Must abort with a GpuEmu diagnostic: the lanes of a warp shuffle values of different sizes together (a double on
// lanes 0-15, a float on the others), which a GPU would not move as the program means.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::lane_id() < 16)
      (void)g::shfl_down(1.0, 1u);
    else
      (void)g::shfl_down(1.0f, 1u);
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("shuffle_sizes_differ", 1, 32, 0, Kernel{});
  return 0;
}
