// The Kokkos::Impl utilities that Kokkos programs and Kokkos's own unit tests reach for: a type's name for
// messages, the subview-layout predicate, ScatterView's defaults. Everything else of Kokkos::Impl is Kokkos's
// implementation and stays out (docs/kokkos.md).
#pragma once

#include <cxxabi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <ostream>
#include <string>
#include <type_traits>
#include <typeinfo>

#include <utility>
#include <weft/containers/dyn_rank_view.hpp>

#include <weft/containers/scatter_view.hpp>
#include <weft/containers/unordered_map.hpp>
#include <weft/view.hpp>

namespace Kokkos {
/// The extent of a dimension known only at run time (std::dynamic_extent's value), and Kokkos's list of extents.
inline constexpr std::size_t dynamic_extent = std::size_t(-1);
namespace Experimental {
template <std::size_t... E>
struct Extents {};
}  // namespace Experimental
}  // namespace Kokkos

namespace Kokkos::Impl {

/// std::remove_cvref_t under Kokkos's pre-C++20 name.
template <class T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;
template <class T>
struct remove_cvref {
  using type = remove_cvref_t<T>;
};

/// TypeInfo<T>::name(): T's name as the compiler spells it (demangled), for messages and labels.
template <class T>
struct TypeInfo {
  static std::string name() {
    int status = 0;
    char* s = abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status);
    std::string out = status == 0 && s ? std::string(s) : std::string(typeid(T).name());
    std::free(s);
    if constexpr (std::is_const_v<std::remove_reference_t<T>>) out = "const " + out;
    if constexpr (std::is_lvalue_reference_v<T>) out += "&";
    if constexpr (std::is_rvalue_reference_v<T>) out += "&&";
    return out;
  }
};

/// SubviewLegalArgsCompileTime<LayoutDest, LayoutSrc, RankDest, RankSrc, 0, Args...>::value: whether the subview of
/// a rank-RankSrc LayoutSrc View taken with Args is, by Kokkos's rules, a rank-RankDest LayoutDest View. A LayoutStride
/// destination takes any subview. LayoutLeft to LayoutLeft: the first RankDest arguments are ALL, except that the
/// first and the RankDest-th may be ranges, and the rest are indices. LayoutRight to LayoutRight: indices first, then
/// one range, then ALLs to the end. (Weft's subview keeps the layout where Kokkos's does: these rules for rank >= 3,
/// and for rank <= 2 a range as the first argument of LayoutLeft or the last of LayoutRight.)
template <class LayoutDest, class LayoutSrc, int RankDest, int RankSrc, int CurrentArg, class... Args>
struct SubviewLegalArgsCompileTime {
  static_assert(CurrentArg == 0, "Weft answers SubviewLegalArgsCompileTime for the whole argument list (CurrentArg 0)");
  static constexpr bool legal() {
    constexpr int n = int(sizeof...(Args));
    constexpr int d = RankDest;
    if (n != RankSrc) return false;
    if constexpr (std::is_same_v<LayoutDest, ::weft::LayoutStride>) {
      return true;
    } else if constexpr (!std::is_same_v<LayoutDest, LayoutSrc>) {
      return false;
    } else {
      // Each argument: 0 an index, 1 a [begin, end) range, 2 ALL.
      constexpr int kind[] = {(std::is_same_v<std::decay_t<Args>, ::weft::ALL_t>       ? 2
                               : ::weft::impl::is_range_arg<std::decay_t<Args>>::value ? 1
                                                                                       : 0)...,
                              0};
      for (int k = 0; k < n; ++k) {
        const bool index = kind[k] == 0, range = kind[k] != 0, all = kind[k] == 2, last = k == n - 1;
        bool ok;
        if constexpr (std::is_same_v<LayoutDest, ::weft::LayoutLeft>)
          ok = last ? (k == d - 1 || index)
                    : ((k == d - 1 && range) || (k >= d && index) || (k < d && all) || (k == 0 && range));
        else if constexpr (std::is_same_v<LayoutDest, ::weft::LayoutRight>)
          ok = last ? all : ((k == n - d && range) || (k < n - d && index) || (k >= n - d && all));
        else
          ok = false;
        if (!ok) return false;
      }
      return true;
    }
  }
  static constexpr bool value = legal();
};

/// UnorderedMapPrint<Map>(map).apply(): a debugging dump of the map's keys (index, and the table slot its hash
/// names) on std::cout, from a host copy of the map. Kokkos's prints its hash lists.
template <class Map>
struct UnorderedMapPrint {
  Map map;
  explicit UnorderedMapPrint(const Map& m) : map(m) {}
  void apply(std::ostream& os = std::cout) const {
    auto h = ::weft::create_mirror(map);
    ::weft::deep_copy(h, map);
    const auto hash = h.hash_function();
    const std::uint64_t slots = 2 * std::uint64_t(h.capacity());
    for (std::uint32_t i = 0; i < h.capacity(); ++i)
      if (h.valid_at(i)) os << i << ": hash slot " << hash(h.key_at(i)) % slots << "\n";
  }
};

/// clock_tic(): a cycle counter for timing inside kernels (clock64() on a GPU; the host's steady clock in ns).
WEFT_INLINE_FUNCTION std::uint64_t clock_tic() noexcept {
#if WEFT_IMPL_DEVICE_PASS
  return static_cast<std::uint64_t>(clock64());
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// ParseViewExtents<DataType>::type: the data type's extents as Experimental::Extents, dynamic_extent for each '*'.
template <class T>
struct ParseViewExtents;

namespace Experimental {
/// The Duplication and Contribution a ScatterView takes by default on an execution space (::type).
template <class Exec>
struct DefaultDuplication {
  using type = ::weft::impl::scatter_default_duplication_t<Exec>;
};
template <class Exec, class Duplication>
struct DefaultContribution {
  using type = ::weft::impl::scatter_default_contribution_t<Duplication>;
};
}  // namespace Experimental

template <std::size_t N, class E>
struct ExtentsInsertStatic;
template <std::size_t N, std::size_t... E>
struct ExtentsInsertStatic<N, ::Kokkos::Experimental::Extents<E...>> {
  // View data types list the '*' dimensions first: N goes after them, before the static ones of the inner type.
  template <std::size_t... D>
  static constexpr std::size_t dynamic_count = ((D == dynamic_extent ? 1 : 0) + ... + 0);
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) {
    constexpr std::size_t e[] = {E..., 0};
    constexpr std::size_t nd = dynamic_count<E...>;
    return ::Kokkos::Experimental::Extents<(I < nd ? e[I] : I == nd ? N : e[I - 1])...>{};
  }
  using type = decltype(make(std::make_index_sequence<sizeof...(E) + 1>{}));
};
template <class T>
struct ParseViewExtents {
  using type = ::Kokkos::Experimental::Extents<>;
};
template <class T>
struct ParseViewExtents<T*> {
  template <std::size_t... E>
  static ::Kokkos::Experimental::Extents<dynamic_extent, E...> prepend(::Kokkos::Experimental::Extents<E...>);
  using type = decltype(prepend(typename ParseViewExtents<T>::type{}));
};
template <class T>
struct ParseViewExtents<T[]> : ParseViewExtents<T*> {};
template <class T, std::size_t N>
struct ParseViewExtents<T[N]> {
  using type = typename ExtentsInsertStatic<N, typename ParseViewExtents<T>::type>::type;
};

/// as_view_of_rank_n<N>(drv): a DynRankView of rank N as a View of rank N over the same elements (a weft::Error when
/// the rank differs).
template <unsigned N, class T, class... P>
auto as_view_of_rank_n(const ::weft::DynRankView<T, P...>& v) {
  return v.template impl_as_view<static_cast<int>(N)>();
}
}  // namespace Kokkos::Impl
