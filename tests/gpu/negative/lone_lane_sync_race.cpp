// Must abort with a GpuEmu diagnostic: lane 0 writes shared memory and lane 1 reads it, with only one-lane warp
// syncs between (each lane's mask is itself, as a team thread's vector segment at vector length 1). On a GPU
// such a sync orders nothing between lanes: a race, which the emulator must not take as ordered.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    int* shared = reinterpret_cast<int*>(g::dynamic_shared());
    if (g::thread_rank() == 0) g::shared_store(&shared[0], 42);
    g::sync_warp(1u << g::lane_id());
    g::sync_warp(1u << g::lane_id());
    if (g::thread_rank() == 1) (void)g::shared_load(&shared[0]);
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  negative::launch("lone_lane_sync_race", 1, 32, 256, Kernel{});
  return 0;
}
