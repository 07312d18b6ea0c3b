// Array layouts (LayoutRight, LayoutLeft, LayoutStride) and the ALL / pair / AUTO helpers.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include <weft/macros.hpp>

namespace weft {

inline constexpr std::size_t max_view_rank = 8;
/// Marks an extent that was not given.
inline constexpr std::size_t invalid_extent = ~std::size_t(0);

namespace impl {
/// What indexes a View element: an integer, or an unscoped enumerator (which converts to one); not a scoped enum
/// (`enum class`), a bool or a floating-point value.
template <class T>
concept ViewIndex = (std::integral<T> && !std::is_same_v<T, bool>) ||
                    (std::is_enum_v<T> && std::is_convertible_v<T, long long>);
template <class T>
WEFT_FORCEINLINE_FUNCTION constexpr auto index_value(T i) {
  if constexpr (std::is_enum_v<T>)
    return static_cast<std::underlying_type_t<T>>(i);
  else
    return i;
}

struct LayoutExtents {
  std::size_t dimension[max_view_rank] = {invalid_extent, invalid_extent, invalid_extent, invalid_extent,
                                          invalid_extent, invalid_extent, invalid_extent, invalid_extent};
  /// Padding (LayoutLeft: the stride of dimension 1; LayoutRight: of dimension rank-2), at least the extent it
  /// pads; invalid_extent (the default) packs the View.
  std::size_t stride = invalid_extent;
  constexpr LayoutExtents() = default;
  template <class... N>
  constexpr explicit LayoutExtents(N... n) {
    static_assert(sizeof...(N) <= max_view_rank, "weft: a layout takes at most 8 extents");
    std::size_t i = 0;
    ((dimension[i++] = static_cast<std::size_t>(n)), ...);
  }
};
}  // namespace impl

/// Row major: the last index is contiguous (C, std::layout_right).
struct LayoutRight : impl::LayoutExtents {
  using array_layout = LayoutRight;
  using impl::LayoutExtents::LayoutExtents;
};
/// Column major: the first index is contiguous (Fortran, std::layout_left).
struct LayoutLeft : impl::LayoutExtents {
  using array_layout = LayoutLeft;
  using impl::LayoutExtents::LayoutExtents;
};
/// Arbitrary strides: LayoutStride(n0, s0, n1, s1, ...).
struct LayoutStride {
  using array_layout = LayoutStride;
  std::size_t dimension[max_view_rank] = {invalid_extent, invalid_extent, invalid_extent, invalid_extent,
                                          invalid_extent, invalid_extent, invalid_extent, invalid_extent};
  std::size_t stride[max_view_rank] = {};
  constexpr LayoutStride() = default;
  template <class... N>
  constexpr explicit LayoutStride(N... ns) {
    static_assert(sizeof...(N) % 2 == 0 && sizeof...(N) <= 2 * max_view_rank,
                  "weft::LayoutStride takes (extent, stride) pairs: LayoutStride(n0, s0, n1, s1, ...)");
    const std::size_t v[] = {static_cast<std::size_t>(ns)..., 0};
    for (std::size_t i = 0; i < sizeof...(N) / 2; ++i) {
      dimension[i] = v[2 * i];
      stride[i] = v[2 * i + 1];
    }
  }
  /// The layout of `rank` dimensions of extents `dims` stored in the order `order`: order[0] is the dimension
  /// whose index is contiguous (stride 1), order[rank-1] the slowest. An `order` that is not a permutation of
  /// 0..rank-1 gives a layout with no extents (as Kokkos), which a View refuses.
  template <class IOrder, class IDims>
  static constexpr LayoutStride order_dimensions(int rank, const IOrder* order, const IDims* dims) {
    LayoutStride l;
    if (rank < 0 || rank > int(max_view_rank)) return l;
    unsigned seen = 0;
    for (int r = 0; r < rank; ++r) {
      const long long d = static_cast<long long>(order[r]);
      if (d < 0 || d >= rank || (seen >> d) & 1u) return l;
      seen |= 1u << d;
    }
    std::size_t s = 1;
    for (int r = 0; r < rank; ++r) {
      l.stride[order[r]] = s;
      s *= static_cast<std::size_t>(dims[order[r]]);
      l.dimension[r] = static_cast<std::size_t>(dims[r]);
    }
    return l;
  }
};

template <class T>
inline constexpr bool is_array_layout_v =
    std::is_same_v<T, LayoutRight> || std::is_same_v<T, LayoutLeft> || std::is_same_v<T, LayoutStride>;

/// `weft::ALL` (or `weft::ALL()`) keeps a whole dimension in subview().
struct ALL_t {
  WEFT_INLINE_FUNCTION constexpr const ALL_t& operator()() const { return *this; }
};
inline constexpr ALL_t ALL{};

/// A device-friendly std::pair, used for half-open [first, second) ranges in subview().
template <class T1, class T2 = T1>
struct pair {
  using first_type = T1;
  using second_type = T2;
  T1 first;
  T2 second;
  constexpr pair() = default;
  WEFT_INLINE_FUNCTION constexpr pair(T1 a, T2 b) : first(a), second(b) {}
  /// From a pair of other (convertible) types, e.g. pair<float, float>(minmax(a, b)), and from std::pair.
  template <class U1, class U2>
  requires(std::is_convertible_v<const U1&, T1>&& std::is_convertible_v<const U2&, T2>) WEFT_INLINE_FUNCTION
      constexpr pair(const pair<U1, U2>& o)
      : first(o.first), second(o.second) {}
  template <class U1, class U2>
  requires(std::is_convertible_v<const U1&, T1>&& std::is_convertible_v<const U2&, T2>) constexpr pair(
      const std::pair<U1, U2>& o)
      : first(o.first), second(o.second) {}
  /// From a pair of other types; into a pair of references (tie(a, b) = f()) it assigns through them.
  template <class U1, class U2>
  WEFT_INLINE_FUNCTION constexpr pair& operator=(const pair<U1, U2>& o) {
    first = o.first;
    second = o.second;
    return *this;
  }
  std::pair<T1, T2> to_std_pair() const { return std::pair<T1, T2>(first, second); }
  template <class U1, class U2>
  friend WEFT_INLINE_FUNCTION constexpr bool operator==(const pair& a, const pair<U1, U2>& b) {
    return a.first == b.first && a.second == b.second;
  }
  template <class U1, class U2>
  friend WEFT_INLINE_FUNCTION constexpr bool operator<(const pair& a, const pair<U1, U2>& b) {
    return a.first < b.first || (!(b.first < a.first) && a.second < b.second);
  }
};
template <class T1, class T2>
WEFT_INLINE_FUNCTION constexpr pair<T1, T2> make_pair(T1 a, T2 b) {
  return pair<T1, T2>(a, b);
}
/// tie(found, index) = bitset.find_any_set_near(hint): a pair of references that takes a pair's two values.
template <class T1, class T2>
WEFT_INLINE_FUNCTION constexpr pair<T1&, T2&> tie(T1& a, T2& b) {
  return pair<T1&, T2&>(a, b);
}

/// `weft::AUTO` lets the backend choose a team size or vector length.
struct AUTO_t {
  WEFT_INLINE_FUNCTION constexpr const AUTO_t& operator()() const { return *this; }
};
inline constexpr AUTO_t AUTO{};

}  // namespace weft
