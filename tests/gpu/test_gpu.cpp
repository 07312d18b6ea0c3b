// Weft's GPU kernels (backends/gpu/) on the device backend of this build: warp and block primitives
// against their CUDA semantics computed on the host, then every pattern through the public API with
// results checked on host mirrors, and block-order independence under shuffled block order (GpuEmu).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <weft/gpu/block.hpp>
#include <weft/gpu/mma.hpp>
#include <weft/gpu/parallel_scan.hpp>
#include <weft/gpu/pool.hpp>
#include <weft/gpu/warp.hpp>

#include "test_common.hpp"

namespace {

using Dev = weft::DefaultExecutionSpace;
using Vendor = typename Dev::impl_vendor;
using Shape = weft::impl::GpuLaunchShape;

template <class V>
auto to_host(const V& v) {
  return weft::create_mirror_view_and_copy(weft::HostSpace(), v);
}

// ---- warp primitives -------------------------------------------------------------------------------------
struct WarpOpsKernel {
  weft::View<double**, weft::LayoutRight, Dev> out;  // (thread, op)
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    const unsigned t = g::thread_rank() + g::block_idx().x * g::block_threads();
    const unsigned lane = g::lane_id();
    const double v = lane * 10.0 + g::block_idx().x * 1000.0 + 0.25;
    out(t, 0) = g::shfl(v, static_cast<int>((lane + 3) % 32));
    out(t, 1) = g::shfl_down(v, 5u);
    out(t, 2) = g::shfl_up(v, 2u, g::full_mask, 8);
    out(t, 3) = g::shfl_xor(v, 1, g::full_mask, 16);
    out(t, 4) = g::ballot(lane % 3 == 0);
    out(t, 5) = g::any(lane == 7) ? 1 : 0;
    out(t, 6) = g::all(lane < 40) ? 1 : 0;
    out(t, 7) = -1;
    if (lane < 16) out(t, 7) = g::shfl_down(v, 4u, 0x0000ffffu, 16);
  }
};

TEST_CASE("warp shuffles, ballots and votes follow CUDA semantics for full and partial masks") {
  const unsigned blocks = 3, threads = 64;
  WarpOpsKernel k{weft::View<double**, weft::LayoutRight, Dev>("out", blocks * threads, 8)};
  Shape s;
  s.grid = {blocks, 1, 1};
  s.block = {threads, 1, 1};
  Vendor::launch(Dev(), "warp_ops", s, k);
  auto h = to_host(k.out);
  int wrong = 0;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned i = 0; i < threads; ++i) {
      const unsigned t = b * threads + i, lane = i % 32;
      auto val = [&](unsigned l) { return l * 10.0 + b * 1000.0 + 0.25; };
      wrong += h(t, 0) != val((lane + 3) % 32);
      wrong += h(t, 1) != (lane + 5 < 32 ? val(lane + 5) : val(lane));
      wrong += h(t, 2) != ((lane % 8) >= 2 ? val(lane - 2) : val(lane));
      wrong += h(t, 3) != val(lane ^ 1);
      wrong += h(t, 4) != double(0x49249249u);  // lanes 0, 3, 6, ..., 30
      wrong += h(t, 5) != 1.0;
      wrong += h(t, 6) != 1.0;
      wrong += h(t, 7) != (lane < 16 ? (lane + 4 < 16 ? val(lane + 4) : val(lane)) : -1.0);
    }
  CHECK(wrong == 0);
}

// A value of three words, each different on every lane: a shuffle must move all three from the same lane.
struct Words3 {
  std::uint32_t a, b, c;
};
struct WideShuffleKernel {
  weft::View<std::uint32_t***, weft::LayoutRight, Dev> out;  // (thread, op, word)
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    const unsigned t = g::thread_rank() + g::block_idx().x * g::block_threads();
    const unsigned lane = g::lane_id(), blk = g::block_idx().x;
    const Words3 v{lane * 3u + 1u + blk * 100u, lane * 7u + 5u + blk * 1000u, ~(lane + blk * 64u)};
    Words3 r[5];
    r[0] = g::shfl(v, static_cast<int>((lane * 5 + 1) % 32));
    r[1] = g::shfl_down(v, 3u);
    r[2] = g::shfl_up(v, 1u, g::full_mask, 4);
    r[3] = g::shfl_xor(v, 6, g::full_mask, 8);
    r[4] = Words3{0, 0, 0};
    if (lane >= 16) r[4] = g::shfl(v, 17, 0xffff0000u, 32);
    for (int k = 0; k < 5; ++k) {
      out(t, k, 0) = r[k].a;
      out(t, k, 1) = r[k].b;
      out(t, k, 2) = r[k].c;
    }
  }
};

TEST_CASE("a shuffle of a multi-word value moves every word from the same source lane") {
  const unsigned blocks = 2, threads = 96;
  WideShuffleKernel k{weft::View<std::uint32_t***, weft::LayoutRight, Dev>("out", blocks * threads, 5, 3)};
  Shape s;
  s.grid = {blocks, 1, 1};
  s.block = {threads, 1, 1};
  Vendor::launch(Dev(), "wide_shuffles", s, k);
  auto h = to_host(k.out);
  int wrong = 0;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned i = 0; i < threads; ++i) {
      const unsigned t = b * threads + i, lane = i % 32;
      const unsigned src[5] = {(lane * 5 + 1) % 32, lane + 3 < 32 ? lane + 3 : lane, lane % 4 >= 1 ? lane - 1 : lane,
                               (lane ^ 6) / 8 == lane / 8 ? lane ^ 6 : lane, 17};
      for (int op = 0; op < 5; ++op) {
        const unsigned l = src[op];
        const bool zero = op == 4 && lane < 16;
        wrong += h(t, op, 0) != (zero ? 0u : l * 3u + 1u + b * 100u);
        wrong += h(t, op, 1) != (zero ? 0u : l * 7u + 5u + b * 1000u);
        wrong += h(t, op, 2) != (zero ? 0u : ~(l + b * 64u));
      }
    }
  CHECK(wrong == 0);
}

// Collectives whose mask is the calling lane alone (a team thread's vector segment at vector length 1): each lane
// shuffles and ballots with itself, in a warp whose lanes take different numbers of them (no common rendezvous).
struct LoneLaneKernel {
  weft::View<std::uint32_t**, weft::LayoutRight, Dev> out;  // (thread, {idx, down, xor, wide word 1, ballot, count})
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    const unsigned t = g::thread_rank(), lane = g::lane_id();
    const g::lane_mask_t me = 1u << lane;
    std::uint32_t v = t * 13u + 7u;
    std::uint32_t count = 0;
    for (unsigned k = 0; k <= lane % 3; ++k) {  // 1 to 3 one-lane syncs, differing between neighbouring lanes
      g::sync_warp(me);
      ++count;
    }
    out(t, 0) = g::shfl(v, static_cast<int>(lane), me, 32);
    out(t, 1) = g::shfl_down(v, 0u, me, 32);
    out(t, 2) = g::shfl_xor(v, 0, me, 32);
    const Words3 w{v, ~v, v + 1u};
    out(t, 3) = g::shfl(w, static_cast<int>(lane), me, 32).b;
    out(t, 4) = g::ballot(lane % 2 == 0, me);
    out(t, 5) = count;
  }
};

TEST_CASE("collectives of one lane alone complete on that lane") {
  const unsigned threads = 80;  // two full warps and a partial one
  LoneLaneKernel k{weft::View<std::uint32_t**, weft::LayoutRight, Dev>("out", threads, 6)};
  Shape s;
  s.block = {threads, 1, 1};
  Vendor::launch(Dev(), "lone_lane", s, k);
  auto h = to_host(k.out);
  int wrong = 0;
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % 32, v = t * 13u + 7u;
    wrong += h(t, 0) != v;
    wrong += h(t, 1) != v;
    wrong += h(t, 2) != v;
    wrong += h(t, 3) != ~v;
    wrong += h(t, 4) != (lane % 2 == 0 ? 1u << lane : 0u);
    wrong += h(t, 5) != lane % 3 + 1;
  }
  CHECK(wrong == 0);
}

// ---- block primitives ---------------------------------------------------------------------------------------
struct SumAdaptor {
  using value_type = std::int64_t;
  WEFT_FORCEINLINE_FUNCTION void init(value_type* v) const { *v = 0; }
  WEFT_FORCEINLINE_FUNCTION void join(value_type* d, const value_type* s) const { *d += *s; }
};

struct BlockKernel {
  weft::View<std::int64_t**, weft::LayoutRight, Dev> out;  // (thread, {reduce, exclusive scan, total})
  bool scan;
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    const unsigned r = g::thread_rank();
    const std::int64_t v = (r * 7) % 13 + 1;
    const SumAdaptor a;
    out(r, 0) = g::block_reduce(a, v, g::dynamic_shared());
    if (scan) {
      std::int64_t total = 0;
      out(r, 1) = g::block_exclusive_scan(a, v, &total, g::dynamic_shared());
      out(r, 2) = total;
    }
  }
};

TEST_CASE("block reduce and block exclusive scan, any block size") {
  for (unsigned n : {1u, 5u, 32u, 33u, 64u, 100u, 256u, 1000u, 1024u}) {
    INFO("block size " << n);
    const bool scan = true;
    BlockKernel k{weft::View<std::int64_t**, weft::LayoutRight, Dev>("out", n, 3), scan};
    Shape s;
    s.block = {n, 1, 1};
    s.shared_bytes = weft::gpu::BlockTemp<std::int64_t>::bytes(n);
    Vendor::launch(Dev(), "block_ops", s, k);
    auto h = to_host(k.out);
    std::int64_t total = 0;
    for (unsigned r = 0; r < n; ++r) total += (r * 7) % 13 + 1;
    std::int64_t run = 0;
    int wrong = 0;
    for (unsigned r = 0; r < n; ++r) {
      wrong += h(r, 0) != total;
      if (scan) {
        wrong += h(r, 1) != run;
        wrong += h(r, 2) != total;
      }
      run += (r * 7) % 13 + 1;
    }
    CHECK(wrong == 0);
  }
}

// ---- asynchronous copies ----------------------------------------------------------------------------------
// Each of 64 threads issues three groups of copies to its 48 bytes of shared memory (16 bytes; 5 of 8 bytes with
// the rest zero-filled, and 4 bytes all zero-filled; 16 bytes), reads its first two groups after async_wait<1>
// (its own copies: no barrier needed), then, after async_wait<0> and a barrier, its neighbour's third group.
struct AsyncCopyKernel {
  weft::View<unsigned char*, Dev> src;
  weft::View<std::uint32_t**, weft::LayoutRight, Dev> out;  // (thread, byte of its 28 + neighbour's 16)
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    const unsigned t = g::thread_rank();
    unsigned char* sh = reinterpret_cast<unsigned char*>(g::dynamic_shared());
    const unsigned char* s = src.data();
    g::copy_async<16>(sh + 48 * t, s + 16 * t, 16);
    g::async_commit();
    g::copy_async<8>(sh + 48 * t + 16, s + 1024 + 8 * t, 5);
    g::copy_async<4>(sh + 48 * t + 24, s + 2048 + 4 * t, 0);
    g::async_commit();
    g::copy_async<16>(sh + 48 * t + 32, s + 3072 + 16 * t, 16);
    g::async_commit();
    g::async_wait<1>();
    for (unsigned b = 0; b < 28; ++b) out(t, b) = g::shared_load(sh + 48 * t + b);
    g::async_wait<0>();
    g::sync_block();
    const unsigned u = (t + 1) % 64;
    for (unsigned b = 0; b < 16; ++b) out(t, 28 + b) = g::shared_load(sh + 48 * u + 32 + b);
  }
};

TEST_CASE("asynchronous global-to-shared copies: groups, waits, zero fill, 4, 8 and 16 bytes") {
  weft::View<unsigned char*, Dev> src("src", 4096);
  auto hs = weft::create_mirror_view(src);
  for (int i = 0; i < 4096; ++i) hs(i) = static_cast<unsigned char>((i * 37 + 11) % 251 + 1);  // never zero
  weft::deep_copy(src, hs);
  AsyncCopyKernel k{src, weft::View<std::uint32_t**, weft::LayoutRight, Dev>("out", 64, 44)};
  Shape s;
  s.block = {64, 1, 1};
  s.shared_bytes = 48 * 64;
  Vendor::launch(Dev(), "async_copy", s, k);
  Dev().fence();
  auto h = to_host(k.out);
  int wrong = 0;
  for (int t = 0; t < 64; ++t) {
    for (int b = 0; b < 16; ++b) wrong += h(t, b) != hs(16 * t + b);
    for (int b = 0; b < 8; ++b) wrong += h(t, 16 + b) != (b < 5 ? hs(1024 + 8 * t + b) : 0u);
    for (int b = 0; b < 4; ++b) wrong += h(t, 24 + b) != 0u;
    for (int b = 0; b < 16; ++b) wrong += h(t, 28 + b) != hs(3072 + 16 * ((t + 1) % 64) + b);
  }
  CHECK(wrong == 0);
}

// ---- ldmatrix ------------------------------------------------------------------------------------------------
// Four 8 x 8 matrices of 16-bit values v(i, row, col) = 64 i + 8 row + col + 1, rows 24 elements (48 bytes) apart;
// lane l points at row l % 8 of matrix l / 8 and receives both the plain and the transposed fragments.
struct LdmatrixKernel {
  weft::View<std::uint32_t***, weft::LayoutRight, Dev> out;  // (lane, register, transposed)
  WEFT_DEVICE void operator()() const {
    namespace g = weft::gpu;
    auto* sh = reinterpret_cast<std::uint16_t*>(g::dynamic_shared());
    const unsigned l = g::thread_rank();
    for (unsigned x = l; x < 4 * 8 * 8; x += 32) {
      const unsigned i = x / 64, row = (x / 8) % 8, col = x % 8;
      g::shared_store(sh + (8 * i + row) * 24 + col, static_cast<std::uint16_t>(x + 1));
    }
    g::sync_block();
    std::uint32_t r[4], rt[4];
    g::ldmatrix_x4<false>(r, sh + (8 * (l / 8) + l % 8) * 24);
    g::ldmatrix_x4<true>(rt, sh + (8 * (l / 8) + l % 8) * 24);
    for (int i = 0; i < 4; ++i) out(l, i, 0) = r[i], out(l, i, 1) = rt[i];
  }
};

TEST_CASE("ldmatrix_x4 gives mma_m16n8k16's fragment layout, plain and transposed") {
  LdmatrixKernel k{weft::View<std::uint32_t***, weft::LayoutRight, Dev>("out", 32, 4, 2)};
  Shape s;
  s.block = {32, 1, 1};
  s.shared_bytes = 32 * 24 * 2;
  Vendor::launch(Dev(), "ldmatrix", s, k);
  Dev().fence();
  auto h = to_host(k.out);
  auto v = [](unsigned i, unsigned row, unsigned col) { return 64 * i + 8 * row + col + 1; };
  int wrong = 0;
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned g = l / 4, t = l % 4;
      wrong += h(l, i, 0) != (v(i, g, 2 * t) | (v(i, g, 2 * t + 1) << 16));
      wrong += h(l, i, 1) != (v(i, 2 * t, g) | (v(i, 2 * t + 1, g) << 16));
    }
  CHECK(wrong == 0);
}

// ---- LaunchBounds ---------------------------------------------------------------------------------------------
TEST_CASE("LaunchBounds caps Weft's block sizes; a scan's 256-thread blocks under a smaller bound raise") {
  weft::View<unsigned*, Dev> seen("seen", 2);
  weft::parallel_for(
      "lb_range", weft::RangePolicy<Dev, weft::LaunchBounds<96>>(0, 10000),
      WEFT_LAMBDA(long) { weft::atomic_max(&seen(0), weft::gpu::block_dim().x); });
  weft::parallel_for(
      "lb_mdrange", weft::MDRangePolicy<Dev, weft::Rank<2>, weft::LaunchBounds<64, 4>>({0, 0}, {100, 100}, {16, 16}),
      WEFT_LAMBDA(long, long) { weft::atomic_max(&seen(1), weft::gpu::block_dim().x); });
  auto h = to_host(seen);
  CHECK(h(0) == 96);
  CHECK(h(1) == 64);
  long total = 0;
  CHECK_THROWS_WITH_AS(
      weft::parallel_scan(
          "lb_scan", weft::RangePolicy<Dev, weft::LaunchBounds<128>>(0, 1000),
          WEFT_LAMBDA(long i, long& s, bool) { s += i; }, total),
      doctest::Contains("kernel \"lb_scan\": a block of 256 threads is over the policy's LaunchBounds of 128"),
      weft::Error);
}

// ---- the public patterns ----------------------------------------------------------------------------------
TEST_CASE("parallel_for, parallel_reduce (every reducer, several at once, arrays) and parallel_scan") {
  for (const int n : {0, 1, 255, 257, 100003}) {
    INFO("n = " << n << ", seed 5");
    auto vals = weft_test::random_values<double>(n, 5, -50, 50);
    weft::View<double*, Dev> x("x", n);
    {
      auto hx = weft::create_mirror_view(x);
      for (int i = 0; i < n; ++i) hx(i) = vals[i];
      weft::deep_copy(x, hx);
    }
    long double ref = 0;
    double mn = n ? vals[0] : 0, mx = n ? vals[0] : 0;
    int mnl = 0, mxl = 0;
    for (int i = 0; i < n; ++i) {
      ref += vals[i];
      if (vals[i] < mn) mn = vals[i], mnl = i;
      if (vals[i] > mx) mx = vals[i], mxl = i;
    }
    double sum = -1;
    weft::parallel_reduce(
        "sum", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(int i, double& a) { a += x(i); }, sum);
    CHECK(sum == doctest::Approx(double(ref)).epsilon(1e-12));
    using MML = weft::MinMaxLoc<double, int>;
    MML::value_type mml{};
    std::int64_t count = 0;
    weft::parallel_reduce(
        "minmaxloc_and_count", weft::RangePolicy<Dev>(0, n),
        WEFT_LAMBDA(int i, MML::value_type& a, std::int64_t& c) {
          if (x(i) < a.min_val) a.min_val = x(i), a.min_loc = i;
          if (x(i) > a.max_val) a.max_val = x(i), a.max_loc = i;
          c += 1;
        },
        MML(mml), count);
    CHECK(count == n);
    if (n > 0) {
      CHECK(mml.min_val == mn);
      CHECK(mml.min_loc == mnl);
      CHECK(mml.max_val == mx);
      CHECK(mml.max_loc == mxl);
    }
    weft::View<std::int64_t*, Dev> ex("ex", n);
    std::int64_t total = -1;
    weft::parallel_scan(
        "scan", weft::RangePolicy<Dev>(0, n),
        WEFT_LAMBDA(int i, std::int64_t& u, bool final) {
          if (final) ex(i) = u;
          u += i % 17;
        },
        total);
    auto hex = to_host(ex);
    std::int64_t run = 0;
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += hex(i) != run;
      run += i % 17;
    }
    CHECK(wrong == 0);
    CHECK(total == run);
  }
}

struct Histogram {
  using value_type = long[];
  int value_count;
  weft::View<const int*, Dev> keys;
  WEFT_INLINE_FUNCTION void operator()(int i, long* bins) const { bins[keys(i)] += 1; }
};

TEST_CASE("array reductions, reductions into device Views, MDRange") {
  const int n = 5000, bins = 6;
  weft::View<int*, Dev> keys("keys", n);
  weft::parallel_for(
      "keys", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(int i) { keys(i) = (i * 5) % bins; });
  long counts[bins] = {};
  weft::parallel_reduce("hist", weft::RangePolicy<Dev>(0, n), Histogram{bins, keys}, counts);
  for (int b = 0; b < bins; ++b) CHECK(counts[b] == n / bins + ((5 * b) % bins < n % bins ? 1 : 0));  // i = 5b mod 6
  weft::View<double, Dev> into("into");
  weft::parallel_reduce(
      "into_view", weft::RangePolicy<Dev>(0, 100), WEFT_LAMBDA(int i, double& a) { a += i; }, into);
  double h = 0;
  weft::deep_copy(h, to_host(into));
  CHECK(h == 4950.0);
  weft::View<int***, Dev> cube("cube", 7, 9, 5);
  weft::parallel_for(
      "md", weft::MDRangePolicy<Dev, weft::Rank<3>>({0, 0, 0}, {7, 9, 5}),
      WEFT_LAMBDA(int i, int j, int k) { cube(i, j, k) = 100 * i + 10 * j + k; });
  long s = 0;
  weft::parallel_reduce(
      "md_sum", weft::MDRangePolicy<Dev, weft::Rank<3>>({1, 0, 0}, {7, 9, 5}),
      WEFT_LAMBDA(int i, int j, int k, long& a) { a += cube(i, j, k); }, s);
  auto hc = to_host(cube);
  long ref = 0;
  int wrong = 0;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 9; ++j)
      for (int k = 0; k < 5; ++k) {
        wrong += hc(i, j, k) != 100 * i + 10 * j + k;
        if (i >= 1) ref += 100 * i + 10 * j + k;
      }
  CHECK(wrong == 0);
  CHECK(s == ref);
}

TEST_CASE("teams: nested ranges, vector lanes, scans, broadcasts, single, level-0 and level-1 scratch") {
  using member = weft::TeamPolicy<Dev>::member_type;
  using scratch_view = weft::View<double*, Dev::scratch_memory_space, weft::MemoryUnmanaged>;
  const int league = 11, n = 70, vec = 4, ts = 8;
  weft::View<double*, Dev> row_sum("row_sum", league), totals("totals", league), vec_sum("vec_sum", league);
  weft::View<double**, Dev> prefix("prefix", league, n);
  weft::View<int*, Dev> bcast("bcast", league), singles("singles", league);
  auto policy = weft::TeamPolicy<Dev>(league, ts, vec)
                    .set_scratch_size(0, weft::PerTeam(scratch_view::shmem_size(n)), weft::PerThread(64))
                    .set_scratch_size(1, weft::PerTeam(scratch_view::shmem_size(n)));
  weft::parallel_for(
      "teams", policy, WEFT_LAMBDA(const member& m) {
        const int l = m.league_rank();
        scratch_view a(m.team_scratch(0), n);
        scratch_view big(m.team_scratch(1), n);
        weft::parallel_for(weft::TeamVectorRange(m, n), [&](int i) {
          a(i) = l + 0.5 * i;
          big(i) = 2.0;
        });
        m.team_barrier();
        double s = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, n), [&](int i, double& acc) { acc += a(i) * big(i); }, s);
        double total = 0;
        weft::parallel_scan(
            weft::TeamThreadRange(m, n),
            [&](int i, double& u, bool final) {
              if (final) prefix(l, i) = u;
              u += a(i);
            },
            total);
        double vs = 0;
        weft::parallel_for(weft::TeamThreadRange(m, 1), [&](int) {
          weft::parallel_reduce(
              weft::ThreadVectorRange(m, 10), [&](int k, double& acc) { acc += k; }, vs);
        });
        int value = m.team_rank() == 3 ? 700 + l : -1;
        m.team_broadcast(value, 3);
        weft::single(weft::PerTeam(m), [&]() {
          row_sum(l) = s;
          totals(l) = total;
          bcast(l) = value;
          weft::atomic_add(&singles(l), 1);  // once per team, not once per thread or lane
        });
        if (m.team_rank() == 0) weft::single(weft::PerThread(m), [&]() { vec_sum(l) = vs; });
      });
  auto hs = to_host(row_sum);
  auto ht = to_host(totals);
  auto hp = to_host(prefix);
  auto hb = to_host(bcast);
  auto hv = to_host(vec_sum);
  auto h1 = to_host(singles);
  int wrong = 0;
  for (int l = 0; l < league; ++l) {
    double run = 0;
    for (int i = 0; i < n; ++i) {
      wrong += hp(l, i) != run;
      run += l + 0.5 * i;
    }
    CHECK(hs(l) == 2 * run);
    CHECK(ht(l) == run);
    CHECK(hb(l) == 700 + l);
    CHECK(hv(l) == 45.0);
    CHECK(h1(l) == 1);
  }
  CHECK(wrong == 0);

  long total = 0;
  weft::parallel_reduce(
      "league_sum", weft::TeamPolicy<Dev>(50, weft::AUTO, 2),
      WEFT_LAMBDA(const member& m, long& acc) {
        long part = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, 10), [&](int i, long& t) { t += m.league_rank() * 10 + i; }, part);
        if (m.team_rank() == 0) acc += part;
      },
      total);
  CHECK(total == 499L * 500 / 2);
  CHECK_THROWS_WITH_AS(weft::parallel_for("bad_vector", weft::TeamPolicy<Dev>(1, 1, 3), WEFT_LAMBDA(const member&){}),
                       doctest::Contains("vector length 3 is not a power of two"), weft::Error);
}

// ---- the scan's decoupled look-back, driven with tile states set by hand ---------------------------------
// Hop = the run of tiles [first, last] joined so far and how many published values were joined: a join out
// of tile order poisons it (first = -2), and `count` shows where the walk stopped.
struct Hop {
  int first, last, count;  // first == -1: empty
};
struct HopAdaptor {
  using value_type = Hop;
  static constexpr bool is_array = false;
  WEFT_DEVICE void init(Hop* v) const { *v = Hop{-1, -1, 0}; }
  WEFT_DEVICE void join(Hop* d, const Hop* s) const {
    if (s->first == -1) return;
    if (d->first == -1)
      *d = *s;
    else if (d->first == -2 || s->first == -2 || d->last + 1 != s->first)
      d->first = -2;
    else
      *d = Hop{d->first, s->last, d->count + s->count};
  }
};
struct NoFunctor {
  WEFT_DEVICE void operator()(int, Hop&, bool) const {}
};
using ScanK = weft::impl::GpuScanKernel<NoFunctor, HopAdaptor, weft::RangePolicy<Dev>>;

struct LookBackProbe {
  ScanK k;
  unsigned tile;
  Hop aggregate;
  Hop* exclusive;
  WEFT_DEVICE void operator()() const {
    Hop* slot = reinterpret_cast<Hop*>(weft::gpu::dynamic_shared());
    k.look_back(tile, aggregate, slot);
    if (weft::gpu::thread_rank() == 0) *exclusive = weft::gpu::shared_load(slot);
  }
};

TEST_CASE("scan look-back: stops at the nearest inclusive prefix, joins aggregates in tile order, spans windows") {
  constexpr unsigned A = weft::impl::scan_flag_aggregate, P = weft::impl::scan_flag_prefix;
  struct Case {
    const char* what;
    unsigned tile;
    std::vector<int> prefix_tiles;  // tiles below `tile` that show P; the others show A
    int expect_count;
  };
  const Case cases[] = {
      {"P four windows back", 99, {5}, 1 + 93},
      {"no P at all: walks past tile 0", 99, {}, 99},
      {"several P in the nearest window", 99, {5, 70, 90}, 1 + 8},
      {"P on the nearest tile", 99, {40, 98}, 1},
      {"tile 0 needs no look-back", 0, {}, 0},
      {"short walk from tile 3", 3, {}, 3},
  };
  for (const Case& c : cases) {
    for (const bool last : {false, true}) {
      const std::string what = std::string(c.what) + (last ? ", last tile" : "");
      INFO(what);
      const unsigned tiles = c.tile + 1;
      weft::View<unsigned*, Dev> flags("flags", tiles);
      weft::View<Hop*, Dev> aggregates("aggregates", tiles), prefixes("prefixes", tiles), out("out", 2);
      auto hf = weft::create_mirror_view(flags);
      auto ha = weft::create_mirror_view(aggregates);
      auto hp = weft::create_mirror_view(prefixes);
      for (unsigned t = 0; t < c.tile; ++t) {
        hf(t) = A;
        ha(t) = Hop{int(t), int(t), 1};
        hp(t) = Hop{-2, -2, 1000};  // never to be read
      }
      for (const int t : c.prefix_tiles) {
        hf(t) = P;
        hp(t) = Hop{0, t, 1};
      }
      hf(c.tile) = 0;
      weft::deep_copy(flags, hf);
      weft::deep_copy(aggregates, ha);
      weft::deep_copy(prefixes, hp);
      auto hout = weft::create_mirror_view(out);
      hout(0) = hout(1) = Hop{-3, -3, -3};
      weft::deep_copy(out, hout);
      const std::int64_t n = last ? std::int64_t(tiles) * ScanK::Shape::tile : std::int64_t(1) << 40;
      ScanK k{NoFunctor{},     HopAdaptor{},  0, n, nullptr, flags.data(), aggregates.data(),
              prefixes.data(), out.data() + 1};
      const Hop mine{int(c.tile), int(c.tile), 1};
      Shape s;
      s.block = {unsigned(weft::gpu::warp_size), 1, 1};
      s.shared_bytes = sizeof(Hop);
      Vendor::launch(Dev(), "look_back", s, LookBackProbe{k, c.tile, mine, out.data()});
      const auto ex = to_host(out);
      const auto f = to_host(flags);
      const auto ag = to_host(aggregates);
      const auto pr = to_host(prefixes);
      if (c.tile == 0) {
        CHECK(ex(0).first == -1);
      } else {
        CHECK(ex(0).first == 0);
        CHECK(ex(0).last == int(c.tile) - 1);
      }
      CHECK(ex(0).count == c.expect_count);
      CHECK(f(c.tile) == P);
      if (c.tile > 0) CHECK(ag(c.tile).first == int(c.tile));
      CHECK(pr(c.tile).first == 0);
      CHECK(pr(c.tile).last == int(c.tile));
      CHECK(pr(c.tile).count == c.expect_count + 1);
      CHECK(ex(1).first == (last ? 0 : -3));  // the last tile writes the total
    }
  }
}

TEST_CASE("results do not depend on the order blocks run in (GpuEmu shuffled block order)") {
  const int n = 300001;
  weft::View<double*, Dev> x("x", n);
  weft::parallel_for(
      "x", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(int i) { x(i) = 1.0 / (1 + i % 97) - 0.013; });
  auto run = [&](std::int64_t* scan_last) {
    double s = 0;
    weft::parallel_reduce(
        "sum", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(int i, double& a) { a += x(i); }, s);
    weft::View<std::int64_t*, Dev> out("out", n);
    weft::parallel_scan(
        "scan", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(int i, std::int64_t& u, bool final) {
          if (final) out(i) = u;
          u += i % 5;
        });
    auto h = to_host(out);
    *scan_last = h(n - 1);
    return s;
  };
  std::int64_t last0 = 0;
  const double s0 = run(&last0);
#if WEFT_HAS_GPU_EMU
  for (unsigned seed : {1u, 2u, 3u}) {
    INFO("shuffle seed " << seed);
    weft::impl::emu::set_block_order(true, seed);
    std::int64_t last = 0;
    const double s = run(&last);
    CHECK(std::memcmp(&s, &s0, sizeof s) == 0);  // bitwise: partials are joined in block order
    CHECK(last == last0);
  }
  weft::impl::emu::set_block_order(false, 0);
#endif
  std::int64_t ref = 0;
  for (int i = 0; i < n - 1; ++i) ref += i % 5;
  CHECK(last0 == ref);
}

#if WEFT_HAS_GPU_EMU
TEST_CASE("device View allocations in a loop reuse the caching pool") {
  const auto before = weft::impl::gpuemu_pool().stats();
  for (int k = 0; k < 100; ++k) {
    weft::View<double*, Dev> v("loop", 1000 + k);  // 8000..8792 bytes: one size class
  }
  const auto after = weft::impl::gpuemu_pool().stats();
  CHECK(after.hits - before.hits >= 99);
  CHECK(after.misses - before.misses <= 1);
  CHECK(after.high_water >= 16384);
  CHECK(after.in_use == before.in_use);
}
#endif

namespace pool_hook {
int calls = 0;
}  // namespace pool_hook
TEST_CASE("the caching pool calls its before-cache hook on every free, before the block can be reused") {
  if (const char* m = std::getenv("WEFT_ALLOCATOR"); m && std::string(m) == "direct") return;
  pool_hook::calls = 0;
  weft::impl::CachingPool pool(
      "test", [](std::size_t b) { return std::malloc(b); }, [](void* p) { std::free(p); }, [] { ++pool_hook::calls; });
  void* a = pool.allocate(1000);
  void* b = pool.allocate(1000);
  CHECK(pool_hook::calls == 0);
  pool.deallocate(a, 1000);
  CHECK(pool_hook::calls == 1);
  void* c = pool.allocate(900);  // same size class: the cached block, handed out after the hook ran
  CHECK(c == a);
  pool.deallocate(b, 1000);
  pool.deallocate(c, 900);
  CHECK(pool_hook::calls == 3);
  CHECK(pool.stats().in_use == 0);
}

}  // namespace

#if WEFT_HAS_BOUNDS_CHECK
// A bounds error inside a device kernel names the View: the label is copied into the View's own memory space at
// allocation, where device code reads it (on a GPU the record's host-side label is out of the kernel's reach).
TEST_CASE("a device View's label is readable in device code, for bounds errors in kernels") {
  const std::string label = "device-side label probe";
  weft::View<double*, Dev> v(label, 7);
  const auto sub = weft::subview(v, std::make_pair(2, 5));  // subviews and copies carry it
  weft::View<int[2], Dev> same("same label");
  weft::parallel_for(
      weft::RangePolicy<Dev>(0, 1), WEFT_LAMBDA(int) {
        const char* want = "device-side label probe";
        const char* got[2] = {v.impl_track().device_label(), sub.impl_track().device_label()};
        for (int k = 0; k < 2; ++k) {
          int ok = got[k] != nullptr;
          for (int i = 0; ok && (want[i] != '\0' || got[k][i] != '\0'); ++i) ok = want[i] == got[k][i];
          same(k) = ok;
        }
      });
  const auto h = to_host(same);
  CHECK(h(0) == 1);
  CHECK(h(1) == 1);
  CHECK(weft::View<double*, weft::HostSpace>("host", 3).impl_track().device_label() == nullptr);  // host: none
}
#endif
