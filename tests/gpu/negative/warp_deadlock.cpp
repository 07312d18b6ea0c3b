// Must abort with a GpuEmu diagnostic: a full-mask shuffle reached by only some lanes while the rest wait at a barrier.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::lane_id() < 8) (void)g::shfl(1, 0);
    g::sync_block();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::impl::GpuLaunchShape s;
  s.grid = {2, 1, 1};
  s.block = {64, 1, 1};
  s.shared_bytes = 256;
  weft::impl::EmuVendor::launch(weft::GpuEmu(), "warp_deadlock", s, Kernel{});
  return 0;
}
