// weft::BinSort with Kokkos::BinSort's interface (BinOp1D, BinOp3D, create_permute_vector, sort(values),
// get_bin_count / get_bin_offsets / get_permute_vector): groups the keys [begin, end) by the bin a bin operator
// gives each, and applies that permutation to any View whose first index runs over the keys.
//
// Unlike Kokkos, which places keys into their bins with atomics (so the order inside a bin changes from run to
// run), Weft's permutation is deterministic and stable: keys of one bin keep their index order (a radix
// sort_by_key on the bin numbers), or with sort_within_bins follow the operator's key order, ties by index (a
// comparator merge sort). A key whose bin falls outside [0, max_bins()) raises weft::Error instead of writing
// out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <weft/algorithms/sort.hpp>
#include <weft/weft.hpp>

namespace weft {

/// Bins of equal width over [min, max] of a rank-1 key View: bin(i) = int((keys(i) - min) * max_bins / (max - min));
/// a key equal to max gets a bin of its own (max_bins() = max_bins + 1), as in Kokkos. Keys outside [min, max] are
/// an error (Kokkos truncates them into the edge bins or past the end).
template <class KeyViewType>
struct BinOp1D {
  int max_bins_ = 0;
  double mul_ = 0, min_ = 0;
  BinOp1D() = default;
  BinOp1D(int max_bins, typename KeyViewType::const_value_type min, typename KeyViewType::const_value_type max)
      : max_bins_(max_bins + 1), mul_(double(max_bins) / (double(max) - double(min))), min_(double(min)) {}
  /// -1 (reported by BinSort) for a key outside [min, max] or NaN, which truncation would put in a wrong bin.
  template <class V>
  WEFT_INLINE_FUNCTION int bin(V& keys, const int& i) const {
    const double t = mul_ * (double(keys(i)) - min_);
    return t >= 0 && t <= double(max_bins_ - 1) ? static_cast<int>(t) : -1;
  }
  WEFT_INLINE_FUNCTION int max_bins() const { return max_bins_; }
  /// The order inside a bin (sort_within_bins).
  template <class V, class I1, class I2>
  WEFT_INLINE_FUNCTION bool operator()(V& keys, I1& i1, I2& i2) const {
    return keys(i1) < keys(i2);
  }
};

/// Bins of a box over a rank-2 key View of points (n x 3): max_bins[d] cells along each axis of [min[d], max[d]),
/// numbered with the last axis fastest. Keys must lie inside the box (a key at max[d] is outside).
template <class KeyViewType>
struct BinOp3D {
  int max_bins_[3] = {};
  double mul_[3] = {}, min_[3] = {};
  BinOp3D() = default;
  BinOp3D(int max_bins[], typename KeyViewType::const_value_type min[], typename KeyViewType::const_value_type max[]) {
    for (int d = 0; d < 3; ++d) {
      max_bins_[d] = max_bins[d];
      mul_[d] = double(max_bins[d]) / (double(max[d]) - double(min[d]));
      min_[d] = double(min[d]);
    }
  }
  template <class V>
  WEFT_INLINE_FUNCTION int bin(V& keys, const int& i) const {
    int c[3];
    for (int d = 0; d < 3; ++d) {
      const double x = mul_[d] * (double(keys(i, d)) - min_[d]);
      c[d] = x < 0 ? -1 : static_cast<int>(x);
      if (c[d] < 0 || c[d] >= max_bins_[d]) return -1;  // outside the box: reported, never wrapped into a bin
    }
    return (c[0] * max_bins_[1] + c[1]) * max_bins_[2] + c[2];
  }
  WEFT_INLINE_FUNCTION int max_bins() const { return max_bins_[0] * max_bins_[1] * max_bins_[2]; }
  /// Lexicographic order of the points (sort_within_bins).
  template <class V, class I1, class I2>
  WEFT_INLINE_FUNCTION bool operator()(V& keys, I1& i1, I2& i2) const {
    for (int d = 0; d < 3; ++d) {
      if (keys(i1, d) < keys(i2, d)) return true;
      if (keys(i2, d) < keys(i1, d)) return false;
    }
    return false;
  }
};

namespace impl {
/// The order of a bin sort with sort_within_bins: by bin, then by the operator's key order (stable).
template <class Keys, class Op>
struct BinThenKey {
  Keys keys;
  Op op;
  template <class I>
  WEFT_INLINE_FUNCTION bool operator()(const I& a, const I& b) const {
    const int ia = static_cast<int>(a), ib = static_cast<int>(b);
    const int ba = op.bin(keys, ia), bb = op.bin(keys, ib);
    if (ba != bb) return ba < bb;
    return op(keys, ia, ib);
  }
};

/// v(i), v(i, j) or v(i, j, k) by rank.
template <class V>
WEFT_INLINE_FUNCTION decltype(auto) element(const V& v, std::int64_t i, std::int64_t j, std::int64_t k) {
  if constexpr (V::R == 1)
    return v(i);
  else if constexpr (V::R == 2)
    return v(i, j);
  else
    return v(i, j, k);
}
/// dst(i, ...) = src(perm(i) + shift, ...) over the first index; the rest of the extents copied whole.
template <class E, class Dst, class Src, class Perm>
void permute_rows(const E& exec, const Dst& dst, const Src& src, const Perm& perm, std::int64_t shift) {
  const std::int64_t n = static_cast<std::int64_t>(dst.extent(0));
  const std::int64_t e1 = Dst::R > 1 ? static_cast<std::int64_t>(dst.extent(1)) : 1;
  const std::int64_t e2 = Dst::R > 2 ? static_cast<std::int64_t>(dst.extent(2)) : 1;
  parallel_for(
      "weft::BinSort (permute)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n), WEFT_LAMBDA(std::int64_t i) {
        const std::int64_t s = static_cast<std::int64_t>(perm(i)) + shift;
        for (std::int64_t j = 0; j < e1; ++j)
          for (std::int64_t k = 0; k < e2; ++k) element(dst, i, j, k) = element(src, s, j, k);
      });
}
}  // namespace impl

/// Kokkos::BinSort: `BinSort<Keys, Op> s(keys, op); s.create_permute_vector(); s.sort(values);`.
template <class KeyViewType, class BinSortOp, class Space = typename KeyViewType::memory_space,
          class SizeType = std::size_t>
class BinSort {
 public:
  using memory_space = typename KeyViewType::memory_space;
  using execution_space = impl::exec_for_memory_t<memory_space>;
  using bin_op_type = BinSortOp;
  using size_type = SizeType;
  using const_key_view_type = typename KeyViewType::const_type;
  using offset_type = View<size_type*, memory_space>;
  using bin_count_type = View<const int*, memory_space>;
  using permute_vector_type = View<size_type*, memory_space>;

  template <ExecutionSpace E>
  BinSort(const E&, const_key_view_type keys, int range_begin, int range_end, BinSortOp bin_op,
          bool sort_within_bins = false)
      : keys_(keys), begin_(range_begin), end_(range_end), op_(bin_op), within_(sort_within_bins) {
    if (range_begin < 0 || range_end < range_begin || std::size_t(range_end) > keys.extent(0))
      impl::throw_cat({"weft::BinSort: the range [", range_begin, ", ", range_end, ") is not inside the keys \"",
                       keys.label(), "\" (", keys.extent(0), ")"});
    if (bin_op.max_bins() <= 0)
      impl::throw_cat({"weft::BinSort: the bin operator has ", bin_op.max_bins(), " bins; give it at least one"});
  }
  /// An empty BinSort, to assign one to later (Kokkos's default constructor); it holds no keys.
  BinSort() requires std::is_default_constructible_v<BinSortOp> : begin_(0), end_(0), op_(), within_(false) {}
  BinSort(const_key_view_type keys, int range_begin, int range_end, BinSortOp bin_op, bool sort_within_bins = false)
      : BinSort(execution_space(), keys, range_begin, range_end, bin_op, sort_within_bins) {}
  template <ExecutionSpace E>
  BinSort(const E& exec, const_key_view_type keys, BinSortOp bin_op, bool sort_within_bins = false)
      : BinSort(exec, keys, 0, static_cast<int>(keys.extent(0)), bin_op, sort_within_bins) {}
  BinSort(const_key_view_type keys, BinSortOp bin_op, bool sort_within_bins = false)
      : BinSort(execution_space(), keys, bin_op, sort_within_bins) {}

  /// Counts the keys per bin, the bins' offsets, and the permutation that groups the keys by bin.
  template <ExecutionSpace E>
  void create_permute_vector(const E& exec) {
    const int nbins = op_.max_bins();
    const std::int64_t n = end_ - begin_, begin = begin_;
    const View<int*, memory_space> bins(view_alloc("weft::BinSort bins", WithoutInitializing), n);
    const View<int*, memory_space> count("weft::BinSort bin count", nbins);
    const offset_type offsets(view_alloc("weft::BinSort bin offsets", WithoutInitializing), nbins);
    const permute_vector_type order(view_alloc("weft::BinSort permute vector", WithoutInitializing), n);
    const const_key_view_type keys = keys_;
    const BinSortOp op = op_;
    std::int64_t outside = 0;
    parallel_reduce(
        "weft::BinSort (bins)", RangePolicy<E, IndexType<std::int64_t>>(exec, 0, n),
        WEFT_LAMBDA(std::int64_t i, std::int64_t & bad) {
          const_key_view_type k = keys;
          const int b = op.bin(k, static_cast<int>(begin + i));
          bins(i) = b;
          if (b < 0 || b >= nbins)
            ++bad;
          else
            atomic_add(&count(b), 1);
          order(i) = static_cast<size_type>(begin + i);
        },
        outside);
    if (outside > 0)
      impl::throw_cat({"weft::BinSort: ", outside, " of the ", n, " keys of \"", keys_.label(),
                       "\" fall outside the bin operator's ", nbins,
                       " bins (keys outside [min, max] of BinOp1D, or outside the box of BinOp3D); widen the range"});
    parallel_scan(
        "weft::BinSort (offsets)", RangePolicy<E>(exec, 0, nbins), WEFT_LAMBDA(int b, size_type& u, bool final) {
          if (final) offsets(b) = u;
          u += static_cast<size_type>(count(b));
        });
    if (within_)
      ::weft::sort(exec, order, impl::BinThenKey<const_key_view_type, BinSortOp>{keys_, op_});
    else
      ::weft::sort_by_key(exec, bins, order);  // radix on the bin numbers: stable, so index order inside each bin
    count_ = count;
    offsets_ = offsets;
    order_ = order;
  }
  void create_permute_vector() { create_permute_vector(execution_space()); }

  /// values(values_begin + i, ...) = old values(values_begin + order(i) - range_begin, ...) for the range's keys.
  template <ExecutionSpace E, class ValuesViewType>
  void sort(const E& exec, const ValuesViewType& values, int values_range_begin, int values_range_end) const {
    static_assert(is_view_v<ValuesViewType> && ValuesViewType::R >= 1 && ValuesViewType::R <= 3,
                  "weft::BinSort::sort: values must be a View of rank 1 to 3 (the first index runs over the keys)");
    if (values.extent(0) == 0) return;  // nothing to permute (Kokkos: sorting an empty View is always allowed)
    const std::int64_t n = end_ - begin_;
    if (order_.extent(0) != std::size_t(n))
      throw Error("weft::BinSort::sort(\"" + values.label() + "\"): call create_permute_vector() first");
    if (values_range_end - values_range_begin != n || values_range_begin < 0 ||
        std::size_t(values_range_end) > values.extent(0))
      impl::throw_cat({"weft::BinSort::sort(\"", values.label(), "\"): the values range [", values_range_begin, ", ",
                       values_range_end, ") of ", values.extent(0), " rows must hold the ", n,
                       " keys of the sort's range"});
    if (n == 0) return;
    const auto rows = subview_rows(values, values_range_begin, values_range_end);
    const auto sorted = rows_like(values, std::size_t(n));
    impl::permute_rows(exec, sorted, values, order_, std::int64_t(values_range_begin) - begin_);
    deep_copy(exec, rows, sorted);
  }
  template <class ValuesViewType>
  void sort(const ValuesViewType& values, int values_range_begin, int values_range_end) const {
    sort(execution_space(), values, values_range_begin, values_range_end);
  }
  template <ExecutionSpace E, class ValuesViewType>
  void sort(const E& exec, const ValuesViewType& values) const {
    sort(exec, values, 0, end_ - begin_);
  }
  template <class ValuesViewType>
  void sort(const ValuesViewType& values) const {
    sort(execution_space(), values);
  }

  permute_vector_type get_permute_vector() const { return order_; }
  bin_count_type get_bin_count() const { return count_; }
  offset_type get_bin_offsets() const { return offsets_; }

 private:
  template <class V>
  static auto subview_rows(const V& v, int b, int e) {
    if constexpr (V::R == 1)
      return subview(v, pair<long, long>(b, e));
    else if constexpr (V::R == 2)
      return subview(v, pair<long, long>(b, e), ALL);
    else
      return subview(v, pair<long, long>(b, e), ALL, ALL);
  }
  /// A packed View of n rows shaped like v's rows.
  template <class V>
  static auto rows_like(const V& v, std::size_t n) {
    using Tmp = View<typename V::non_const_data_type, LayoutRight, typename V::memory_space>;
    const auto a = view_alloc("weft::BinSort sorted values", WithoutInitializing);
    if constexpr (V::R == 1)
      return Tmp(a, n);
    else if constexpr (V::R == 2)
      return Tmp(a, n, v.extent(1));
    else
      return Tmp(a, n, v.extent(1), v.extent(2));
  }
  const_key_view_type keys_;
  int begin_, end_;
  BinSortOp op_;
  bool within_;
  View<int*, memory_space> count_;
  offset_type offsets_;
  permute_vector_type order_;
};

}  // namespace weft
