// perf/gpu: the CUB fast paths of weft::experimental's algorithms (algorithms/src/*_cub.cpp) on weft::Cuda, three
// ways in one process, timed with CUDA events: <case>/weft is Weft's call (the CUB path), <case>/baseline is CUB
// called directly on the same data (goal: the fast path within 5 % of it), and <case>_portable/weft is the same
// Weft call with the vendor paths off (weft::experimental::set_vendor_algorithms(false): Weft's portable kernels),
// beside the same raw CUB as <case>_portable/baseline. 2^26 elements (WEFT_PERF_CUB_N): int32 keys in runs of
// 1-16 and double values; int32 samples in [0, 4096) into 1024 bins; double sums; copy_if of the even samples.
// reduce_by_key and histogram are checked against the portable path before anything is timed, and each timed
// case checks its count.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <functional>

#include <weft/algorithms.hpp>
#include "timing.hpp"

namespace {

namespace ex = weft::experimental;
using Exec = weft::Cuda;
using weft_perf::timed;
std::int64_t g_n = std::int64_t(1) << 26;

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "WRONG: %s\n", what);
    std::exit(2);
  }
}

using Ints = weft::View<std::int32_t*, weft::CudaSpace>;
using Doubles = weft::View<double*, weft::CudaSpace>;
using Counts = weft::View<std::int64_t, weft::CudaSpace>;

struct Data {
  Ints keys, samples;
  Doubles values;
};
/// Keys in runs of 1-16 (a new run where a random draw says so), values in [-1, 1), samples in [0, 4096).
Data make_data() {
  {
    Data r{Ints("keys", g_n), Ints("samples", g_n), Doubles("values", g_n)};
    Ints draw("draw", g_n);
    weft::fill_random(Exec(), draw, 5u, 0, 16);
    weft::fill_random(Exec(), r.samples, 6u, 0, 4096);
    weft::fill_random(Exec(), r.values, 7u, -1.0, 1.0);
    Ints start("start", g_n);
    auto dr = draw;
    weft::parallel_for(
        "run starts", weft::RangePolicy<Exec>(0, g_n), WEFT_LAMBDA(std::int64_t i) { start(i) = dr(i) == 0 ? 1 : 0; });
    ex::inclusive_scan(Exec(), start, r.keys);
    return r;
  }
}
const Data* g_data = nullptr;  // made in main, inside the ScopeGuard's lifetime
const Data& data() { return *g_data; }

/// CUB's temporary storage, sized once per case outside the timed region.
struct Temp {
  void* p = nullptr;
  std::size_t bytes = 0;
  void alloc() { cudaMalloc(&p, bytes ? bytes : 1); }
  ~Temp() { cudaFree(p); }
};

/// Raw CUB: call(temp, bytes) sizes its temporary storage once (outside the timing), then is timed with the copy of
/// its result (result_bytes at d_result: a count, a sum) to the host, as Weft returns it; setup is untimed.
template <class Call, class Setup>
void raw_case(benchmark::State& st, Call&& call, const void* d_result, std::size_t result_bytes, Setup&& setup) {
  Temp t;
  call(t.p, t.bytes);
  t.alloc();
  alignas(16) char h[16];
  timed(st, setup, [&] {
    call(t.p, t.bytes);
    if (result_bytes) cudaMemcpyAsync(h, d_result, result_bytes, cudaMemcpyDeviceToHost, Exec().cuda_stream());
  });
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}
template <class Call>
void raw_case(benchmark::State& st, Call&& call, const void* d_result = nullptr, std::size_t result_bytes = 0) {
  raw_case(st, call, d_result, result_bytes, [] {});
}

/// One case three ways: the Weft call with the vendor paths on and off, and the raw CUB call.
template <class Weft>
void weft_case(benchmark::State& st, bool vendor, Weft&& call) {
  const bool was = ex::set_vendor_algorithms(vendor);
  timed(st, call);
  ex::set_vendor_algorithms(was);
  st.SetBytesProcessed(st.iterations() * g_n * 4);  // per key/sample: throughput in elements, as bytes of int32
}

// ---- reduce_by_key ------------------------------------------------------------------------------------------
void rbk_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Ints ok("out keys", g_n);
  Doubles ov("out sums", g_n);
  std::size_t runs = 0;
  weft_case(st, vendor, [&] { runs = ex::reduce_by_key(Exec(), d.keys, d.values, ok, ov); });
  require(runs > std::size_t(g_n) / 20 && runs < std::size_t(g_n) / 10, "reduce_by_key: runs far from n/16");
}
void rbk_raw(benchmark::State& st) {
  const auto& d = data();
  Ints ok("out keys", g_n);
  Doubles ov("out sums", g_n);
  Counts runs("runs");
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceReduce::ReduceByKey(t, b, d.keys.data(), ok.data(), d.values.data(), ov.data(), runs.data(),
                                              ::cuda::std::plus<double>{}, int(g_n), Exec().cuda_stream());
      },
      runs.data(), sizeof(std::int64_t));
}

// ---- inclusive_scan_by_key ----------------------------------------------------------------------------------
void sbk_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Doubles out("scan", g_n);
  weft_case(st, vendor, [&] { ex::inclusive_scan_by_key(Exec(), d.keys, d.values, out); });
}
void sbk_raw(benchmark::State& st) {
  const auto& d = data();
  Doubles out("scan", g_n);
  raw_case(st, [&](void* t, std::size_t& b) {
    return cub::DeviceScan::InclusiveSumByKey(t, b, d.keys.data(), d.values.data(), out.data(), int(g_n),
                                              ::cuda::std::equal_to<>{}, Exec().cuda_stream());
  });
}

// ---- unique (into a copy: Weft's is in place) ----------------------------------------------------------------
void unique_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Ints w("work", g_n);
  std::size_t kept = 0;
  const bool was = ex::set_vendor_algorithms(vendor);
  timed(
      st, [&] { weft::deep_copy(Exec(), w, d.keys); }, [&] { kept = ex::unique(Exec(), w); });
  ex::set_vendor_algorithms(was);
  require(kept > std::size_t(g_n) / 20 && kept < std::size_t(g_n) / 10, "unique: kept far from n/16");
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}
void unique_raw(benchmark::State& st) {
  const auto& d = data();
  Ints w("work", g_n), out("out", g_n);
  Counts kept("kept");
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Unique(t, b, w.data(), out.data(), kept.data(), g_n, Exec().cuda_stream());
      },
      kept.data(), sizeof(std::int64_t), [&] { weft::deep_copy(Exec(), w, d.keys); });
}

// ---- run_length_encode ---------------------------------------------------------------------------------------
void rle_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Ints u("unique", g_n), c("counts", g_n);
  std::size_t runs = 0;
  weft_case(st, vendor, [&] { runs = ex::run_length_encode(Exec(), d.keys, u, c); });
  require(runs > std::size_t(g_n) / 20 && runs < std::size_t(g_n) / 10, "run_length_encode: runs far from n/16");
}
void rle_raw(benchmark::State& st) {
  const auto& d = data();
  Ints u("unique", g_n), c("counts", g_n);
  weft::View<int, weft::CudaSpace> runs("runs");
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceRunLengthEncode::Encode(t, b, d.keys.data(), u.data(), c.data(), runs.data(), int(g_n),
                                                  Exec().cuda_stream());
      },
      runs.data(), sizeof(int));
}

// ---- histogram (int32 samples, 1024 bins; Weft adds into the bins, so the raw side adds too) -------------------
void hist_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  weft::View<std::int64_t*, weft::CudaSpace> bins("bins", 1024);
  weft_case(st, vendor, [&] { ex::histogram(Exec(), d.samples, bins, 0, 4096); });
}
void add_counts(const weft::View<std::uint32_t*, weft::CudaSpace>& counts,
                const weft::View<std::int64_t*, weft::CudaSpace>& bins) {
  weft::parallel_for(
      "add", weft::RangePolicy<Exec>(0, 1024), WEFT_LAMBDA(std::int64_t k) { bins(k) += counts(k); });
}
void hist_raw(benchmark::State& st) {
  const auto& d = data();
  weft::View<std::uint32_t*, weft::CudaSpace> counts("counts", 1024);
  weft::View<std::int64_t*, weft::CudaSpace> bins("bins", 1024);
  raw_case(st, [&](void* t, std::size_t& b) {
    const cudaError_t e = cub::DeviceHistogram::HistogramEven(t, b, d.samples.data(), counts.data(), 1025, 0, 4096,
                                                              int(g_n), Exec().cuda_stream());
    if (t) add_counts(counts, bins);  // as Weft adds into the bins
    return e;
  });
}

// ---- reduce (double sum) ------------------------------------------------------------------------------------
void reduce_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  double s = 0;
  weft_case(st, vendor, [&] { s = ex::reduce(Exec(), d.values, 0.0); });
  require(s > -1e5 && s < 1e5, "reduce: sum of 2^26 values in [-1, 1) far from 0");
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}
void reduce_raw(benchmark::State& st) {
  const auto& d = data();
  weft::View<double, weft::CudaSpace> out("sum");
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceReduce::Sum(t, b, d.values.data(), out.data(), int(g_n), Exec().cuda_stream());
      },
      out.data(), sizeof(double));
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}

// ---- copy_if (even samples): the predicate in a Weft kernel + DeviceSelect::Flagged vs DeviceSelect::If -----------
struct IsEven {
  __host__ __device__ bool operator()(std::int32_t x) const { return (x & 1) == 0; }
};
void copy_if_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Ints out("selected", g_n);
  std::size_t c = 0;
  weft_case(st, vendor, [&] { c = ex::copy_if(Exec(), d.samples, out, IsEven{}); });
  require(c > std::size_t(g_n) / 2 - std::size_t(g_n) / 100 && c < std::size_t(g_n) / 2 + std::size_t(g_n) / 100,
          "copy_if: count far from n/2");
}
void copy_if_raw(benchmark::State& st) {
  const auto& d = data();
  Ints out("selected", g_n);
  Counts count("count");
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceSelect::If(t, b, d.samples.data(), out.data(), count.data(), g_n, IsEven{},
                                     Exec().cuda_stream());
      },
      count.data(), sizeof(std::int64_t));
}

// ---- the comparator sort with std::less on uint32: Weft's stable radix route vs CUB's merge sort ----------------
/// Sort keys: the samples scattered over 32 bits by a multiplicative hash (4096 distinct values, many duplicates).
void hashed_keys(const Data& d, const weft::View<std::uint32_t*, weft::CudaSpace>& k) {
  auto s = d.samples;
  weft::parallel_for(
      "keys", weft::RangePolicy<Exec>(0, g_n),
      WEFT_LAMBDA(std::int64_t i) { k(i) = std::uint32_t(s(i)) * 2654435761u; });
}
void sort_less_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  weft::View<std::uint32_t*, weft::CudaSpace> k("k", g_n);
  const bool was = ex::set_vendor_algorithms(vendor);
  timed(
      st, [&] { hashed_keys(d, k); }, [&] { weft::sort(Exec(), k, std::less<>()); });
  ex::set_vendor_algorithms(was);
  st.SetBytesProcessed(st.iterations() * g_n * 4);
}
void sort_less_raw(benchmark::State& st) {
  const auto& d = data();
  weft::View<std::uint32_t*, weft::CudaSpace> k("k", g_n);
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceMergeSort::StableSortKeys(t, b, k.data(), g_n, std::less<std::uint32_t>(),
                                                    Exec().cuda_stream());
      },
      nullptr, 0, [&] { hashed_keys(d, k); });
}

// ---- sort of double keys with std::less: cub::DeviceMergeSort through Weft, raw, and Weft's tiled merge sort ------
void double_keys(const Data& d, const Doubles& k) {
  auto v = d.values;
  weft::parallel_for(
      "keys", weft::RangePolicy<Exec>(0, g_n), WEFT_LAMBDA(std::int64_t i) { k(i) = v(i); });
}
void sort_double_weft(benchmark::State& st, bool vendor) {
  const auto& d = data();
  Doubles k("k", g_n);
  const bool was = ex::set_vendor_algorithms(vendor);
  timed(
      st, [&] { double_keys(d, k); }, [&] { weft::sort(Exec(), k, std::less<>()); });
  ex::set_vendor_algorithms(was);
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}
void sort_double_raw(benchmark::State& st) {
  const auto& d = data();
  Doubles k("k", g_n);
  raw_case(
      st,
      [&](void* t, std::size_t& b) {
        return cub::DeviceMergeSort::StableSortKeys(t, b, k.data(), g_n, std::less<double>(), Exec().cuda_stream());
      },
      nullptr, 0, [&] { double_keys(d, k); });
  st.SetBytesProcessed(st.iterations() * g_n * 8);
}

/// Before timing: each fast path's result equals the portable path's.
void check_against_portable() {
  const auto& d = data();
  Ints ok1("ok1", g_n), ok2("ok2", g_n);
  Doubles ov1("ov1", g_n), ov2("ov2", g_n);
  ex::set_vendor_algorithms(true);
  const std::size_t r1 = ex::reduce_by_key(Exec(), d.keys, d.values, ok1, ov1);
  const std::int64_t b1 = [&] {
    weft::View<std::int64_t*, weft::CudaSpace> b("b", 1024);
    ex::histogram(Exec(), d.samples, b, 0, 4096);
    return ex::reduce(Exec(), b, std::int64_t(0), ex::Maximum{});
  }();
  ex::set_vendor_algorithms(false);
  const std::size_t r2 = ex::reduce_by_key(Exec(), d.keys, d.values, ok2, ov2);
  const std::int64_t b2 = [&] {
    weft::View<std::int64_t*, weft::CudaSpace> b("b", 1024);
    ex::histogram(Exec(), d.samples, b, 0, 4096);
    return ex::reduce(Exec(), b, std::int64_t(0), ex::Maximum{});
  }();
  ex::set_vendor_algorithms(true);
  require(r1 == r2, "reduce_by_key: the CUB path and the portable path count different runs");
  require(b1 == b2, "histogram: the CUB path and the portable path fill different largest bins");
  double worst = 0;
  const auto n = static_cast<std::int64_t>(r1);
  weft::parallel_reduce(
      "compare sums", weft::RangePolicy<Exec>(0, n),
      WEFT_LAMBDA(std::int64_t j, double& w) {
        const double e = ov1(j) > ov2(j) ? ov1(j) - ov2(j) : ov2(j) - ov1(j);
        w = e > w ? e : w;
      },
      weft::Max<double>(worst));
  require(worst < 1e-12, "reduce_by_key: the CUB path's sums differ from the portable path's");
}

}  // namespace

#define WEFT_CUB_CASE(NAME, WEFT, RAW)                                                                    \
  BENCHMARK_CAPTURE(WEFT, cub, true)->Name(NAME "/weft")->UseManualTime()->Unit(benchmark::kMillisecond); \
  BENCHMARK(RAW)->Name(NAME "/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);                 \
  BENCHMARK_CAPTURE(WEFT, portable, false)                                                                \
      ->Name(NAME "_portable/weft")                                                                       \
      ->UseManualTime()                                                                                   \
      ->Unit(benchmark::kMillisecond);                                                                    \
  BENCHMARK(RAW)->Name(NAME "_portable/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);
WEFT_CUB_CASE("reduce_by_key", rbk_weft, rbk_raw)
WEFT_CUB_CASE("scan_by_key", sbk_weft, sbk_raw)
WEFT_CUB_CASE("unique", unique_weft, unique_raw)
WEFT_CUB_CASE("run_length_encode", rle_weft, rle_raw)
WEFT_CUB_CASE("histogram", hist_weft, hist_raw)
WEFT_CUB_CASE("reduce", reduce_weft, reduce_raw)
// no goal: two passes (the predicate's flags, then Flagged) against If's one, by design (the predicate is the user's);
// its _portable twin is Weft's single-pass parallel_scan copy_if, one pass as If: which of the two CUDA should take
WEFT_CUB_CASE("copy_if_flagged", copy_if_weft, copy_if_raw)
WEFT_CUB_CASE("sort_less_double", sort_double_weft, sort_double_raw)
// ratio > 1: Weft's radix route for std::less beats CUB's merge sort (which Weft would otherwise have to match)
BENCHMARK_CAPTURE(sort_less_weft, radix, true)
    ->Name("sort_less_vs_merge_sort/weft")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(sort_less_raw)->Name("sort_less_vs_merge_sort/baseline")->UseManualTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  if (const char* n = std::getenv("WEFT_PERF_CUB_N")) g_n = std::atoll(n);
  {
    const Data d = make_data();
    g_data = &d;
    check_against_portable();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    g_data = nullptr;
  }
  return 0;
}
