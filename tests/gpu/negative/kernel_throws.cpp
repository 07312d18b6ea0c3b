// Must abort: a functor that throws in a GpuEmu kernel. Device code cannot throw (nvcc refuses it); the emulator
// stops the program naming the kernel, the block, the thread and the exception, as for any other device fault.
#include <stdexcept>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmu> x("x", 64);
  weft::parallel_for("kernel_throws", weft::RangePolicy<weft::GpuEmu>(0, 64), [=](int i) {
    if (i == 37) throw std::runtime_error("bad element 37");
    x(i) = i;
  });
  weft::fence();
  return 0;
}
