// Must abort with a GpuEmu diagnostic: a shared-memory read past the end of the block's allocation.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    int* shared = reinterpret_cast<int*>(g::dynamic_shared());
    if (g::thread_rank() == 5) (void)g::shared_load(&shared[64]);  // 256 bytes = 64 ints
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("shared_out_of_bounds", 1, 64, 256, Kernel{});
  return 0;
}
