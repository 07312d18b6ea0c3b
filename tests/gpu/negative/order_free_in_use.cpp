// Must stop (stream-order checker): a host View goes out of scope while a copy queued on another instance
// still reads it.
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> d("d", 1000);
  {
    weft::View<double*, weft::HostSpace> h("h_source", 1000);
    for (int i = 0; i < 1000; ++i) h(i) = i;
    weft::deep_copy(inst[1], d, h);
  }  // h is freed here, the copy may not have run: inst[1].fence() belongs before the brace
  weft::fence();
  return 0;
}
