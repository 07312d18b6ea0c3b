// What deep_copy(host, device) did before it had impl::DeepCopy: a blocking copy on the legacy default stream,
// which Weft's non-blocking streams do not wait for. The stream-order checker stops it; with the checker off,
// lazy streams show the stale data the copy read (the kernel had not run).
#include <cstdio>
#include <cstring>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  weft::View<double*, weft::GpuEmu> d("d_device", 1000);
  weft::View<double*, weft::HostSpace> h("h", 1000);
  weft::parallel_for("fill_d", weft::RangePolicy<weft::GpuEmu>(0, 1000), [=](int i) { d(i) = i + 1.0; });
  namespace emu = weft::impl::emu;
  emu::memcpy_async(h.data(), d.data(), 1000 * sizeof(double), nullptr);  // the legacy stream
  emu::stream_sync(nullptr);
  std::printf("h(999) = %g: %s\n", h(999), h(999) == 1000.0 ? "current" : "stale");
  weft::fence();
  return 0;
}
