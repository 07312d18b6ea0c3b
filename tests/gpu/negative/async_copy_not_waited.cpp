// Must abort with a GpuEmu diagnostic: a thread exits with an asynchronous copy it never waited for.
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
    // missing: g::async_wait<0>();
  }
};

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmuSpace> src("src", 32);
  negative::launch("async_copy_not_waited", 1, 32, 256, Kernel{src.data()});
  return 0;
}
