// Must abort with a GpuEmu diagnostic: a shared-memory read past the end of the block's allocation.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    int* shared = reinterpret_cast<int*>(g::dynamic_shared());
    if (g::thread_rank() == 5) (void)g::shared_load(&shared[64]);  // 256 bytes = 64 ints
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::impl::GpuLaunchShape s;
  s.grid = {1, 1, 1};
  s.block = {64, 1, 1};
  s.shared_bytes = 256;
  weft::impl::EmuVendor::launch(weft::GpuEmu(), "shared_out_of_bounds", s, Kernel{});
  return 0;
}
