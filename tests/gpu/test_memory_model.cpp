// GpuEmu's memory model (<weft/emu/memory_model.hpp>): calibrated on access patterns whose sectors per request
// and shared-memory wavefronts are known (each expected figure computed here from the addresses or in closed
// form, not by the model's code).
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <weft/emu/memory_model.hpp>
#include <weft/gpu/work.hpp>

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

}  // namespace
