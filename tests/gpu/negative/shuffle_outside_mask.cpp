// Must abort with a GpuEmu diagnostic: a shuffle that reads a lane its mask excludes.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::lane_id() < 16) (void)g::shfl_down(1.0f, 8u, 0x0000ffffu, 32);
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::impl::GpuLaunchShape s;
  s.grid = {2, 1, 1};
  s.block = {64, 1, 1};
  s.shared_bytes = 256;
  weft::impl::EmuVendor::launch(weft::GpuEmu(), "shuffle_outside_mask", s, Kernel{});
  return 0;
}
