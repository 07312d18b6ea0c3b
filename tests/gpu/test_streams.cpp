// The README's stream-ordering rules on the device backend, and (GpuEmu) the emulated runtime's own
// semantics: the legacy stream's implicit synchronization, events, queries, and what lazy mode defers.
// Under WEFT_EMU_STREAMS=lazy every access not ordered after a kernel sees the data from before it, so these
// tests fail on code that copies on the wrong stream or forgets a fence; the stream-order checker (on) stops
// any unordered access the tests do not mean to make.
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test_common.hpp"

namespace {

using Dev = weft::DefaultExecutionSpace;
constexpr int n = 4099;

#if WEFT_HAS_GPU_EMU
namespace emu = weft::impl::emu;
bool lazy() { return std::string(emu::streams_mode()) == "lazy"; }
/// Whether everything enqueued on the instance has finished (cudaStreamQuery); never runs work.
bool idle(const weft::GpuEmu& e) { return emu::stream_query(e.impl_stream()) == emu::Status::success; }
#endif

/// Fills v(i) = scale * i + offset on `exec` (enqueued).
template <class V>
void fill_on(const Dev& exec, const V& v, double scale, double offset, const char* label = "fill") {
  weft::parallel_for(
      label, weft::RangePolicy<Dev>(exec, 0, int(v.extent(0))), WEFT_LAMBDA(int i) { v(i) = scale * i + offset; });
}

template <class H>
void check_values(const H& h, double scale, double offset) {
  int wrong = 0;
  for (int i = 0; i < int(h.extent(0)); ++i) wrong += h(i) != scale * i + offset;
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("rule 1: dispatches and deep_copy(exec, ...) on an instance only enqueue; one instance runs in order") {
  weft::View<double*, Dev> a("a", n), b("b", n);
  Dev exec;
  fill_on(exec, a, 2.0, 1.0);
#if WEFT_HAS_GPU_EMU
  if (lazy()) CHECK_FALSE(idle(exec));  // nothing has waited: the kernel is still queued
#endif
  weft::deep_copy(exec, b, a);  // ordered after the fill on the same instance
  weft::parallel_for(
      "double_b", weft::RangePolicy<Dev>(exec, 0, n), WEFT_LAMBDA(int i) { b(i) *= 2.0; });
#if WEFT_HAS_GPU_EMU
  if (lazy()) CHECK_FALSE(idle(exec));
#endif
  exec.fence();
#if WEFT_HAS_GPU_EMU
  CHECK(idle(exec));
#endif
  check_values(weft_test::on_host(b), 4.0, 2.0);
}

TEST_CASE("rule 2: exec.fence() waits for that instance only; weft::fence() for every instance") {
  auto instances = weft::experimental::partition_space(Dev(), 1, 1);
  const Dev& e0 = instances[0];
  const Dev& e1 = instances[1];
  weft::View<double*, Dev> a("a", n), b("b", n);
  fill_on(e0, a, 1.0, 0.0, "fill_a");
  fill_on(e1, b, 3.0, 0.0, "fill_b");
  e0.fence();
#if WEFT_HAS_GPU_EMU
  CHECK(idle(e0));
  if (lazy()) CHECK_FALSE(idle(e1));  // e0's fence did not wait for e1
#endif
  weft::fence();
#if WEFT_HAS_GPU_EMU
  CHECK(idle(e1));
#endif
  check_values(weft_test::on_host(a), 1.0, 0.0);
  check_values(weft_test::on_host(b), 3.0, 0.0);
}

TEST_CASE("rule 3: two-argument deep_copy waits for every instance and returns when the copy is done") {
  weft::View<double*, Dev> d("d", n), e("e", n);
  auto h = weft::create_mirror_view(d);
  SUBCASE("after a kernel on the default instance (the README's example)") {
    fill_on(Dev(), d, 5.0, -1.0);
    weft::deep_copy(h, d);  // was: a copy on the legacy stream, which Weft's non-blocking stream does not wait for
    check_values(h, 5.0, -1.0);
  }
  SUBCASE("after a kernel on another instance") {
    auto inst = weft::experimental::partition_space(Dev(), 1, 1);
    fill_on(inst[1], d, 7.0, 2.0);
    weft::deep_copy(h, d);  // was: waited for the default instance only
    check_values(h, 7.0, 2.0);
  }
  SUBCASE("host to device, then a kernel on another instance reads it without a fence") {
    for (int i = 0; i < n; ++i) h(i) = 0.5 * i;
    weft::deep_copy(d, h);
    auto inst = weft::experimental::partition_space(Dev(), 1, 1);
    const weft::View<const double*, Dev> dc = d;
    weft::parallel_for(
        "copy_on_other", weft::RangePolicy<Dev>(inst[0], 0, n), WEFT_LAMBDA(int i) { e(i) = dc(i) + 1.0; });
    inst[0].fence();
    check_values(weft_test::on_host(e), 0.5, 1.0);
  }
  SUBCASE("fill of device memory, then a host copy") {
    weft::deep_copy(d, 4.0);
    weft::deep_copy(h, d);
    check_values(h, 0.0, 4.0);
  }
  SUBCASE("non-contiguous device source into a host View (staged)") {
    weft::View<double**, weft::LayoutLeft, Dev> m("m", 7, 5);
    weft::parallel_for(
        "fill_m", weft::MDRangePolicy<Dev, weft::Rank<2>>({0, 0}, {7, 5}),
        WEFT_LAMBDA(int i, int j) { m(i, j) = 10.0 * i + j; });
    weft::View<double**, weft::LayoutRight, weft::HostSpace> hm("hm", 7, 5);
    weft::deep_copy(hm, m);
    int wrong = 0;
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 5; ++j) wrong += hm(i, j) != 10.0 * i + j;
    CHECK(wrong == 0);
  }
#if WEFT_HAS_GPU_EMU || WEFT_HAS_CUDA
  SUBCASE("managed memory a kernel on another instance writes, copied to the host") {
#if WEFT_HAS_GPU_EMU
    using Managed = weft::GpuEmuUVMSpace;
#else
    using Managed = weft::CudaUVMSpace;
#endif
    weft::View<double*, Managed> u("u", n);
    auto inst = weft::experimental::partition_space(Dev(), 1, 1);
    weft::parallel_for(
        "fill_u", weft::RangePolicy<Dev>(inst[1], 0, n), WEFT_LAMBDA(int i) { u(i) = 3.0 * i - 4.0; });
    weft::deep_copy(h, u);  // managed memory is not HostSpace: the copy waits for every instance first
    check_values(h, 3.0, -4.0);
  }
#endif
  SUBCASE("a scalar from a rank-0 device View") {
    weft::View<double, Dev> s("s");
    weft::parallel_for(
        "set_s", weft::RangePolicy<Dev>(0, 1), WEFT_LAMBDA(int) { s() = 42.5; });
    double v = 0;
    weft::deep_copy(v, s);  // was: a host read of device memory
    CHECK(v == 42.5);
  }
}

TEST_CASE("rule 3: deep_copy(exec, ...) stays on exec's stream and is done after exec.fence()") {
  auto inst = weft::experimental::partition_space(Dev(), 1, 1);
  const Dev& exec = inst[1];
  weft::View<double*, Dev> d("d", n);
  weft::View<double*, weft::HostSpace> h("h", n);
  fill_on(exec, d, 9.0, 3.0);
  weft::deep_copy(exec, h, d);  // was: a copy on the legacy stream, ordered after nothing on exec
#if WEFT_HAS_GPU_EMU
  if (lazy()) CHECK_FALSE(idle(exec));
#endif
  exec.fence();
  check_values(h, 9.0, 3.0);
}

TEST_CASE("rule 5's exception: a new device View is initialized for every instance, not only the default one") {
  // A block the pool hands out again still holds the old values; the initialization kernel runs on the default
  // instance, and a kernel on another instance must not see the old values.
  constexpr int m = 1 << 12;
  {
    weft::View<double*, Dev> old_data("old_data", m);
    weft::deep_copy(old_data, 7.0);
  }
  weft::View<double*, Dev> fresh("fresh", m);  // likely the same block: zeroed by a kernel on the default instance
  auto inst = weft::experimental::partition_space(Dev(), 1, 1);
  double sum = -1;
  weft::parallel_reduce(
      "sum_fresh", weft::RangePolicy<Dev>(inst[1], 0, m), WEFT_LAMBDA(int i, double& acc) { acc += fresh(i); }, sum);
  CHECK(sum == 0.0);
}

TEST_CASE("rule 4: a reduction into a scalar returns the value; into a View it only enqueues") {
  Dev exec;
  weft::View<double*, Dev> a("a", n);
  fill_on(exec, a, 1.0, 0.0);
  double s = 0;
  weft::parallel_reduce(
      "sum_scalar", weft::RangePolicy<Dev>(exec, 0, n), WEFT_LAMBDA(int i, double& acc) { acc += a(i); }, s);
  CHECK(s == double(n) * (n - 1) / 2);
  weft::View<double, Dev> r("r");
  weft::parallel_reduce(
      "sum_view", weft::RangePolicy<Dev>(exec, 0, n), WEFT_LAMBDA(int i, double& acc) { acc += 2.0 * a(i); }, r);
#if WEFT_HAS_GPU_EMU
  if (lazy()) CHECK_FALSE(idle(exec));
#endif
  exec.fence();
  double rv = 0;
  weft::deep_copy(rv, r);
  CHECK(rv == double(n) * (n - 1));
  std::int64_t total = 0;
  weft::parallel_scan(
      "scan_total", weft::RangePolicy<Dev>(exec, 0, n), WEFT_LAMBDA(int i, std::int64_t& u, bool) { u += i; }, total);
  CHECK(total == std::int64_t(n) * (n - 1) / 2);
}

TEST_CASE("rule 5: no other call fences") {
  Dev exec;
  weft::View<double*, Dev> a("a", n);
  fill_on(exec, a, 1.0, 0.0);
  const auto before = weft::impl::fence_counters();
  auto m = weft::create_mirror_view(Dev(), a);  // same space: a itself, no copy
  auto sub = weft::subview(a, weft::pair<int, int>(1, 10));
  weft::View<double*, Dev> copy = a;
  (void)exec.concurrency();
  CHECK(m.data() == a.data());
  CHECK(sub.extent(0) == 9);
  CHECK(copy.data() == a.data());
  CHECK(weft::impl::fence_counters().instance == before.instance);
  CHECK(weft::impl::fence_counters().global == before.global);
#if WEFT_HAS_GPU_EMU
  if (lazy()) CHECK_FALSE(idle(exec));
#endif
  exec.fence();
}

#if WEFT_HAS_GPU_EMU
// ---- the emulated runtime's own semantics --------------------------------------------------------------------
namespace {
struct Recorder {
  std::vector<int> order;
  std::function<void()> step(int k) {
    return [this, k] { order.push_back(k); };
  }
};
emu::Status launch(emu::stream_t s, Recorder& r, int k) {
  return emu::launch_kernel(s, "step", {1, 1, 1}, {1, 1, 1}, 0, r.step(k), {});
}
}  // namespace

TEST_CASE("emulated runtime: the legacy stream waits for blocking streams and they for it; non-blocking do not") {
  emu::stream_t blocking = nullptr, non_blocking = nullptr;
  REQUIRE(emu::stream_create(&blocking, emu::stream_blocking) == emu::Status::success);
  REQUIRE(emu::stream_create(&non_blocking, emu::stream_non_blocking) == emu::Status::success);
  Recorder r;
  REQUIRE(launch(non_blocking, r, 1) == emu::Status::success);
  REQUIRE(launch(blocking, r, 2) == emu::Status::success);
  REQUIRE(launch(nullptr, r, 3) == emu::Status::success);   // the legacy stream: after 2, not after 1
  REQUIRE(launch(blocking, r, 4) == emu::Status::success);  // after 3
  REQUIRE(emu::stream_sync(blocking) == emu::Status::success);
  if (lazy()) {
    CHECK(r.order == std::vector<int>{2, 3, 4});  // 1 is on a non-blocking stream: nothing waited for it
    CHECK(emu::stream_query(non_blocking) == emu::Status::not_ready);
  } else {
    std::vector<int> o = r.order;
    o.erase(std::remove(o.begin(), o.end(), 1), o.end());
    CHECK(o == std::vector<int>{2, 3, 4});
  }
  REQUIRE(emu::stream_sync(non_blocking) == emu::Status::success);
  CHECK(r.order.size() == 4);
  CHECK(emu::stream_destroy(blocking) == emu::Status::success);
  CHECK(emu::stream_destroy(non_blocking) == emu::Status::success);
}

TEST_CASE("emulated runtime: events order work across streams; queries never run work") {
  emu::stream_t s1 = nullptr, s2 = nullptr;
  REQUIRE(emu::stream_create(&s1, emu::stream_non_blocking) == emu::Status::success);
  REQUIRE(emu::stream_create(&s2, emu::stream_non_blocking) == emu::Status::success);
  emu::event_t e = nullptr;
  REQUIRE(emu::event_create(&e) == emu::Status::success);
  CHECK(emu::event_query(e) == emu::Status::success);  // never recorded: complete
  Recorder r;
  REQUIRE(launch(s1, r, 1) == emu::Status::success);
  REQUIRE(emu::event_record(e, s1) == emu::Status::success);
  REQUIRE(launch(s1, r, 3) == emu::Status::success);  // after the record: s2 does not wait for it
  REQUIRE(emu::stream_wait_event(s2, e) == emu::Status::success);
  REQUIRE(launch(s2, r, 2) == emu::Status::success);
  if (lazy()) {
    CHECK(emu::event_query(e) == emu::Status::not_ready);
    CHECK(r.order.empty());
  }
  REQUIRE(emu::stream_sync(s2) == emu::Status::success);
  if (lazy()) CHECK(r.order == std::vector<int>{1, 2});
  REQUIRE(emu::event_sync(e) == emu::Status::success);
  CHECK(emu::event_query(e) == emu::Status::success);
  REQUIRE(emu::device_sync() == emu::Status::success);
  CHECK(r.order.size() == 3);
  CHECK(std::find(r.order.begin(), r.order.end(), 1) < std::find(r.order.begin(), r.order.end(), 2));
  emu::event_destroy(e);
  emu::stream_destroy(s1);
  emu::stream_destroy(s2);
}

TEST_CASE("stream-order checker: a query that finds the work done orders the host after it, as a sync does") {
  // Weft's device pool hands a block freed on one stream to another once an event query finds the first stream's
  // work done (cudaEventQuery == cudaSuccess). The checker took that as unordered: Kokkos's instances exercise
  // stopped under WEFT_EMU_STREAMS=sync ("a memset on stream 3 writes memory while a memset on stream 2 ... may
  // still be running"). Under lazy streams a query never runs work, so nothing is ever found done early there.
  if (lazy()) return;
  weft::View<int*, weft::GpuEmu> d("d", 64);
  emu::stream_t s1 = nullptr, s2 = nullptr;
  REQUIRE(emu::stream_create(&s1, emu::stream_non_blocking) == emu::Status::success);
  REQUIRE(emu::stream_create(&s2, emu::stream_non_blocking) == emu::Status::success);
  emu::event_t e = nullptr;
  REQUIRE(emu::event_create(&e) == emu::Status::success);
  // An event query ...
  REQUIRE(emu::memset_async(d.data(), 1, 64 * sizeof(int), s1) == emu::Status::success);
  REQUIRE(emu::event_record(e, s1) == emu::Status::success);
  while (emu::event_query(e) != emu::Status::success) std::this_thread::yield();
  REQUIRE(emu::memset_async(d.data(), 2, 64 * sizeof(int), s2) == emu::Status::success);
  REQUIRE(emu::stream_sync(s2) == emu::Status::success);
  // ... and a stream query.
  REQUIRE(emu::memset_async(d.data(), 3, 64 * sizeof(int), s2) == emu::Status::success);
  while (emu::stream_query(s2) != emu::Status::success) std::this_thread::yield();
  REQUIRE(emu::memset_async(d.data(), 4, 64 * sizeof(int), s1) == emu::Status::success);
  REQUIRE(emu::stream_sync(s1) == emu::Status::success);
  CHECK(weft_test::on_host(d)(63) == 0x04040404);
  emu::event_destroy(e);
  emu::stream_destroy(s1);
  emu::stream_destroy(s2);
}

TEST_CASE("emulated runtime: copies and memsets are enqueued; a bad launch is reported at the launch") {
  weft::View<int*, weft::GpuEmu> d("d", 64);
  weft::View<int*, weft::HostSpace> h("h", 64);
  weft::GpuEmu exec;
  emu::stream_t s = exec.impl_stream();
  REQUIRE(emu::memset_async(d.data(), 1, 64 * sizeof(int), s) == emu::Status::success);
  REQUIRE(emu::memcpy_async(h.data(), d.data(), 64 * sizeof(int), s) == emu::Status::success);
  if (lazy()) CHECK(emu::stream_query(s) == emu::Status::not_ready);
  REQUIRE(emu::stream_sync(s) == emu::Status::success);
  CHECK(h(0) == 0x01010101);
  CHECK(h(63) == 0x01010101);
  CHECK(emu::launch_kernel(s, "too_big", {1, 1, 1}, {2048, 1, 1}, 0, [] {}, {}) == emu::Status::invalid_value);
  CHECK(emu::get_last_error() == emu::Status::invalid_value);
  CHECK(emu::get_last_error() == emu::Status::success);  // read and cleared
  CHECK_THROWS_WITH_AS(
      weft::parallel_for("too_many_threads", weft::TeamPolicy<weft::GpuEmu>(1, 2048), WEFT_LAMBDA(const auto&){}),
      doctest::Contains("team"), weft::Error);
}

TEST_CASE("emulated runtime: an exception in queued work is reported at the wait, naming the operation") {
  weft::GpuEmu exec;
  REQUIRE(emu::launch_kernel(exec.impl_stream(), "throws", {1, 1, 1}, {1, 1, 1}, 0,
                             [] { throw weft::Error("from the kernel"); }, {}) == emu::Status::success);
  // Work after it on the stream does not hide the failure: the wait reports the first one, as CUDA's sticky errors.
  REQUIRE(emu::launch_kernel(exec.impl_stream(), "fine", {1, 1, 1}, {1, 1, 1}, 0, [] {}, {}) == emu::Status::success);
  CHECK_THROWS_WITH_AS(exec.fence("the wait"), doctest::Contains("kernel \"throws\" failed: from the kernel"),
                       weft::Error);
  (void)emu::get_last_error();
  CHECK_NOTHROW(exec.fence("reported once"));
}

TEST_CASE("stream-order checker: ordered programs pass (same stream, fences, events, reads on two streams)") {
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> x("x", n), y("y", n), z("z", n);
  fill_on(inst[0], x, 1.0, 0.0, "write_x");
  inst[0].fence();
  const weft::View<const double*, weft::GpuEmu> xc = x;
  // Two instances read x at once: reads do not conflict.
  weft::parallel_for(
      "read_x_0", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, n), WEFT_LAMBDA(int i) { y(i) = xc(i) + 1; });
  weft::parallel_for(
      "read_x_1", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, n), WEFT_LAMBDA(int i) { z(i) = xc(i) + 2; });
  // A non-const capture that only reads is not a write: the checker compares the bytes.
  weft::parallel_for(
      "read_x_nonconst", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, n), WEFT_LAMBDA(int i) { z(i) += 0 * x(i); });
  // Disjoint halves of one View on two instances.
  auto lo = weft::subview(x, weft::pair<int, int>(0, n / 2));
  auto hi = weft::subview(x, weft::pair<int, int>(n / 2, n));
  weft::fence();
  weft::parallel_for(
      "lo", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, n / 2), WEFT_LAMBDA(int i) { lo(i) = -1; });
  weft::parallel_for(
      "hi", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, n - n / 2), WEFT_LAMBDA(int i) { hi(i) = -2; });
  weft::fence();
  auto hx = weft_test::on_host(x);
  CHECK(hx(0) == -1);
  CHECK(hx(n - 1) == -2);
  check_values(weft_test::on_host(y), 1.0, 1.0);
  check_values(weft_test::on_host(z), 1.0, 2.0);
}
TEST_CASE("stream-order checker: kernels are judged by the elements they touched, not the Views they hold") {
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::View<double*, weft::GpuEmu> x("x", n), held("held", n);
  weft::View<double**, weft::GpuEmu> grid("grid", 64, 64);
  weft::View<double*, weft::HostSpace> h("h", n);
  for (int i = 0; i < n; ++i) h(i) = 0.5 * i;
  // A functor that holds a View it never touches (as a Kokkos functor holding all its app's Views), and a copy
  // into that View on another instance: no conflict (Kokkos's tutorials' mpi_heat_conduction does this).
  struct Holder {
    weft::View<double*, weft::GpuEmu> x, held;
    WEFT_INLINE_FUNCTION void operator()(int i) const { x(i) = 3.0 * i; }
  };
  weft::parallel_for("holds_but_never_touches", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, n), Holder{x, held});
  weft::deep_copy(inst[1], held, h);
  // Interleaved elements of one View from two instances (even and odd columns of a grid; read-modify-write).
  weft::parallel_for(
      "even_columns", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 64 * 32),
      WEFT_LAMBDA(int k) { grid(k / 32, 2 * (k % 32)) += 1.0; });
  weft::parallel_for(
      "odd_columns", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, 64 * 32),
      WEFT_LAMBDA(int k) { grid(k / 32, 2 * (k % 32) + 1) += 2.0; });
  // The boundary rows of the grid on one instance, through a subview taken in the kernel (a subview's elements
  // count, not its parent), while the other instance reads x, written before on the first: ordered by the fence.
  weft::fence();
  weft::parallel_for(
      "boundary_rows", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 64), WEFT_LAMBDA(int j) {
        auto first = weft::subview(grid, 0, weft::ALL);
        auto last = weft::subview(grid, 63, weft::ALL);
        first(j) = -1.0;
        last(j) = -2.0;
      });
  weft::parallel_for(
      "interior_rows", weft::RangePolicy<weft::GpuEmu>(inst[1], 0, 62 * 64),
      WEFT_LAMBDA(int k) { grid(1 + k / 64, k % 64) *= 10.0; });
  weft::fence();
  auto hx = weft_test::on_host(x);
  check_values(hx, 3.0, 0.0);
  check_values(weft_test::on_host(held), 0.5, 0.0);
  auto hg = weft_test::on_host(grid);
  int wrong = 0;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) {
      const double want = r == 0 ? -1.0 : r == 63 ? -2.0 : (c % 2 == 0 ? 10.0 : 20.0);
      wrong += hg(r, c) != want;
    }
  CHECK(wrong == 0);
}
/// Holds a pinned View it never touches and waits, in concurrent mode, until the host has written that View.
struct WaitsForHost {
  weft::View<int*, weft::GpuEmuHostPinnedSpace> held;
  weft::View<int*, weft::GpuEmu> out;
  std::atomic<int>* started;
  std::atomic<int>* go;
  bool wait;
  void operator()(int) const {
    started->store(1);
    while (wait && go->load() == 0) std::this_thread::yield();
    out(0) = 1;
  }
};

TEST_CASE("stream-order checker: bytes a running kernel never touched may change meanwhile (the host writes them)") {
  weft::View<int*, weft::GpuEmuHostPinnedSpace> held("held", 64);
  weft::View<int*, weft::GpuEmu> out("out", 1);
  std::atomic<int> started{0}, go{0};
  // Concurrent mode runs the kernel on its stream's worker: it is running while the host writes `held`, so the
  // byte comparison after it ran sees `held` changed. The kernel never touched it: not the kernel's write (and
  // the host's write is no conflict with a kernel that does not touch the View). Other modes cannot overlap them.
  const bool concurrent = std::string(emu::streams_mode()) == "concurrent";
  auto inst = weft::experimental::partition_space(weft::GpuEmu(), 1, 1);
  weft::parallel_for("waits_for_host", weft::RangePolicy<weft::GpuEmu>(inst[0], 0, 1),
                     WaitsForHost{held, out, &started, &go, concurrent});
  while (concurrent && started.load() == 0) std::this_thread::yield();
  held(3) = 7;
  go.store(1);
  inst[0].fence();
  CHECK(weft_test::on_host(out)(0) == 1);
  CHECK(held(3) == 7);
}

#endif
