// Must abort with a GpuEmu diagnostic: a full-mask shuffle reached by only some lanes while the rest wait at a barrier.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::lane_id() < 8) (void)g::shfl(1, 0);
    g::sync_block();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("warp_deadlock", 2, 64, 256, Kernel{});
  return 0;
}
