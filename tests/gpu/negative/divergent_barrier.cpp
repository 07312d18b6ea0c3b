// Must abort with a GpuEmu diagnostic: a __syncthreads that half the block skips.
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

struct Kernel {
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    if (g::thread_rank() < 32) g::sync_block();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::impl::GpuLaunchShape s;
  s.grid = {2, 1, 1};
  s.block = {64, 1, 1};
  s.shared_bytes = 256;
  weft::impl::EmuVendor::launch(weft::GpuEmu(), "divergent_barrier", s, Kernel{});
  return 0;
}
