// The Kokkos::Impl utilities that Kokkos programs and Kokkos's own unit tests reach for: a type's name for
// messages, the subview-layout predicate, ScatterView's defaults. Everything else of Kokkos::Impl is Kokkos's
// implementation and stays out (docs/kokkos.md).
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <string>
#include <type_traits>
#include <typeinfo>

#include <weft/containers/scatter_view.hpp>
#include <weft/view.hpp>

namespace Kokkos::Impl {

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
/// a rank-RankSrc LayoutSrc View taken with Args can be held by a rank-RankDest LayoutDest View. Answered by Weft's
/// own subview: a LayoutStride destination takes any subview; another layout takes the subviews whose result
/// Weft gives that layout with that rank.
template <class LayoutDest, class LayoutSrc, int RankDest, int RankSrc, int CurrentArg, class... Args>
struct SubviewLegalArgsCompileTime {
  static_assert(CurrentArg == 0, "Weft answers SubviewLegalArgsCompileTime for the whole argument list (CurrentArg 0)");
  using result = ::weft::impl::SubviewLayout<LayoutSrc, RankSrc, Args...>;
  static constexpr bool value =
      sizeof...(Args) == RankSrc && result::rank == RankDest &&
      (std::is_same_v<LayoutDest, ::weft::LayoutStride> || std::is_same_v<typename result::type, LayoutDest>);
};

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

}  // namespace Kokkos::Impl
