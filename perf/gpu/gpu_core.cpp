// perf/gpu: Weft on the CUDA backend against hand-written CUDA and CUB in one process, timed with CUDA
// events: triad (and the device-to-device copy bandwidth), sum, exclusive scan, MinLoc, a team-scratch stencil,
// launch latency.
// Pairs are <case>/weft and <case>/baseline; perf/compare.py prints the ratios against goals.json.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <weft/weft.hpp>
#include "timing.hpp"

namespace {

using Exec = weft::Cuda;
std::int64_t g_n = std::int64_t(1) << 27;  // 2^27 doubles = 1 GiB per array: fills the card's caches many times

using weft_perf::timed;

__global__ void raw_triad(double* a, const double* b, const double* c, double s, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    a[i] = b[i] + s * c[i];
}
__global__ void raw_empty() {}

void triad_weft(benchmark::State& st) {
  weft::View<double*> a("a", g_n), b("b", g_n), c("c", g_n);
  weft::deep_copy(b, 1.0);
  weft::deep_copy(c, 2.0);
  timed(st, [&] {
    weft::parallel_for(
        "triad", weft::RangePolicy<Exec>(0, g_n), WEFT_LAMBDA(std::int64_t i) { a(i) = b(i) + 0.4 * c(i); });
  });
  st.SetBytesProcessed(st.iterations() * 3 * g_n * sizeof(double));
}
void triad_baseline(benchmark::State& st) {
  weft::View<double*> a("a", g_n), b("b", g_n), c("c", g_n);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  timed(st, [&] { raw_triad<<<sms * 8, 256, 0, Exec().cuda_stream()>>>(a.data(), b.data(), c.data(), 0.4, g_n); });
  st.SetBytesProcessed(st.iterations() * 3 * g_n * sizeof(double));
}
void copy_bandwidth(benchmark::State& st) {
  weft::View<double*> a("a", g_n), b("b", g_n);
  timed(st, [&] {
    cudaMemcpyAsync(a.data(), b.data(), g_n * sizeof(double), cudaMemcpyDeviceToDevice, Exec().cuda_stream());
  });
  st.SetBytesProcessed(st.iterations() * 2 * g_n * sizeof(double));
}

void sum_weft(benchmark::State& st) {
  weft::View<double*> a("a", g_n);
  weft::deep_copy(a, 0.5);
  double r = 0;
  timed(st, [&] {
    weft::parallel_reduce(
        "sum", weft::RangePolicy<Exec>(0, g_n), WEFT_LAMBDA(std::int64_t i, double& s) { s += a(i); }, r);
  });
  if (r != 0.5 * g_n) st.SkipWithError("wrong sum");
  st.SetBytesProcessed(st.iterations() * g_n * sizeof(double));
}
void sum_baseline(benchmark::State& st) {
  weft::View<double*> a("a", g_n);
  weft::deep_copy(a, 0.5);
  weft::View<double> out("out");
  std::size_t temp = 0;
  cub::DeviceReduce::Sum(nullptr, temp, a.data(), out.data(), g_n);
  weft::View<char*> tmp("tmp", temp);
  timed(st, [&] { cub::DeviceReduce::Sum(tmp.data(), temp, a.data(), out.data(), g_n, Exec().cuda_stream()); });
  st.SetBytesProcessed(st.iterations() * g_n * sizeof(double));
}

void scan_weft(benchmark::State& st) {
  weft::View<std::int64_t*> in("in", g_n), out("out", g_n);
  weft::deep_copy(in, 3);
  timed(st, [&] {
    weft::parallel_scan(
        "scan", weft::RangePolicy<Exec>(0, g_n), WEFT_LAMBDA(std::int64_t i, std::int64_t & u, bool final) {
          if (final) out(i) = u;
          u += in(i);
        });
  });
  st.SetBytesProcessed(st.iterations() * 2 * g_n * sizeof(std::int64_t));
}
void scan_baseline(benchmark::State& st) {
  weft::View<std::int64_t*> in("in", g_n), out("out", g_n);
  weft::deep_copy(in, 3);
  std::size_t temp = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, temp, in.data(), out.data(), g_n);
  weft::View<char*> tmp("tmp", temp);
  timed(st, [&] { cub::DeviceScan::ExclusiveSum(tmp.data(), temp, in.data(), out.data(), g_n, Exec().cuda_stream()); });
  st.SetBytesProcessed(st.iterations() * 2 * g_n * sizeof(std::int64_t));
}

// MinLoc over doubles whose smallest value sits at a known index; both write their result to device memory.
weft::View<double*> minloc_input() {
  weft::View<double*> a("a", g_n);
  const std::int64_t where = g_n / 3 + 7;
  weft::parallel_for(
      "minloc input", weft::RangePolicy<Exec>(0, g_n),
      WEFT_LAMBDA(std::int64_t i) { a(i) = i == where ? -1.0 : double((i * 2654435761u) % 1000003u); });
  return a;
}
void minloc_weft(benchmark::State& st) {
  const auto a = minloc_input();
  using ML = weft::MinLoc<double, std::int64_t, weft::CudaSpace>;
  weft::View<ML::value_type, weft::CudaSpace> out("out");
  timed(st, [&] {
    weft::parallel_reduce(
        "minloc", weft::RangePolicy<Exec>(0, g_n),
        WEFT_LAMBDA(std::int64_t i, ML::value_type & v) {
          if (a(i) < v.val) {
            v.val = a(i);
            v.loc = i;
          }
        },
        ML(out));
  });
  const auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), out);
  if (h().loc != g_n / 3 + 7 || h().val != -1.0) st.SkipWithError("wrong minloc");
  st.SetBytesProcessed(st.iterations() * g_n * sizeof(double));
}
void minloc_baseline(benchmark::State& st) {
  const auto a = minloc_input();
  weft::View<double> mn("min");
  weft::View<std::int64_t> idx("idx");
  std::size_t temp = 0;
  cub::DeviceReduce::ArgMin(nullptr, temp, a.data(), mn.data(), idx.data(), g_n);
  weft::View<char*> tmp("tmp", temp);
  timed(st, [&] {
    cub::DeviceReduce::ArgMin(tmp.data(), temp, a.data(), mn.data(), idx.data(), g_n, Exec().cuda_stream());
  });
  st.SetBytesProcessed(st.iterations() * g_n * sizeof(double));
}

// A block-local 1-D stencil: each team stages its tile plus a halo of 1 in level-0 scratch and averages three
// neighbours; the baseline is the same kernel with a static __shared__ tile.
constexpr int stencil_tile = 256;
__global__ void raw_stencil(const double* in, double* out, std::int64_t n) {
  __shared__ double tile[stencil_tile + 2];
  for (std::int64_t t = blockIdx.x; t * stencil_tile < n; t += gridDim.x) {
    const std::int64_t i0 = t * stencil_tile;
    for (int j = threadIdx.x; j < stencil_tile + 2; j += blockDim.x) {
      const std::int64_t g = i0 + j - 1;
      tile[j] = (g >= 0 && g < n) ? in[g] : 0.0;
    }
    __syncthreads();
    const std::int64_t i = i0 + threadIdx.x;
    if (i < n) out[i] = (tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2]) * (1.0 / 3.0);
    __syncthreads();
  }
}
void stencil_weft(benchmark::State& st) {
  weft::View<double*> in("in", g_n), out("out", g_n);
  weft::deep_copy(in, 1.5);
  const std::int64_t n = g_n, tiles = (g_n + stencil_tile - 1) / stencil_tile;
  using Member = weft::TeamPolicy<Exec>::member_type;
  using Tile = weft::View<double*, Exec::scratch_memory_space, weft::MemoryUnmanaged>;
  auto policy = weft::TeamPolicy<Exec>(tiles, stencil_tile)
                    .set_scratch_size(0, weft::PerTeam(Tile::shmem_size(stencil_tile + 2)));
  timed(st, [&] {
    weft::parallel_for(
        "stencil", policy, WEFT_LAMBDA(const Member& m) {
          const Tile tile(m.team_scratch(0), stencil_tile + 2);
          const std::int64_t i0 = std::int64_t(m.league_rank()) * stencil_tile;
          weft::parallel_for(weft::TeamThreadRange(m, stencil_tile + 2), [&](int j) {
            const std::int64_t g = i0 + j - 1;
            tile(j) = (g >= 0 && g < n) ? in(g) : 0.0;
          });
          m.team_barrier();
          weft::parallel_for(weft::TeamThreadRange(m, stencil_tile), [&](int j) {
            if (i0 + j < n) out(i0 + j) = (tile(j) + tile(j + 1) + tile(j + 2)) * (1.0 / 3.0);
          });
        });
  });
  st.SetBytesProcessed(st.iterations() * 2 * g_n * sizeof(double));
}
void stencil_baseline(benchmark::State& st) {
  weft::View<double*> in("in", g_n), out("out", g_n);
  weft::deep_copy(in, 1.5);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  timed(st, [&] { raw_stencil<<<sms * 16, stencil_tile, 0, Exec().cuda_stream()>>>(in.data(), out.data(), g_n); });
  st.SetBytesProcessed(st.iterations() * 2 * g_n * sizeof(double));
}

void launch_weft(benchmark::State& st) {
  timed(st, [&] { weft::parallel_for("empty", weft::RangePolicy<Exec>(0, 1), WEFT_LAMBDA(std::int64_t){}); });
}
void launch_baseline(benchmark::State& st) {
  timed(st, [&] { raw_empty<<<1, 256, 0, Exec().cuda_stream()>>>(); });
}

}  // namespace

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--smoke") == 0) {
      g_n = 1 << 20;
      for (int k = i; k + 1 < argc; ++k) argv[k] = argv[k + 1];
      --argc;
      break;
    }
  auto reg = [](const char* name, void (*fn)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name, fn)->UseManualTime()->Unit(benchmark::kMicrosecond);
  };
  reg("triad/weft", triad_weft);
  reg("triad/baseline", triad_baseline);
  reg("copy_d2d/baseline", copy_bandwidth);
  reg("sum/weft", sum_weft);
  reg("sum/baseline", sum_baseline);
  reg("scan/weft", scan_weft);
  reg("scan/baseline", scan_baseline);
  reg("minloc/weft", minloc_weft);
  reg("minloc/baseline", minloc_baseline);
  reg("stencil/weft", stencil_weft);
  reg("stencil/baseline", stencil_baseline);
  reg("launch/weft", launch_weft);
  reg("launch/baseline", launch_baseline);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
