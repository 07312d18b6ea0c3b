// Array layouts (LayoutRight, LayoutLeft, LayoutStride) and the ALL / pair / AUTO helpers.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <weft/macros.hpp>

namespace weft {

inline constexpr std::size_t max_view_rank = 8;
/// Marks an extent that was not given.
inline constexpr std::size_t invalid_extent = ~std::size_t(0);

namespace impl {
struct LayoutExtents {
  std::size_t dimension[max_view_rank] = {invalid_extent, invalid_extent, invalid_extent, invalid_extent,
                                          invalid_extent, invalid_extent, invalid_extent, invalid_extent};
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
};
template <class T1, class T2>
WEFT_INLINE_FUNCTION constexpr pair<T1, T2> make_pair(T1 a, T2 b) {
  return pair<T1, T2>(a, b);
}

/// `weft::AUTO` lets the backend choose a team size or vector length.
struct AUTO_t {
  WEFT_INLINE_FUNCTION constexpr const AUTO_t& operator()() const { return *this; }
};
inline constexpr AUTO_t AUTO{};

}  // namespace weft
