// perf/gpu: Weft's team layer on the CUDA backend against the same kernels written in raw CUDA with __shared__
// and threadIdx-strided loops, timed with CUDA events on one stream:
//   spmv      y = A x for the 27-point operator on a 256^3 grid (2^24 rows, CSR): TeamThreadRange over rows,
//             ThreadVectorRange over a row's nonzeros with a nested reduction (vector length 8, 32 rows a team);
//             the baseline maps rows to threadIdx.y and nonzeros to threadIdx.x, reduced by __shfl_down_sync;
//   row_sum   out(r) = sum_j A(r, j) of a 2-D View (2^14 rows of 2^13 doubles, LayoutRight): one team per row,
//             TeamThreadRange with a nested reduction; the baseline a block per row, a strided loop and a
//             __shared__ tree.
// Goal on a GPU (goals.json): each Weft kernel at >= 0.90 of its raw kernel's rate. Nsight Compute's sectors per
// request and bank conflicts on these kernels are what GpuEmu's memory model predicts (tests/gpu/test_memory_model).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <weft/weft.hpp>
#include "timing.hpp"

namespace {

using Exec = weft::Cuda;
using weft_perf::timed;
int g_grid = 256;                                 // spmv: g^3 rows
std::int64_t g_rows = 1 << 14, g_cols = 1 << 13;  // row_sum

constexpr int spmv_vector = 8, spmv_rows_per_team = 32;

/// The 27-point operator's CSR arrays on the device: 26 on the diagonal, -1 for each neighbour in the grid.
struct Csr {
  weft::View<std::int64_t*> row_ptr;
  weft::View<int*> col;
  weft::View<double*> val;
  std::int64_t n = 0;
};
Csr build_27_point(int g) {
  Csr a;
  a.n = std::int64_t(g) * g * g;
  const std::int64_t n = a.n;
  a.row_ptr = weft::View<std::int64_t*>("row_ptr", n + 1);
  auto rp = a.row_ptr;
  weft::parallel_scan(
      "spmv row_ptr", weft::RangePolicy<Exec>(0, n + 1), WEFT_LAMBDA(std::int64_t r, std::int64_t & u, bool final) {
        if (final) rp(r) = u;
        if (r < n) {
          const int i = int(r % g), j = int((r / g) % g), k = int(r / (std::int64_t(g) * g));
          const int ni = 1 + (i > 0) + (i + 1 < g), nj = 1 + (j > 0) + (j + 1 < g), nk = 1 + (k > 0) + (k + 1 < g);
          u += ni * nj * nk;
        }
      });
  std::int64_t nnz = 0;
  weft::deep_copy(nnz, weft::subview(a.row_ptr, n));
  a.col = weft::View<int*>("col", nnz);
  a.val = weft::View<double*>("val", nnz);
  auto col = a.col;
  auto val = a.val;
  weft::parallel_for(
      "spmv fill", weft::RangePolicy<Exec>(0, n), WEFT_LAMBDA(std::int64_t r) {
        const int i = int(r % g), j = int((r / g) % g), k = int(r / (std::int64_t(g) * g));
        std::int64_t p = rp(r);
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              const int x = i + di, y = j + dj, z = k + dk;
              if (x < 0 || y < 0 || z < 0 || x >= g || y >= g || z >= g) continue;
              col(p) = int((std::int64_t(z) * g + y) * g + x);
              val(p) = (di | dj | dk) == 0 ? 26.0 : -1.0;
              ++p;
            }
      });
  return a;
}

/// y(r) for x = 1 + c % 3 computed on the host for row r of the 27-point operator.
double expected_row(int g, std::int64_t r) {
  const int i = int(r % g), j = int((r / g) % g), k = int(r / (std::int64_t(g) * g));
  double s = 0;
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const int x = i + di, y = j + dj, z = k + dk;
        if (x < 0 || y < 0 || z < 0 || x >= g || y >= g || z >= g) continue;
        const std::int64_t c = (std::int64_t(z) * g + y) * g + x;
        s += ((di | dj | dk) == 0 ? 26.0 : -1.0) * double(1 + c % 3);
      }
  return s;
}

/// x(c) = 1 + c % 3, the vector expected_row assumes.
void fill_x(const weft::View<double*>& x) {
  weft::parallel_for(
      "spmv x", weft::RangePolicy<Exec>(0, std::int64_t(x.extent(0))),
      WEFT_LAMBDA(std::int64_t c) { x(c) = 1 + c % 3; });
}

bool check_spmv(const weft::View<double*>& y, int g) {
  auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), y);
  const std::int64_t n = std::int64_t(g) * g * g;
  for (std::int64_t r : {std::int64_t(0), std::int64_t(1), n / 2 + g * g / 2 + g / 2, n - 1, n / 3})
    if (h(r) != expected_row(g, r)) return false;
  return true;
}

void spmv_weft(benchmark::State& st) {
  const Csr a = build_27_point(g_grid);
  const std::int64_t n = a.n;
  weft::View<double*> x("x", n), y("y", n);
  fill_x(x);
  const auto rp = a.row_ptr;
  const auto col = a.col;
  const auto val = a.val;
  using Policy = weft::TeamPolicy<Exec>;
  const Policy policy((n + spmv_rows_per_team - 1) / spmv_rows_per_team, spmv_rows_per_team, spmv_vector);
  timed(st, [&] {
    weft::parallel_for(
        "spmv", policy, WEFT_LAMBDA(const Policy::member_type& m) {
          const std::int64_t first = std::int64_t(m.league_rank()) * spmv_rows_per_team;
          weft::parallel_for(weft::TeamThreadRange(m, spmv_rows_per_team), [&](int q) {
            const std::int64_t r = first + q;
            if (r >= n) return;
            double s = 0;
            weft::parallel_reduce(
                weft::ThreadVectorRange(m, rp(r), rp(r + 1)),
                [&](std::int64_t p, double& acc) { acc += val(p) * x(col(p)); }, s);
            weft::single(weft::PerThread(m), [&] { y(r) = s; });
          });
        });
  });
  if (!check_spmv(y, g_grid)) st.SkipWithError("wrong spmv result");
  st.SetBytesProcessed(st.iterations() * std::int64_t(a.val.extent(0)) * (sizeof(double) + sizeof(int)));
}

__global__ void raw_spmv(const std::int64_t* rp, const int* col, const double* val, const double* x, double* y,
                         std::int64_t n) {
  const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y;
  double s = 0;
  if (r < n)
    for (std::int64_t p = rp[r] + threadIdx.x; p < rp[r + 1]; p += blockDim.x) s += val[p] * x[col[p]];
  for (int d = spmv_vector / 2; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d, spmv_vector);
  if (r < n && threadIdx.x == 0) y[r] = s;
}

void spmv_baseline(benchmark::State& st) {
  const Csr a = build_27_point(g_grid);
  const std::int64_t n = a.n;
  weft::View<double*> x("x", n), y("y", n);
  fill_x(x);
  const dim3 block(spmv_vector, spmv_rows_per_team);
  const unsigned blocks = unsigned((n + spmv_rows_per_team - 1) / spmv_rows_per_team);
  timed(st, [&] {
    raw_spmv<<<blocks, block, 0, Exec().cuda_stream()>>>(a.row_ptr.data(), a.col.data(), a.val.data(), x.data(),
                                                         y.data(), n);
  });
  if (!check_spmv(y, g_grid)) st.SkipWithError("wrong spmv result");
  st.SetBytesProcessed(st.iterations() * std::int64_t(a.val.extent(0)) * (sizeof(double) + sizeof(int)));
}

// ---- row sums ----
constexpr int row_team = 256;

void fill_rows(const weft::View<double**, weft::LayoutRight>& A) {
  const std::int64_t cols = std::int64_t(A.extent(1));
  weft::parallel_for(
      "row_sum fill", weft::RangePolicy<Exec>(0, std::int64_t(A.extent(0)) * cols),
      WEFT_LAMBDA(std::int64_t i) { A(i / cols, i % cols) = double((i % cols) % 5) * 0.5; });
}
bool check_rows(const weft::View<double*>& out, std::int64_t cols) {
  double expect = 0;
  for (std::int64_t j = 0; j < cols; ++j) expect += double(j % 5) * 0.5;
  auto h = weft::create_mirror_view_and_copy(weft::HostSpace(), out);
  for (std::size_t r = 0; r < h.extent(0); ++r)
    if (h(r) != expect) return false;
  return true;
}

void row_sum_weft(benchmark::State& st) {
  weft::View<double**, weft::LayoutRight> A("A", g_rows, g_cols);
  weft::View<double*> out("out", g_rows);
  fill_rows(A);
  const std::int64_t cols = g_cols;
  using Policy = weft::TeamPolicy<Exec>;
  timed(st, [&] {
    weft::parallel_for(
        "row_sum", Policy(g_rows, row_team), WEFT_LAMBDA(const Policy::member_type& m) {
          const int r = m.league_rank();
          double s = 0;
          weft::parallel_reduce(
              weft::TeamThreadRange(m, cols), [&](std::int64_t j, double& acc) { acc += A(r, j); }, s);
          if (m.team_rank() == 0) out(r) = s;
        });
  });
  if (!check_rows(out, g_cols)) st.SkipWithError("wrong row sums");
  st.SetBytesProcessed(st.iterations() * g_rows * g_cols * sizeof(double));
}

__global__ void raw_row_sum(const double* A, double* out, std::int64_t rows, std::int64_t cols) {
  __shared__ double partial[row_team / 32];
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    double s = 0;
    for (std::int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += A[r * cols + j];
    for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
      s = threadIdx.x < row_team / 32 ? partial[threadIdx.x] : 0.0;
      for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
      if (threadIdx.x == 0) out[r] = s;
    }
    __syncthreads();
  }
}

void row_sum_baseline(benchmark::State& st) {
  weft::View<double**, weft::LayoutRight> A("A", g_rows, g_cols);
  weft::View<double*> out("out", g_rows);
  fill_rows(A);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  // As many blocks as Weft's team dispatch launches for this league (multiprocessors x blocks per SM x 4).
  const unsigned blocks = unsigned(std::min<std::int64_t>(g_rows, std::int64_t(sms) * 4 * 4));
  timed(st, [&] { raw_row_sum<<<blocks, row_team, 0, Exec().cuda_stream()>>>(A.data(), out.data(), g_rows, g_cols); });
  if (!check_rows(out, g_cols)) st.SkipWithError("wrong row sums");
  st.SetBytesProcessed(st.iterations() * g_rows * g_cols * sizeof(double));
}

}  // namespace

int main(int argc, char** argv) {
  weft::ScopeGuard guard(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--smoke") == 0) {
      g_grid = 32;
      g_rows = 1 << 8;
      g_cols = 1 << 10;
      for (int k = i; k + 1 < argc; ++k) argv[k] = argv[k + 1];
      --argc;
      break;
    }
  auto reg = [](const char* name, void (*fn)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name, fn)->UseManualTime()->Unit(benchmark::kMicrosecond);
  };
  reg("spmv/weft", spmv_weft);
  reg("spmv/baseline", spmv_baseline);
  reg("row_sum/weft", row_sum_weft);
  reg("row_sum/baseline", row_sum_baseline);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
