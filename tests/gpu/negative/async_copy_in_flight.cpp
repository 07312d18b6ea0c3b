// Must abort with a GpuEmu diagnostic: a thread reads shared memory its own asynchronous copy has not landed in
// (async_wait<1> leaves the only committed group in flight).
#include <weft/gpu/intrinsics.hpp>
#include <weft/weft.hpp>

#include "launch.hpp"

struct Kernel {
  const double* src;
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    double* shared = reinterpret_cast<double*>(g::dynamic_shared());
    const unsigned t = g::thread_rank();
    g::copy_async<8>(&shared[t], src + t, 8);
    g::async_commit();
    g::async_wait<1>();  // should be async_wait<0>
    (void)g::shared_load(&shared[t]);
    g::async_wait<0>();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmuSpace> src("src", 32);
  negative::launch("async_copy_in_flight", 1, 32, 256, Kernel{src.data()});
  return 0;
}
