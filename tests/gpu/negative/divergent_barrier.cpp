// Must abort with a GpuEmu diagnostic: a __syncthreads that half the block skips.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::thread_rank() < 32) g::sync_block();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("divergent_barrier", 2, 64, 256, Kernel{});
  return 0;
}
