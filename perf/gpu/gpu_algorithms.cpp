// perf/gpu: Weft's algorithms on weft::Cuda against the vendor libraries called directly, in one process,
// timed with CUDA events: sort of 2^28 uint32 keys (cub::DeviceRadixSort::SortKeys), copy_if of 2^28 ints
// (cub::DeviceSelect::If), fill_random of 2^28 doubles (cuRAND's Philox4x32-10), a comparator sort of 2^26 8-byte
// structs (cub::DeviceMergeSort::SortKeys with the same comparator; no goal in the issue). Cases <case>/weft and
// <case>/baseline report bytes of keys/elements per second, so perf/compare.py prints the ratio. Each case
// checks its result first (sorted, the same count, values in range).
#include <benchmark/benchmark.h>
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <weft/algorithms.hpp>
#include "timing.hpp"

namespace {

using Exec = weft::Cuda;
std::int64_t g_n = std::int64_t(1) << 28;

using weft_perf::timed;
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "WRONG: %s\n", what);
    std::exit(2);
  }
}

using Keys = weft::View<std::uint32_t*, weft::CudaSpace>;
Keys random_keys(std::uint64_t seed) {
  Keys k("keys", g_n);
  weft::fill_random(Exec(), k, seed, std::uint32_t(0), std::uint32_t(0xffffffffu));
  return k;
}
bool is_sorted(const Keys& k) {
  std::int64_t bad = 0;
  weft::parallel_reduce(
      "check sorted", weft::RangePolicy<Exec>(1, g_n),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & b) { b += k(i - 1) > k(i) ? 1 : 0; }, bad);
  return bad == 0;
}

// Each timed sort works on a fresh copy of the same random keys (the copy is outside the timed region).
void sort_weft(benchmark::State& st) {
  const Keys src = random_keys(7), k("k", g_n);
  timed(
      st, [&] { weft::deep_copy(Exec(), k, src); }, [&] { weft::sort(Exec(), k); });
  require(is_sorted(k), "weft::sort left keys out of order");
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}
void sort_baseline(benchmark::State& st) {
  const Keys src = random_keys(7), k("k", g_n), alt("alt", g_n);
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, bytes, k.data(), alt.data(), int(g_n));
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  timed(
      st, [&] { weft::deep_copy(Exec(), k, src); },
      [&] {
        cub::DoubleBuffer<std::uint32_t> db(k.data(), alt.data());  // the double-buffer form Weft uses
        cub::DeviceRadixSort::SortKeys(temp, bytes, db, int(g_n), 0, 32, Exec().cuda_stream());
      });
  cudaFree(temp);
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}

// The comparator sort (no radix path): records ordered by key only, so stability is visible in `seq`.
struct Record {
  std::uint32_t key, seq;
};
struct ByKey {
  __host__ __device__ bool operator()(const Record& a, const Record& b) const { return a.key < b.key; }
};
using Records = weft::View<Record*, weft::CudaSpace>;
std::int64_t merge_n() { return g_n / 4; }
Records random_records() {
  const std::int64_t n = merge_n();
  const Keys k("k", n);
  weft::fill_random(Exec(), k, 11u, std::uint32_t(0), std::uint32_t(1u << 20));  // duplicates on purpose
  Records r("records", n);
  weft::parallel_for(
      "records", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i) {
        r(i) = Record{k(i), std::uint32_t(i)};
      });
  return r;
}
bool stably_sorted(const Records& r) {
  std::int64_t bad = 0;
  weft::parallel_reduce(
      "check stable", weft::RangePolicy<Exec>(1, merge_n()),
      WEFT_LAMBDA(std::int64_t i, std::int64_t & b) {
        b += (r(i - 1).key > r(i).key || (r(i - 1).key == r(i).key && r(i - 1).seq > r(i).seq)) ? 1 : 0;
      },
      bad);
  return bad == 0;
}
void merge_sort_weft(benchmark::State& st) {
  const Records src = random_records(), r("r", merge_n());
  timed(
      st, [&] { weft::deep_copy(Exec(), r, src); }, [&] { weft::sort(Exec(), r, ByKey{}); });
  require(stably_sorted(r), "weft::sort with a comparator: out of order or not stable");
  st.SetBytesProcessed(st.iterations() * merge_n() * 8);
}
void merge_sort_baseline(benchmark::State& st) {
  const Records src = random_records(), r("r", merge_n());
  std::size_t bytes = 0;
  cub::DeviceMergeSort::StableSortKeys(nullptr, bytes, r.data(), merge_n(), ByKey{});
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  timed(
      st, [&] { weft::deep_copy(Exec(), r, src); },
      [&] { cub::DeviceMergeSort::StableSortKeys(temp, bytes, r.data(), merge_n(), ByKey{}, Exec().cuda_stream()); });
  require(stably_sorted(r), "cub::DeviceMergeSort::StableSortKeys: out of order or not stable");
  cudaFree(temp);
  st.SetBytesProcessed(st.iterations() * merge_n() * 8);
}

struct IsEven {
  __host__ __device__ bool operator()(int x) const { return (x & 1) == 0; }
};
void copy_if_weft(benchmark::State& st) {
  weft::View<int*, weft::CudaSpace> src("src", g_n), dst("dst", g_n);
  weft::fill_random(Exec(), src, 9u, 0, 1 << 30);
  std::size_t count = 0;
  timed(st, [&] {
    count = weft::experimental::copy_if(
        Exec(), src, dst, WEFT_LAMBDA(int x) { return IsEven{}(x); });
  });
  require(
      count > std::size_t(g_n) / 2 - std::size_t(g_n) / 100 && count < std::size_t(g_n) / 2 + std::size_t(g_n) / 100,
      "copy_if count far from n/2");
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}
void copy_if_baseline(benchmark::State& st) {
  weft::View<int*, weft::CudaSpace> src("src", g_n), dst("dst", g_n);
  weft::View<int, weft::CudaSpace> count("count");
  weft::fill_random(Exec(), src, 9u, 0, 1 << 30);
  std::size_t bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, src.data(), dst.data(), count.data(), int(g_n), IsEven{});
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  int host_count = 0;
  timed(st, [&] {
    cub::DeviceSelect::If(temp, bytes, src.data(), dst.data(), count.data(), int(g_n), IsEven{}, Exec().cuda_stream());
    cudaMemcpyAsync(&host_count, count.data(), sizeof(int), cudaMemcpyDeviceToHost,
                    Exec().cuda_stream());  // as Weft returns it
  });
  cudaFree(temp);
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}

void fill_random_weft(benchmark::State& st) {
  weft::View<double*, weft::CudaSpace> v("v", g_n);
  timed(st, [&] { weft::fill_random(Exec(), v, 1234u, 0.0, 1.0); });
  double lo = 2, hi = -1;
  weft::parallel_reduce(
      "range", weft::RangePolicy<Exec>(0, g_n),
      WEFT_LAMBDA(std::int64_t i, double& a, double& b) {
        a = v(i) < a ? v(i) : a;
        b = v(i) > b ? v(i) : b;
      },
      weft::Min<double>(lo), weft::Max<double>(hi));
  require(lo >= 0 && hi < 1, "fill_random out of [0, 1)");
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}
void fill_random_baseline(benchmark::State& st) {
  weft::View<double*, weft::CudaSpace> v("v", g_n);
  curandGenerator_t gen;
  require(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS,
          "curandCreateGenerator");
  curandSetPseudoRandomGeneratorSeed(gen, 1234);
  curandSetStream(gen, Exec().cuda_stream());
  timed(st, [&] { curandGenerateUniformDouble(gen, v.data(), std::size_t(g_n)); });
  curandDestroyGenerator(gen);
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}

}  // namespace

BENCHMARK(sort_weft)->Name("sort/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(sort_baseline)->Name("sort/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(merge_sort_weft)->Name("merge_sort/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(merge_sort_baseline)->Name("merge_sort/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(copy_if_weft)->Name("copy_if/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(copy_if_baseline)->Name("copy_if/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(fill_random_weft)->Name("fill_random/weft")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(fill_random_baseline)->Name("fill_random/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  if (const char* n = std::getenv("WEFT_PERF_ALGO_N")) g_n = std::atoll(n);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
