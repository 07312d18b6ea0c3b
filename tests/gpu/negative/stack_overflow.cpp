// Must abort: a kernel that recurses past its emulated thread's stack. GpuEmu gives each thread a 64 KiB stack
// with a guard page below it; the fault is reported naming the kernel, the block and the thread, not as a bare
// segmentation fault (and never as a silent write into the next thread's stack).
#include <weft/weft.hpp>

namespace {
// Each frame holds 1 KiB the compiler cannot drop; 200 of them overflow 64 KiB.
__attribute__((noinline)) double deep(int n, double x) {
  volatile double frame[128];
  for (int i = 0; i < 128; ++i) frame[i] = x + i;
  return n == 0 ? frame[7] : deep(n - 1, frame[n % 128]) + frame[3];
}
}  // namespace

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmu> x("x", 64);
  weft::parallel_for("stack_overflow", weft::RangePolicy<weft::GpuEmu>(0, 64),
                     [=](int i) { x(i) = i == 0 ? deep(200, 1.0) : 0.0; });
  weft::fence();
  return 0;
}
