// GpuEmu's memory model (<weft/emu/memory_model.hpp>): calibrated on access patterns whose sectors per request
// and shared-memory wavefronts are known (each expected figure computed here from the addresses or in closed
// form, not by the model's code), then the figures of Weft's own kernels, which are the GPU backends' memory
// efficiency targets (issue 19).
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <weft/algorithms/sort.hpp>
#include <weft/emu/memory_model.hpp>
#include <weft/gpu/work.hpp>
#include <weft/linalg/gemm.hpp>
#include <weft/linalg/gpu_gemm.hpp>

#include "test_common.hpp"

namespace {

using Dev = weft::GpuEmu;
using Vendor = typename Dev::impl_vendor;
using Shape = weft::impl::GpuLaunchShape;
namespace gpu = weft::gpu;
namespace emu = weft::gpuemu;

/// Turns the model on for one test case and forgets what earlier ones measured.
struct ModelOn {
  bool was = emu::memory_model();
  ModelOn() {
    weft::fence();
    emu::set_memory_model(true);
    emu::reset_memory_model();
  }
  ~ModelOn() {
    weft::fence();
    emu::set_memory_model(was);
    emu::reset_memory_model();
  }
};

emu::KernelFigures figures(const std::string& label) {
  weft::fence();
  return emu::memory_figures(label);
}

// ---- calibration: global memory ----------------------------------------------------------------------------
enum class GlobalMode { unit_double, unit_float, stride2_double, stride32_double, broadcast };

/// Element offset lane `l` of a warp reads in each pattern (its element type: float for unit_float).
std::size_t global_offset(GlobalMode m, unsigned warp, unsigned l) {
  switch (m) {
    case GlobalMode::unit_double:
    case GlobalMode::unit_float:
      return warp * 32 + l;
    case GlobalMode::stride2_double:
      return (warp * 32 + l) * 2;
    case GlobalMode::stride32_double:
      return (warp * 32 + l) * 32;
    case GlobalMode::broadcast:
      return warp;
  }
  return 0;
}

struct GlobalPattern {
  weft::View<double*, Dev> d;
  weft::View<float*, Dev> f;
  GlobalMode mode;
  WEFT_DEVICE void operator()() const {
    const unsigned t = gpu::thread_rank() + gpu::block_idx().x * gpu::block_threads();
    const std::size_t at = global_offset(mode, t / 32, t % 32);
    if (mode == GlobalMode::unit_float)
      (void)f(at);
    else
      (void)d(at);
  }
};

TEST_CASE("memory model: global sectors per request of known patterns (8, 4, 16, 32, 1)") {
  ModelOn on;
  const unsigned blocks = 2, threads = 64, warps = blocks * threads / 32;
  GlobalPattern k{weft::View<double*, Dev>("doubles", 32 * 32 * warps), weft::View<float*, Dev>("floats", 32 * warps),
                  GlobalMode::unit_double};
  REQUIRE(reinterpret_cast<std::uintptr_t>(k.d.data()) % 32 == 0);
  REQUIRE(reinterpret_cast<std::uintptr_t>(k.f.data()) % 32 == 0);
  const struct {
    GlobalMode mode;
    const char* label;
    double per_request;  // the closed form for 32-byte-aligned data
  } cases[] = {{GlobalMode::unit_double, "model unit double", 8},
               {GlobalMode::unit_float, "model unit float", 4},
               {GlobalMode::stride2_double, "model stride-2 double", 16},
               {GlobalMode::stride32_double, "model stride-32 double", 32},
               {GlobalMode::broadcast, "model broadcast", 1}};
  for (const auto& c : cases) {
    k.mode = c.mode;
    Shape s;
    s.grid = {blocks, 1, 1};
    s.block = {threads, 1, 1};
    Vendor::launch(Dev(), c.label, s, k);
    // The sectors each warp's request touches, from the addresses.
    std::uint64_t sectors = 0;
    const std::size_t elem = c.mode == GlobalMode::unit_float ? sizeof(float) : sizeof(double);
    const auto base = c.mode == GlobalMode::unit_float ? reinterpret_cast<std::uintptr_t>(k.f.data())
                                                       : reinterpret_cast<std::uintptr_t>(k.d.data());
    for (unsigned w = 0; w < warps; ++w) {
      std::set<std::uintptr_t> s32;
      for (unsigned l = 0; l < 32; ++l) s32.insert((base + global_offset(c.mode, w, l) * elem) / 32);
      sectors += s32.size();
    }
    const emu::KernelFigures f = figures(c.label);
    CAPTURE(c.label);
    CHECK(f.launches == 1);
    CHECK(f.global.requests == warps);
    CHECK(f.global.accesses == std::uint64_t(blocks) * threads);
    CHECK(f.global.sectors == sectors);
    CHECK(f.global.sectors_per_request() == doctest::Approx(c.per_request));
    CHECK(f.shared.requests == 0);
    // Named by the View the requests fall in.
    REQUIRE(f.views.size() == 1);
    CHECK(f.views[0].first == (c.mode == GlobalMode::unit_float ? "floats" : "doubles"));
  }
  // Ideal sectors: the fewest 32-byte sectors the distinct bytes could lie in.
  CHECK(figures("model unit double").global.excess() == doctest::Approx(1.0));
  CHECK(figures("model stride-2 double").global.ideal_sectors_per_request() == doctest::Approx(8.0));
  CHECK(figures("model stride-32 double").global.excess() == doctest::Approx(4.0));
  CHECK(figures("model broadcast").global.ideal_sectors_per_request() == doctest::Approx(1.0));
}

// ---- calibration: shared memory ----------------------------------------------------------------------------
enum class SharedMode { row, column, padded_column, unit_double, stride2_double, broadcast };

struct SharedPattern {
  SharedMode mode;
  WEFT_DEVICE void operator()() const {
    const float* tile = reinterpret_cast<const float*>(gpu::dynamic_shared());  // 32 x 32 (or 32 x 33) floats
    const double* dt = reinterpret_cast<const double*>(gpu::dynamic_shared());
    const unsigned l = gpu::lane_id();
    switch (mode) {
      case SharedMode::row:
        (void)gpu::shared_load(tile + l);
        break;
      case SharedMode::column:
        (void)gpu::shared_load(tile + l * 32);
        break;
      case SharedMode::padded_column:
        (void)gpu::shared_load(tile + l * 33);
        break;
      case SharedMode::unit_double:
        (void)gpu::shared_load(dt + l);
        break;
      case SharedMode::stride2_double:
        (void)gpu::shared_load(dt + 2 * l);
        break;
      case SharedMode::broadcast:
        (void)gpu::shared_load(tile + 5);
        break;
    }
  }
};

TEST_CASE("memory model: shared-memory wavefronts and bank conflicts of known patterns") {
  ModelOn on;
  // Closed forms over 32 banks of 4-byte words (word w in bank w % 32), one wavefront per distinct word a bank
  // serves:
  //   row of a float tile: words 0..31, one per bank                        -> 1 wavefront, 0 conflicts;
  //   column of a 32 x 32 float tile: words 32 l, all in bank 0             -> 32 wavefronts (32-way), 31;
  //   column of the tile padded to 33: words 33 l, bank l                   -> 1, 0;
  //   unit-stride doubles: words 2l, 2l + 1 = 0..63, two per bank           -> 2 (the two half-warps), 0;
  //   stride-2 doubles: words 4l, 4l + 1, banks 4l % 32: 4 words per bank   -> 4, ideal 2 (64 words), 2;
  //   one float for every lane (a broadcast)                                -> 1, 0.
  const struct {
    SharedMode mode;
    const char* label;
    unsigned wavefronts, conflicts;
  } cases[] = {{SharedMode::row, "shared row", 1, 0},
               {SharedMode::column, "shared column 32x32", 32, 31},
               {SharedMode::padded_column, "shared column 32x33", 1, 0},
               {SharedMode::unit_double, "shared unit double", 2, 0},
               {SharedMode::stride2_double, "shared stride-2 double", 4, 2},
               {SharedMode::broadcast, "shared broadcast", 1, 0}};
  const unsigned blocks = 3, threads = 96, warps = blocks * threads / 32;
  for (const auto& c : cases) {
    Shape s;
    s.grid = {blocks, 1, 1};
    s.block = {threads, 1, 1};
    s.shared_bytes = 32 * 33 * sizeof(float);
    Vendor::launch(Dev(), c.label, s, SharedPattern{c.mode});
    const emu::KernelFigures f = figures(c.label);
    CAPTURE(c.label);
    CHECK(f.shared.requests == warps);
    CHECK(f.shared.accesses == std::uint64_t(blocks) * threads);
    CHECK(f.shared.wavefronts == std::uint64_t(c.wavefronts) * warps);
    CHECK(f.shared.bank_conflicts() == std::uint64_t(c.conflicts) * warps);
    CHECK(f.global.requests == 0);
  }
}

TEST_CASE("memory model: requests form per warp between synchronization points, in lane-access order") {
  ModelOn on;
  // Each lane reads x(lane) and then x(lane + 32) before a barrier and x(lane + 64) after it: three requests
  // of 8 sectors per warp. Lanes 16-31 read one element more (x(lane + 96)) before the barrier: a fourth request
  // of half a warp (4 sectors).
  struct K {
    weft::View<double*, Dev> x;
    WEFT_DEVICE void operator()() const {
      const unsigned l = gpu::lane_id();
      (void)x(l);
      (void)x(l + 32);
      if (l >= 16) (void)x(l + 96);
      gpu::sync_block();
      (void)x(l + 64);
    }
  };
  Shape s;
  s.grid = {1, 1, 1};
  s.block = {32, 1, 1};
  Vendor::launch(Dev(), "model sync points", s, K{weft::View<double*, Dev>("x", 128)});
  const emu::KernelFigures f = figures("model sync points");
  CHECK(f.global.requests == 4);
  CHECK(f.global.sectors == 8 + 8 + 4 + 8);
  CHECK(f.global.accesses == 32 * 3 + 16);
}

TEST_CASE("memory model: figures of an unknown label are an error naming the labels seen") {
  ModelOn on;
  Shape s;
  s.grid = {1, 1, 1};
  s.block = {32, 1, 1};
  s.shared_bytes = 128;
  Vendor::launch(Dev(), "model known", s, SharedPattern{SharedMode::row});
  weft::fence();
  try {
    (void)emu::memory_figures("model unknown");
    FAIL("no error");
  } catch (const weft::Error& e) {
    const std::string m = e.what();
    CHECK(m.find("\"model unknown\"") != std::string::npos);
    CHECK(m.find("\"model known\"") != std::string::npos);
  }
  emu::reset_memory_model();
  CHECK(emu::memory_figures().empty());
  // Off: nothing is recorded.
  emu::set_memory_model(false);
  Vendor::launch(Dev(), "model off", s, SharedPattern{SharedMode::row});
  weft::fence();
  CHECK(emu::memory_figures().empty());
}

// ---- Weft's own kernels: the GPU backends' memory-efficiency targets ------------------------------------------
/// The ideal sectors per request of a warp whose lanes form groups of `lanes_per_row` consecutive elements of
/// `elem` bytes, each group starting on a 32-byte boundary (the tests' rows are): 32 / lanes_per_row rows of
/// ceil(lanes_per_row * elem / 32) sectors.
double ideal_sectors(int lanes_per_row, std::size_t elem) {
  return double(32 / lanes_per_row) * double((lanes_per_row * elem + 31) / 32);
}

TEST_CASE("memory model targets: a range parallel_for triad on doubles coalesces (<= 8.5 sectors per request)") {
  ModelOn on;
  const long n = 1 << 16;
  weft::View<double*, Dev> a("triad a", n), b("triad b", n), c("triad c", n);
  weft::parallel_for(
      "memory triad", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(long i) { a(i) = b(i) + 0.5 * c(i); });
  const emu::KernelFigures f = figures("memory triad");
  MESSAGE("triad: " << f.global.sectors_per_request() << " sectors per request over " << f.global.requests);
  CHECK(f.global.requests == 3 * n / 32);
  CHECK(f.global.sectors_per_request() <= 8.5);
  CHECK(f.global.sectors_per_request() >= 8.0);
}

TEST_CASE("memory model targets: TeamThreadRange over contiguous rows coalesces (<= 1.1x ideal)") {
  ModelOn on;
  const int league = 6, per_team = 1000;
  weft::View<double*, Dev> x("rows x", league * per_team), y("rows y", league * per_team);
  using Policy = weft::TeamPolicy<Dev>;
  weft::parallel_for(
      "memory team rows", Policy(league, 128, 1), WEFT_LAMBDA(const Policy::member_type& m) {
        const int base = m.league_rank() * per_team;
        weft::parallel_for(weft::TeamThreadRange(m, per_team), [&](int i) { y(base + i) = 2.0 * x(base + i); });
      });
  const emu::KernelFigures f = figures("memory team rows");
  MESSAGE("TeamThreadRange rows: " << f.global.sectors_per_request() << " sectors per request (ideal "
                                   << f.global.ideal_sectors_per_request() << ")");
  CHECK(f.global.excess() <= 1.1);
}

/// B(r, j) = 2 A(r, j): TeamThreadRange over rows, ThreadVectorRange over the contiguous columns.
void vector_rows(int vector_length) {
  const int league = 2, rows_per_team = 64, cols = 256;  // rows of 2 KiB: every row starts on a sector
  weft::View<double**, weft::LayoutRight, Dev> A("vector A", league * rows_per_team, cols),
      B("vector B", league * rows_per_team, cols);
  using Policy = weft::TeamPolicy<Dev>;
  const std::string label = "memory vector rows " + std::to_string(vector_length);
  weft::parallel_for(
      label, Policy(league, 64 / vector_length, vector_length), WEFT_LAMBDA(const Policy::member_type& m) {
        weft::parallel_for(weft::TeamThreadRange(m, rows_per_team), [&](int r) {
          const int row = m.league_rank() * rows_per_team + r;
          weft::parallel_for(weft::ThreadVectorRange(m, cols), [&](int j) { B(row, j) = 2.0 * A(row, j); });
        });
      });
  const emu::KernelFigures f = figures(label);
  // With vector length 1 a warp's lanes are 32 team threads on 32 rows (the vector loop is serial): one sector
  // each is the ideal of that layout.
  const double ideal = ideal_sectors(vector_length, sizeof(double));
  MESSAGE("ThreadVectorRange, vector length " << vector_length << ": " << f.global.sectors_per_request()
                                              << " sectors per request (ideal " << ideal << ")");
  CHECK(f.global.requests > 0);
  CHECK(f.global.sectors_per_request() <= 1.1 * ideal);
}

TEST_CASE("memory model targets: ThreadVectorRange over a contiguous inner loop coalesces (vector length 32, 8, 1)") {
  ModelOn on;
  for (int v : {32, 8, 1}) vector_rows(v);
}

TEST_CASE("memory model targets: a nested reduction of a team of 256 reads shared memory O(log) times per thread") {
  ModelOn on;
  const int league = 3, n = 5000;
  weft::View<double*, Dev> sums("nested sums", league);
  using Policy = weft::TeamPolicy<Dev>;
  weft::parallel_for(
      "memory nested reduce", Policy(league, 256, 1), WEFT_LAMBDA(const Policy::member_type& m) {
        double s = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, n), [&](int i, double& acc) { acc += double(i % 7); }, s);
        if (m.team_rank() == 0) sums(m.league_rank()) = s;
      });
  const emu::KernelFigures f = figures("memory nested reduce");
  const double per_team = double(f.shared.accesses) / league;
  MESSAGE("nested reduction, team of 256: " << per_team << " shared-memory accesses per team, "
                                            << f.shared.bank_conflicts() << " bank conflicts");
  CHECK(per_team <= 4.0 * 8 * 256);
  CHECK(f.shared.bank_conflicts() == 0);
  auto h = weft_test::on_host(sums);
  double expect = 0;
  for (int i = 0; i < n; ++i) expect += double(i % 7);
  for (int l = 0; l < league; ++l) CHECK(h(l) == expect);
}

TEST_CASE("memory model targets: the single-pass scan and the block reduce have no bank conflicts") {
  ModelOn on;
  const long n = 100000;
  weft::View<double*, Dev> xd("scan xd", n), outd("scan outd", n);
  weft::View<std::int32_t*, Dev> xi("scan xi", n), outi("scan outi", n);
  weft::parallel_for(
      "scan fill", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(long i) {
        xd(i) = double(i % 13) * 0.5;
        xi(i) = std::int32_t(i % 11);
      });
  double td = 0;
  std::int32_t ti = 0;
  weft::parallel_scan(
      "memory scan double", weft::RangePolicy<Dev>(0, n),
      WEFT_LAMBDA(long i, double& u, bool final) {
        if (final) outd(i) = u;
        u += xd(i);
      },
      td);
  weft::parallel_scan(
      "memory scan int32", weft::RangePolicy<Dev>(0, n),
      WEFT_LAMBDA(long i, std::int32_t& u, bool final) {
        if (final) outi(i) = u;
        u += xi(i);
      },
      ti);
  double rd = 0;
  weft::parallel_reduce(
      "memory reduce", weft::RangePolicy<Dev>(0, n), WEFT_LAMBDA(long i, double& acc) { acc += xd(i); }, rd);
  for (const std::string label : {"memory scan double", "memory scan int32", "memory reduce"}) {
    const emu::KernelFigures f = figures(label);
    MESSAGE(label << ": " << f.shared.requests << " shared requests, " << f.shared.wavefronts_per_request()
                  << " wavefronts per request, " << f.shared.bank_conflicts() << " bank conflicts; global "
                  << f.global.sectors_per_request() << " sectors per request");
    CHECK(f.shared.requests > 0);
    CHECK(f.shared.bank_conflicts() == 0);
    CHECK(f.global.excess() <= 1.1);
  }
  double expect = 0;
  std::int64_t expect_i = 0;
  for (long i = 0; i < n; ++i) {
    expect += double(i % 13) * 0.5;
    expect_i += i % 11;
  }
  CHECK(rd == expect);  // halves of small integers: exact in any order
  CHECK(td == expect);
  CHECK(ti == expect_i);
}

template <class T, class In>
emu::KernelFigures gemm_figures(bool mma, const char* label) {
  namespace la = weft::linalg;
  const long m = 128, n = 128, k = 64;
  weft::View<In**, weft::LayoutRight, Dev> A("gemm A", m, k), B("gemm B", k, n);
  weft::View<T**, weft::LayoutRight, Dev> C("gemm C", m, n);
  weft::parallel_for(
      "gemm fill", weft::RangePolicy<Dev>(0, m * k), WEFT_LAMBDA(long i) {
        A.data()[i] = In(float(i % 5) * 0.25f);
        B.data()[i] = In(float(i % 3) * 0.5f);
      });
  la::impl::gpu_gemm::run(Dev(), A, false, B, false, C, static_cast<const decltype(C)*>(nullptr), T(1), mma);
  return figures(label);
}

TEST_CASE("memory model targets: the GPU GEMM's fragment loads (DMMA, 16-bit, TF32) have no bank conflicts") {
  ModelOn on;
  namespace la = weft::linalg;
  const auto dmma = gemm_figures<double, double>(true, "weft::linalg::matrix_product (GPU, DMMA tiles)");
  emu::reset_memory_model();
  const auto f16 =
      gemm_figures<float, weft::half_t>(true, "weft::linalg::matrix_product (GPU, 16-bit tensor-core tiles)");
  emu::reset_memory_model();
  la::allow_tf32(true);
  const auto tf32 = gemm_figures<float, float>(true, "weft::linalg::matrix_product (GPU, TF32 tensor-core tiles)");
  la::allow_tf32(false);
  for (const auto* f : {&dmma, &f16, &tf32}) {
    MESSAGE(f->label << ": " << f->shared.requests << " shared requests, " << f->shared.wavefronts_per_request()
                     << " wavefronts per request, " << f->shared.bank_conflicts() << " bank conflicts; global "
                     << f->global.sectors_per_request() << " sectors per request (ideal "
                     << f->global.ideal_sectors_per_request() << ")");
    CHECK(f->shared.requests > 0);
    CHECK(f->shared.bank_conflicts() == 0);
  }
}

struct Greater {
  WEFT_INLINE_FUNCTION bool operator()(double a, double b) const { return a > b; }
};

TEST_CASE("memory model targets: the tiled sort's shared-memory merge (stated, kept from growing)") {
  ModelOn on;
  const long n = 20000;
  const std::vector<double> vals = weft_test::random_values<double>(n, 1919);
  weft::View<double*, Dev> v("sort keys", n);
  weft_test::upload(v, vals);
  weft::sort(Dev(), v, Greater{});
  auto h = weft_test::on_host(v);
  std::vector<double> expect = vals;
  std::sort(expect.begin(), expect.end(), Greater{});
  int wrong = 0;
  for (long i = 0; i < n; ++i) wrong += h(i) != expect[i];
  CHECK(wrong == 0);
  // Measured when the model came (issue 19), 20000 doubles of seed 1919: the tile sort 4.83 wavefronts per request
  // (ideal 2) with 3.10 of them conflicts, the merge path 3.79 with 1.96. Both come from the blocked per-thread
  // work: each thread owns `items` consecutive keys (8 doubles, 64 bytes), so the lanes' insertion sorts and merge
  // walks stride 16 words and meet in a few banks. The bounds are those figures plus 2-5% (a ratchet: they keep them
  // from growing); padding the tile per thread (or a striped exchange, as CUB's BlockExchange) is what would remove
  // them, and should lower the bounds with it. Raising them needs a reason measured on a GPU (a change to the sort
  // that trades these conflicts for fewer global accesses and is faster there), not a new figure from the model.
  const struct {
    std::string label;
    double max_wavefronts, max_conflicts;
  } kernels[] = {{"weft::sort (tiles in shared memory)", 4.95, 3.2}, {"weft::sort (merge path)", 3.9, 2.05}};
  for (const auto& k : kernels) {
    const emu::KernelFigures f = figures(k.label);
    const double per_request = double(f.shared.bank_conflicts()) / double(f.shared.requests);
    MESSAGE(k.label << ": " << f.shared.requests << " shared requests, " << f.shared.wavefronts_per_request()
                    << " wavefronts per request, " << per_request << " conflicts per request");
    CHECK(f.shared.requests > 0);
    CHECK(f.shared.wavefronts_per_request() <= k.max_wavefronts);
    CHECK(per_request <= k.max_conflicts);
  }
}

}  // namespace
