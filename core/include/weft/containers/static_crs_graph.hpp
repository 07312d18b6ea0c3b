// StaticCrsGraph: a compressed-row graph (row offsets and the column entries of each row), Kokkos's container of
// that name. Its two Views live in one memory space; rowConst(i) reads a row in device code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <weft/deep_copy.hpp>
#include <weft/parallel.hpp>
#include <weft/reducers.hpp>
#include <weft/view.hpp>

namespace weft {
namespace impl {
/// The entries' View data type: one entry per element of rank 1, an array DataType adding its extents
/// (`unsigned[3]` -> `unsigned*[3]`, as Kokkos reads `DataType*` there).
template <class D>
struct crs_entries_data {
  using type = D*;
};
template <class X, std::size_t N>
struct crs_entries_data<X[N]> {
  using type = typename crs_entries_data<X>::type[N];
};
}  // namespace impl

/// Row i of a graph, as rowConst(i) gives it: `length` entries, `colidx(k)` (or `(k)`) the k-th, k < length.
template <class Graph>
struct GraphRowViewConst {
  using ordinal_type = const typename Graph::data_type;

  WEFT_INLINE_FUNCTION GraphRowViewConst(ordinal_type* first, const ordinal_type& stride, const ordinal_type& count)
      : first_(first), stride_(stride), length(count) {}
  /// The row that starts at entries(offset).
  template <std::integral Offset>
  WEFT_INLINE_FUNCTION GraphRowViewConst(const typename Graph::entries_type& entries, const ordinal_type& stride,
                                         const ordinal_type& count, const Offset& offset)
      : first_(entries.data() + offset * entries.stride(0)), stride_(stride), length(count) {}

  WEFT_INLINE_FUNCTION ordinal_type& colidx(const ordinal_type& k) const { return first_[k * stride_]; }
  WEFT_INLINE_FUNCTION ordinal_type& operator()(const ordinal_type& k) const { return colidx(k); }

 private:
  ordinal_type* first_;
  const ordinal_type stride_;

 public:
  const ordinal_type length;
};

/// StaticCrsGraph<DataType, Arg1, Arg2, Arg3, SizeType>: `row_map` (numRows() + 1 offsets into `entries`, of
/// SizeType), `entries` (DataType per entry; an array type such as `unsigned[3]` gives each entry that many values),
/// and, after create_block_partitioning, `row_block_offsets`. Arg1..Arg3 are View properties (layout, space or
/// Device, memory traits). Copies share the Views.
template <class DataType, class Arg1, class Arg2 = void, class Arg3 = void,
          class SizeType = typename View<typename impl::crs_entries_data<DataType>::type, Arg1, Arg2, Arg3>::size_type>
class StaticCrsGraph {
  using probe = View<typename impl::crs_entries_data<DataType>::type, Arg1, Arg2, Arg3>;

 public:
  using data_type = DataType;
  using array_layout = typename probe::array_layout;
  using execution_space = typename probe::execution_space;
  using device_type = typename probe::device_type;
  using memory_traits = typename probe::memory_traits;
  using size_type = SizeType;

  using staticcrsgraph_type = StaticCrsGraph<DataType, Arg1, Arg2, Arg3, SizeType>;
  using HostMirror =
      StaticCrsGraph<data_type, array_layout, typename probe::host_mirror_space, memory_traits, size_type>;

  using row_map_type = View<const size_type*, array_layout, device_type, memory_traits>;
  using entries_type = View<typename impl::crs_entries_data<data_type>::type, array_layout, device_type, memory_traits>;
  using row_block_type = View<const size_type*, array_layout, device_type, memory_traits>;

  entries_type entries;
  row_map_type row_map;
  row_block_type row_block_offsets;

  StaticCrsGraph() = default;
  /// A graph over existing Views (not copied).
  template <class EntriesType, class RowMapType>
  WEFT_INLINE_FUNCTION StaticCrsGraph(const EntriesType& e, const RowMapType& r)
      : entries(e), row_map(r), row_block_offsets() {}

  WEFT_INLINE_FUNCTION size_type numRows() const {
    return row_map.extent(0) != 0 ? static_cast<size_type>(row_map.extent(0) - 1) : size_type(0);
  }
  WEFT_INLINE_FUNCTION constexpr bool is_allocated() const { return row_map.is_allocated() && entries.is_allocated(); }
  /// Row i's entries, in the graph's memory space (device code reads a device graph's rows).
  WEFT_INLINE_FUNCTION GraphRowViewConst<StaticCrsGraph> rowConst(const data_type i) const {
    const size_type first = row_map(i);
    const auto count = static_cast<data_type>(row_map(i + 1) - first);
    if (count == 0) return GraphRowViewConst<StaticCrsGraph>(nullptr, 1, 0);
    return GraphRowViewConst<StaticCrsGraph>(entries, 1, count, first);
  }

  /// Splits the rows into `num_blocks` consecutive blocks of about equal cost, a row costing its entries plus
  /// `fix_cost_per_row`: block b is rows [row_block_offsets(b), row_block_offsets(b + 1)). Boundary b goes to the row
  /// edge nearest to b / num_blocks of the total cost, so a block costs about its share plus half a row at each end,
  /// and a row heavier than two shares gets a block of its own (the blocks it spans beyond that are empty).
  void create_block_partitioning(size_type num_blocks, size_type fix_cost_per_row = 4) {
    if (num_blocks < 1)
      impl::throw_error("StaticCrsGraph::create_block_partitioning: num_blocks is 0; give at least 1 block");
    View<size_type*, array_layout, device_type> offsets("weft::StaticCrsGraph::row_block_offsets", num_blocks + 1);
    const std::int64_t rows = static_cast<std::int64_t>(numRows());
    if (rows == 0) {  // no rows (or no row_map): every offset 0
      row_block_offsets = offsets;
      return;
    }
    const row_map_type rm = row_map;
    const std::uint64_t c = fix_cost_per_row, nb = num_blocks;
    parallel_for(
        "weft::StaticCrsGraph::create_block_partitioning", RangePolicy<execution_space>(0, rows + 1),
        WEFT_LAMBDA(std::int64_t r) {
          // Edge r (0..rows) sits at cost P(r) = entries before row r + c * r. Target b sits at b * total / nb; the
          // edges' cells (between the midpoints of the rows either side, in units scaled by 2 * nb) split the line,
          // so each boundary b in 1..nb-1 is written by exactly one edge, and the boundaries come out in order.
          auto at = [&](std::int64_t e) { return std::uint64_t(rm(e) - rm(0)) + c * std::uint64_t(e); };
          const std::uint64_t total = at(rows);
          if (r == 0) {
            offsets(0) = 0;
            offsets(nb) = static_cast<size_type>(rows);
          }
          if (total == 0) {  // nothing to balance: every row in block 0
            if (r == rows)
              for (std::uint64_t b = 1; b < nb; ++b) offsets(b) = static_cast<size_type>(rows);
            return;
          }
          const std::uint64_t here = at(r);
          std::uint64_t b = 1;
          if (r > 0) b = nb * (at(r - 1) + here) / (2 * total) + 1;  // first b with 2 b total > nb (P(r-1) + P(r))
          const bool last = r == rows;
          const std::uint64_t upper = last ? 0 : nb * (here + at(r + 1));
          for (; b < nb && (last || 2 * b * total <= upper); ++b) offsets(b) = static_cast<size_type>(r);
        });
    row_block_offsets = offsets;
  }
};

/// A graph whose row i has input[i] entries (entries allocated, not filled).
template <class Graph, std::integral InputSize>
typename Graph::staticcrsgraph_type create_staticcrsgraph(const std::string& label,
                                                          const std::vector<InputSize>& input) {
  using work_type = View<typename Graph::size_type*, typename Graph::array_layout, typename Graph::device_type>;
  Graph out;
  work_type row_map(label + " row_map", input.size() + 1);
  auto host = create_mirror_view(row_map);
  std::size_t sum = 0;
  host(0) = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if constexpr (std::is_signed_v<InputSize>)
      if (input[i] < 0)
        impl::throw_cat({"create_staticcrsgraph \"", label, "\": row ", i, " has a negative length (",
                         static_cast<std::int64_t>(input[i]), ")"});
    sum += static_cast<std::size_t>(input[i]);
    using S = typename Graph::size_type;
    if (sum > static_cast<std::size_t>(std::numeric_limits<S>::max()))  // row_map would wrap
      impl::throw_cat({"create_staticcrsgraph \"", label, "\": rows 0 to ", i, " hold ", sum,
                       " entries, more than its size_type counts (at most ",
                       static_cast<std::uint64_t>(std::numeric_limits<S>::max()),
                       "); give the graph a wider SizeType"});
    host(i + 1) = static_cast<S>(sum);
  }
  deep_copy(row_map, host);
  out.entries = typename Graph::entries_type(label, sum);
  out.row_map = row_map;
  return out;
}

/// A graph whose row i holds the entries input[i], in order.
template <class Graph, class InputSize>
typename Graph::staticcrsgraph_type create_staticcrsgraph(const std::string& label,
                                                          const std::vector<std::vector<InputSize>>& input) {
  static_assert(Graph::entries_type::R == 1,
                "weft::create_staticcrsgraph: entries given as values need a scalar DataType");
  std::vector<std::size_t> lengths(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) lengths[i] = input[i].size();
  auto out = create_staticcrsgraph<Graph>(label, lengths);
  auto host = create_mirror_view(out.entries);
  std::size_t k = 0;
  for (const auto& row : input)
    for (const auto& e : row) host(k++) = static_cast<typename Graph::data_type>(e);
  deep_copy(out.entries, host);
  return out;
}

/// A host copy of a graph (new Views, contents copied).
template <class D, class A1, class A2, class A3, class S>
typename StaticCrsGraph<D, A1, A2, A3, S>::HostMirror create_mirror(const StaticCrsGraph<D, A1, A2, A3, S>& g) {
  typename StaticCrsGraph<D, A1, A2, A3, S>::HostMirror out;
  auto row_map = create_mirror(g.row_map);
  auto blocks = create_mirror(g.row_block_offsets);
  out.entries = create_mirror(g.entries);
  deep_copy(row_map, g.row_map);
  deep_copy(out.entries, g.entries);
  deep_copy(blocks, g.row_block_offsets);
  out.row_map = row_map;
  out.row_block_offsets = blocks;
  return out;
}
/// The graph itself when the host can read it, else a host copy.
template <class D, class A1, class A2, class A3, class S>
typename StaticCrsGraph<D, A1, A2, A3, S>::HostMirror create_mirror_view(const StaticCrsGraph<D, A1, A2, A3, S>& g) {
  using G = StaticCrsGraph<D, A1, A2, A3, S>;
  if constexpr (std::is_same_v<typename G::HostMirror, G>)
    return g;
  else
    return create_mirror(g);
}

/// The largest entry (0 for a graph without entries).
template <class D, class A1, class A2, class A3, class S>
D maximum_entry(const StaticCrsGraph<D, A1, A2, A3, S>& g) {
  using G = StaticCrsGraph<D, A1, A2, A3, S>;
  const typename G::entries_type e = g.entries;
  D result = 0;
  parallel_reduce(
      "weft::maximum_entry", RangePolicy<typename G::execution_space>(0, std::int64_t(e.extent(0))),
      WEFT_LAMBDA(std::int64_t i, D & m) {
        if (m < e(i)) m = e(i);
      },
      Max<D>(result));
  return result < D(0) ? D(0) : result;
}

}  // namespace weft
