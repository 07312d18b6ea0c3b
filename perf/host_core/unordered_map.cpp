// perf/host_core UnorderedMap cases (reported, no goal): 2^22 seeded 60-bit keys, half of them repeats, inserted
// into a cleared map each iteration (umap_insert: against std::unordered_map behind a std::mutex on the same
// threads; umap_insert_serial: against std::unordered_map in one thread), then every key looked up (umap_find:
// against std::unordered_map's find from the same threads, which needs no lock for reads).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <mutex>
#include <random>
#include <unordered_map>
#include <vector>

#include <weft/containers.hpp>
#include <weft/weft.hpp>

namespace {

using Exec = weft::DefaultHostExecutionSpace;
using Map = weft::UnorderedMap<std::int64_t, std::int64_t, Exec>;
bool g_umap_smoke = false;
volatile std::int64_t g_umap_sink;

const std::vector<std::int64_t>& umap_keys() {
  static std::vector<std::int64_t> keys = [] {
    const std::int64_t n = g_umap_smoke ? 4096 : std::int64_t(1) << 22;
    std::mt19937_64 gen(2026);
    std::vector<std::int64_t> pool(n / 2), k(n);
    for (auto& p : pool) p = static_cast<std::int64_t>(gen() >> 4);
    for (std::int64_t i = 0; i < n; ++i) k[i] = pool[i < n / 2 ? i : gen() % (n / 2)];
    return k;
  }();
  return keys;
}

/// The keys in a View of Weft's side.
weft::View<std::int64_t*, Exec> keys_view(const std::vector<std::int64_t>& keys) {
  weft::View<std::int64_t*, Exec> k("keys", keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) k(i) = keys[i];
  return k;
}

void insert_weft(benchmark::State& st) {
  const auto& keys = umap_keys();
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const auto k = keys_view(keys);
  Map map(static_cast<std::uint32_t>(n / 2));
  for (auto _ : st) {
    map.clear();
    weft::parallel_for(
        "umap_insert", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i) { map.insert(k(i), i); });
  }
  if (map.failed_insert() || map.size() != n / 2) st.SkipWithError("wrong map size");
  st.SetItemsProcessed(st.iterations() * n);
}
void insert_mutex(benchmark::State& st) {
  const auto& keys = umap_keys();
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  std::unordered_map<std::int64_t, std::int64_t> map;
  std::mutex m;
  for (auto _ : st) {
    map.clear();
    map.reserve(n / 2);
#pragma omp parallel for
    for (std::int64_t i = 0; i < n; ++i) {
      std::lock_guard<std::mutex> g(m);
      map.emplace(keys[i], i);
    }
  }
  if (static_cast<std::int64_t>(map.size()) != n / 2) st.SkipWithError("wrong map size");
  st.SetItemsProcessed(st.iterations() * n);
}
void insert_serial(benchmark::State& st) {
  const auto& keys = umap_keys();
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  std::unordered_map<std::int64_t, std::int64_t> map;
  for (auto _ : st) {
    map.clear();
    map.reserve(n / 2);
    for (std::int64_t i = 0; i < n; ++i) map.emplace(keys[i], i);
  }
  if (static_cast<std::int64_t>(map.size()) != n / 2) st.SkipWithError("wrong map size");
  st.SetItemsProcessed(st.iterations() * n);
}
void find_weft(benchmark::State& st) {
  const auto& keys = umap_keys();
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const auto k = keys_view(keys);
  Map map(static_cast<std::uint32_t>(n / 2));
  weft::parallel_for(
      "umap_fill", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t i) { map.insert(k(i), i); });
  std::int64_t found = 0;
  for (auto _ : st) {
    found = 0;
    weft::parallel_reduce(
        "umap_find", weft::RangePolicy<Exec>(0, n),
        WEFT_LAMBDA(std::int64_t i, std::int64_t & c) { c += map.find(k(i)) != Map::invalid_index; }, found);
  }
  if (found != n) st.SkipWithError("keys not found");
  g_umap_sink = found;
  st.SetItemsProcessed(st.iterations() * n);
}
void find_std(benchmark::State& st) {
  const auto& keys = umap_keys();
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  std::unordered_map<std::int64_t, std::int64_t> map;
  map.reserve(n / 2);
  for (std::int64_t i = 0; i < n; ++i) map.emplace(keys[i], i);
  const auto& cmap = map;
  std::int64_t found = 0;
  for (auto _ : st) {
    found = 0;
#pragma omp parallel for reduction(+ : found)
    for (std::int64_t i = 0; i < n; ++i) found += cmap.find(keys[i]) != cmap.end();
  }
  if (found != n) st.SkipWithError("keys not found");
  g_umap_sink = found;
  st.SetItemsProcessed(st.iterations() * n);
}

}  // namespace

void register_unordered_map_benchmarks(bool smoke) {
  g_umap_smoke = smoke;
  auto ms = benchmark::kMillisecond;
  benchmark::RegisterBenchmark("umap_insert/weft", insert_weft)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("umap_insert/baseline", insert_mutex)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("umap_insert_serial/weft", insert_weft)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("umap_insert_serial/baseline", insert_serial)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("umap_find/weft", find_weft)->UseRealTime()->Unit(ms);
  benchmark::RegisterBenchmark("umap_find/baseline", find_std)->UseRealTime()->Unit(ms);
}
