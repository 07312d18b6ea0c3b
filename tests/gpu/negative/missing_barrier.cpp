// Must abort with a GpuEmu diagnostic: a shared-memory read of another warp's write without a barrier.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    int* shared = reinterpret_cast<int*>(g::dynamic_shared());
    if (g::thread_rank() == 0) g::shared_store(&shared[0], 42);
    // missing: g::sync_block();
    if (g::thread_rank() == 40) (void)g::shared_load(&shared[0]);
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("missing_barrier", 1, 64, 256, Kernel{});
  return 0;
}
