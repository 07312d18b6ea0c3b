// weft::linalg sparse: CsrMatrix (from COO triplets, Matrix Market files, a 27-point stencil), spmv, and
// cg_solve (conjugate gradients, optionally Jacobi-preconditioned).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <weft/linalg/blas1.hpp>
#include <weft/weft.hpp>

namespace weft::linalg {

namespace impl {
/// A Matrix Market file as triplets (1-based indices made 0-based; symmetric files expanded to both
/// triangles; pattern entries are 1). Malformed input raises weft::Error naming the file and line.
struct MatrixMarketData {
  long rows = 0, cols = 0;
  std::vector<long> i, j;
  std::vector<double> v;
  bool symmetric = false;
};
MatrixMarketData read_matrix_market(const std::string& path);
}  // namespace impl

/// Compressed sparse rows: row r's entries are entries(row_map(r) .. row_map(r+1)-1), columns ascending.
template <class T, class Ordinal = int, class Offset = std::int64_t,
          class MemorySpace = typename DefaultExecutionSpace::memory_space>
class CsrMatrix {
 public:
  using value_type = T;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using memory_space = MemorySpace;
  using row_map_type = View<Offset*, MemorySpace>;
  using entries_type = View<Ordinal*, MemorySpace>;
  using values_type = View<T*, MemorySpace>;

  CsrMatrix() = default;
  CsrMatrix(const std::string& label, Ordinal num_rows, Ordinal num_cols, const row_map_type& row_map,
            const entries_type& entries, const values_type& values)
      : label_(label), rows_(num_rows), cols_(num_cols), row_map_(row_map), entries_(entries), values_(values) {
    if (num_rows < 0 || num_cols < 0)
      throw Error("weft::linalg::CsrMatrix \"" + label + "\": negative shape " + std::to_string(num_rows) + " x " +
                  std::to_string(num_cols));
    if (row_map.extent(0) != static_cast<std::size_t>(num_rows) + 1)
      throw Error("weft::linalg::CsrMatrix \"" + label + "\": row_map has " + std::to_string(row_map.extent(0)) +
                  " entries but " + std::to_string(num_rows) + " rows need " + std::to_string(num_rows + 1));
    if (entries.extent(0) != values.extent(0))
      throw Error("weft::linalg::CsrMatrix \"" + label + "\": " + std::to_string(entries.extent(0)) +
                  " column indices but " + std::to_string(values.extent(0)) + " values");
  }

  /// From triplets (row, column, value), in any order: duplicates are summed, columns sorted per row.
  static CsrMatrix from_coo(const std::string& label, Ordinal num_rows, Ordinal num_cols,
                            const std::vector<Ordinal>& rows, const std::vector<Ordinal>& cols,
                            const std::vector<T>& vals) {
    if (rows.size() != cols.size() || rows.size() != vals.size())
      throw Error("weft::linalg::CsrMatrix::from_coo \"" + label + "\": " + std::to_string(rows.size()) + " rows, " +
                  std::to_string(cols.size()) + " columns and " + std::to_string(vals.size()) +
                  " values; give one of each per entry");
    const std::size_t n = rows.size();
    for (std::size_t k = 0; k < n; ++k)
      if (rows[k] < 0 || rows[k] >= num_rows || cols[k] < 0 || cols[k] >= num_cols)
        throw Error("weft::linalg::CsrMatrix::from_coo \"" + label + "\": entry " + std::to_string(k) + " at (" +
                    std::to_string(rows[k]) + ", " + std::to_string(cols[k]) + ") is outside the " +
                    std::to_string(num_rows) + " x " + std::to_string(num_cols) + " matrix");
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return rows[a] != rows[b] ? rows[a] < rows[b] : cols[a] < cols[b];
    });
    std::vector<Offset> rm(static_cast<std::size_t>(num_rows) + 1, 0);
    std::vector<Ordinal> ent;
    std::vector<T> val;
    ent.reserve(n);
    val.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t e = order[k];
      if (!ent.empty() && k > 0 && rows[order[k - 1]] == rows[e] && ent.back() == cols[e]) {
        const T before = val.back();
        val.back() += vals[e];
        if constexpr (std::is_floating_point_v<T>)
          if (std::isfinite(before) && std::isfinite(vals[e]) && !std::isfinite(val.back()))
            throw Error("weft::linalg::CsrMatrix::from_coo \"" + label + "\": the duplicate entries at (" +
                        std::to_string(rows[e]) + ", " + std::to_string(cols[e]) + ") (counting from 0) sum to " +
                        std::to_string(val.back()) + " in " + std::to_string(sizeof(T) * 8) +
                        "-bit floating point; scale the values or use a wider type");
        continue;
      }
      ent.push_back(cols[e]);
      val.push_back(vals[e]);
      ++rm[static_cast<std::size_t>(rows[e]) + 1];
    }
    for (std::size_t r = 0; r < static_cast<std::size_t>(num_rows); ++r) rm[r + 1] += rm[r];
    return from_host_arrays(label, num_rows, num_cols, rm, ent, val);
  }

  /// From a Matrix Market coordinate file (real, integer or pattern; general or symmetric).
  static CsrMatrix from_matrix_market(const std::string& path) {
    auto mm = impl::read_matrix_market(path);
    constexpr long limit = static_cast<long>(std::numeric_limits<Ordinal>::max());
    if (mm.rows > limit || mm.cols > limit)
      throw Error("weft::linalg::CsrMatrix::from_matrix_market: \"" + path + "\" is " + std::to_string(mm.rows) +
                  " x " + std::to_string(mm.cols) + ", too large for the ordinal type; use a 64-bit Ordinal");
    std::vector<Ordinal> r(mm.i.begin(), mm.i.end()), c(mm.j.begin(), mm.j.end());
    std::vector<T> v(mm.v.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
      v[k] = static_cast<T>(mm.v[k]);
      if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(v[k]))  // the file's values are finite doubles: this one is past T's range
          throw Error("weft::linalg::CsrMatrix::from_matrix_market: \"" + path + "\": the value " +
                      std::to_string(mm.v[k]) + " at (" + std::to_string(mm.i[k] + 1) + ", " +
                      std::to_string(mm.j[k] + 1) + ") overflows " + std::to_string(sizeof(T) * 8) +
                      "-bit floating point; read the matrix as double");
    }
    return from_coo(path, static_cast<Ordinal>(mm.rows), static_cast<Ordinal>(mm.cols), r, c, v);
  }

  /// Host arrays already in CSR form (row_map of num_rows + 1 offsets), copied into MemorySpace.
  static CsrMatrix from_host_arrays(const std::string& label, Ordinal num_rows, Ordinal num_cols,
                                    const std::vector<Offset>& rm, const std::vector<Ordinal>& ent,
                                    const std::vector<T>& val) {
    row_map_type row_map(view_alloc(WithoutInitializing, label + " row_map"), rm.size());
    entries_type entries(view_alloc(WithoutInitializing, label + " entries"), ent.size());
    values_type values(view_alloc(WithoutInitializing, label + " values"), val.size());
    upload(row_map, rm);
    upload(entries, ent);
    upload(values, val);
    return CsrMatrix(label, num_rows, num_cols, row_map, entries, values);
  }

  Ordinal num_rows() const noexcept { return rows_; }
  Ordinal num_cols() const noexcept { return cols_; }
  std::size_t nnz() const noexcept { return values_.extent(0); }
  const row_map_type& row_map() const noexcept { return row_map_; }
  const entries_type& entries() const noexcept { return entries_; }
  const values_type& values() const noexcept { return values_; }
  const std::string& label() const noexcept { return label_; }

 private:
  std::string label_;
  Ordinal rows_ = 0, cols_ = 0;
  row_map_type row_map_;
  entries_type entries_;
  values_type values_;

  template <class V, class U>
  static void upload(const V& v, const std::vector<U>& h) {
    View<typename V::non_const_value_type*, HostSpace, MemoryUnmanaged> src(const_cast<U*>(h.data()), h.size());
    deep_copy(v, src);
  }
};

/// The 27-point stencil on an nx x ny x nz grid (row-major points, x slowest): `diagonal` on the diagonal,
/// `off_diagonal` for each neighbour inside the grid (neighbours outside are dropped: Dirichlet boundaries).
/// With the defaults (26, -1) it is symmetric positive definite.
template <class T, class Ordinal = int, class Offset = std::int64_t,
          class MemorySpace = typename DefaultExecutionSpace::memory_space>
CsrMatrix<T, Ordinal, Offset, MemorySpace> stencil_27pt(long nx, long ny, long nz, T diagonal = T(26),
                                                        T off_diagonal = T(-1)) {
  if (nx < 1 || ny < 1 || nz < 1)
    throw Error("weft::linalg::stencil_27pt: grid " + std::to_string(nx) + " x " + std::to_string(ny) + " x " +
                std::to_string(nz) + "; every extent must be at least 1");
  const long n = nx * ny * nz;
  if (n > static_cast<long>(std::numeric_limits<Ordinal>::max()))
    throw Error("weft::linalg::stencil_27pt: " + std::to_string(n) +
                " rows do not fit the ordinal type; use a "
                "64-bit Ordinal");
  std::vector<Offset> rm(static_cast<std::size_t>(n) + 1);
  std::vector<Ordinal> ent;
  std::vector<T> val;
  ent.reserve(static_cast<std::size_t>(n) * 27);
  val.reserve(static_cast<std::size_t>(n) * 27);
  rm[0] = 0;
  for (long i = 0; i < nx; ++i)
    for (long j = 0; j < ny; ++j)
      for (long k = 0; k < nz; ++k) {
        for (long di = -1; di <= 1; ++di)
          for (long dj = -1; dj <= 1; ++dj)
            for (long dk = -1; dk <= 1; ++dk) {
              const long a = i + di, b = j + dj, c = k + dk;
              if (a < 0 || a >= nx || b < 0 || b >= ny || c < 0 || c >= nz) continue;
              ent.push_back(static_cast<Ordinal>((a * ny + b) * nz + c));
              val.push_back(di == 0 && dj == 0 && dk == 0 ? diagonal : off_diagonal);
            }
        rm[static_cast<std::size_t>((i * ny + j) * nz + k) + 1] = static_cast<Offset>(ent.size());
      }
  return CsrMatrix<T, Ordinal, Offset, MemorySpace>::from_host_arrays(
      "stencil_27pt " + std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz),
      static_cast<Ordinal>(n), static_cast<Ordinal>(n), rm, ent, val);
}

namespace impl {
template <class A, class X, class Y>
void check_spmv(const A& a, const X& x, const Y& y) {
  if (x.extent(0) != static_cast<std::size_t>(a.num_cols()) || y.extent(0) != static_cast<std::size_t>(a.num_rows()))
    throw Error("weft::linalg::spmv: matrix \"" + a.label() + "\" is " + std::to_string(a.num_rows()) + " x " +
                std::to_string(a.num_cols()) + " but x \"" + x.label() + "\" has " + std::to_string(x.extent(0)) +
                " and y \"" + y.label() + "\" " + std::to_string(y.extent(0)) + " elements");
}
}  // namespace impl

/// Which kernel spmv uses: one thread per row, or a team of vector lanes per row (long rows).
enum class SpmvKernel { automatic, thread_per_row, team_per_row };

/// y = alpha * A * x + beta * y. With beta == 0, y is overwritten (NaN or Inf in y does not leak).
template <ExecutionSpace E, class S, class T, class O, class F, class M, class X, class Y>
void spmv(const E& exec, S alpha, const CsrMatrix<T, O, F, M>& A, const X& x, S beta, const Y& y,
          SpmvKernel kernel = SpmvKernel::automatic) {
  impl::check_vector<X>("spmv");
  impl::check_vector<Y>("spmv");
  impl::check_spmv(A, x, y);
  const auto rm = A.row_map();
  const auto ent = A.entries();
  const auto val = A.values();
  using V = typename Y::non_const_value_type;
  const std::int64_t rows = A.num_rows();
  const double avg = rows ? static_cast<double>(A.nnz()) / static_cast<double>(rows) : 0.0;
  if (kernel == SpmvKernel::automatic)
    kernel = (!E::impl_is_host_space && avg >= 24.0) ? SpmvKernel::team_per_row : SpmvKernel::thread_per_row;
  const bool zero_beta = beta == S(0);
  if (kernel == SpmvKernel::thread_per_row) {
    parallel_for(
        "weft::linalg::spmv", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, rows), WEFT_LAMBDA(std::int64_t r) {
          V sum{};
          const F end = rm(r + 1);
          for (F k = rm(r); k < end; ++k) sum += val(k) * x(ent(k));
          y(r) = zero_beta ? V(alpha * sum) : V(alpha * sum + beta * y(r));
        });
  } else {
    // A team of team_size threads takes team_size consecutive rows; each row's entries are split over the
    // vector lanes of one thread and summed with a vector reduction.
    using Policy = TeamPolicy<E>;
    using member = typename Policy::member_type;
    const int vector = E::impl_is_host_space ? 1 : (avg >= 48 ? 32 : 8);
    const int team = E::impl_is_host_space ? 1 : 128 / vector;
    const std::int64_t league = (rows + team - 1) / team;
    parallel_for(
        "weft::linalg::spmv (team per row)", Policy(exec, league, team, vector), WEFT_LAMBDA(const member& m) {
          const std::int64_t r = static_cast<std::int64_t>(m.league_rank()) * m.team_size() + m.team_rank();
          if (r >= rows) return;
          V sum{};
          parallel_reduce(
              ThreadVectorRange(m, rm(r), rm(r + 1)), [&](F k, V& acc) { acc += val(k) * x(ent(k)); }, sum);
          single(PerThread(m), [&]() { y(r) = zero_beta ? V(alpha * sum) : V(alpha * sum + beta * y(r)); });
        });
  }
}

namespace impl {
/// z = dinv .* r (kept out of cg_solve's local lambdas: nvcc's device lambdas must sit in named functions).
template <class E, class V>
void jacobi_apply(const E& exec, const V& z, const V& dinv, const V& r) {
  parallel_for(
      "weft::linalg::cg_solve (Jacobi)",
      RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(z.extent(0))),
      WEFT_LAMBDA(std::int64_t i) { z(i) = dinv(i) * r(i); });
}
}  // namespace impl

/// What cg_solve did.
struct CgResult {
  int iterations = 0;
  double residual = 0;  // ||b - A x|| / ||b|| at the end (the recurrence's residual)
  bool converged = false;
};
enum class Preconditioner { none, jacobi };

/// Solves A x = b for symmetric positive definite A by conjugate gradients, from the x given, until
/// ||r|| <= tol * ||b|| or max_iter iterations. Jacobi: M = diag(A) (a zero diagonal entry is an error).
template <ExecutionSpace E, class T, class O, class F, class M, class B, class X>
CgResult cg_solve(const E& exec, const CsrMatrix<T, O, F, M>& A, const B& b, const X& x, double tol, int max_iter,
                  Preconditioner pre = Preconditioner::none) {
  if (A.num_rows() != A.num_cols())
    throw Error("weft::linalg::cg_solve: matrix \"" + A.label() + "\" is " + std::to_string(A.num_rows()) + " x " +
                std::to_string(A.num_cols()) + "; CG needs a square (symmetric positive definite) matrix");
  impl::check_spmv(A, x, b);
  const std::size_t n = static_cast<std::size_t>(A.num_rows());
  using V = View<T*, M>;
  V r(view_alloc(WithoutInitializing, "cg r"), n), p(view_alloc(WithoutInitializing, "cg p"), n),
      Ap(view_alloc(WithoutInitializing, "cg Ap"), n), z, dinv;
  if (pre == Preconditioner::jacobi) {
    z = V(view_alloc(WithoutInitializing, "cg z"), n);
    dinv = V(view_alloc(WithoutInitializing, "cg 1/diag"), n);
    const auto rm = A.row_map();
    const auto ent = A.entries();
    const auto val = A.values();
    long zero_diag = 0;
    parallel_reduce(
        "weft::linalg::cg_solve (diagonal)",
        RangePolicy<E, IndexType<std::int64_t>>(exec, 0, static_cast<std::int64_t>(n)),
        WEFT_LAMBDA(std::int64_t i, long& bad) {
          T d{};
          for (F k = rm(i); k < rm(i + 1); ++k)
            if (static_cast<std::int64_t>(ent(k)) == i) d += val(k);
          if (d == T(0)) ++bad;
          dinv(i) = d == T(0) ? T(0) : T(1) / d;
        },
        zero_diag);
    if (zero_diag)
      throw Error("weft::linalg::cg_solve: matrix \"" + A.label() + "\" has " + std::to_string(zero_diag) +
                  " zero diagonal entries; the Jacobi preconditioner needs a nonzero diagonal");
  }
  auto precondition = [&]() {
    if (pre == Preconditioner::jacobi) impl::jacobi_apply(exec, z, dinv, r);
  };
  CgResult res;
  spmv(exec, T(1), A, x, T(0), Ap);
  add(exec, b, scaled(T(-1), Ap), r);  // r = b - A x
  const double bnorm = static_cast<double>(vector_two_norm(exec, b));
  const double scale_ = bnorm > 0 ? bnorm : 1.0;
  double rnorm = static_cast<double>(vector_two_norm(exec, r));
  res.residual = rnorm / scale_;
  if (res.residual <= tol) {
    res.converged = true;
    return res;
  }
  precondition();
  const V& zr = pre == Preconditioner::jacobi ? z : r;
  copy(exec, zr, p);
  T rz = dot(exec, r, zr);
  for (int it = 1; it <= max_iter; ++it) {
    spmv(exec, T(1), A, p, T(0), Ap);
    const T pAp = dot(exec, p, Ap);
    if (!(pAp > T(0)))
      throw Error("weft::linalg::cg_solve: p.Ap = " + std::to_string(static_cast<double>(pAp)) + " at iteration " +
                  std::to_string(it) + ": matrix \"" + A.label() + "\" is not symmetric positive definite");
    const T alpha = rz / pAp;
    add(exec, x, scaled(alpha, p), x);
    add(exec, r, scaled(-alpha, Ap), r);
    rnorm = static_cast<double>(vector_two_norm(exec, r));
    res.iterations = it;
    res.residual = rnorm / scale_;
    if (res.residual <= tol) {
      res.converged = true;
      break;
    }
    precondition();
    const T rz_new = dot(exec, r, zr);
    const T beta = rz_new / rz;
    rz = rz_new;
    add(exec, zr, scaled(beta, p), p);
  }
  return res;
}
}  // namespace weft::linalg
