// OffsetView: a View whose indices start where the program says (a Fortran-style a(-1:3, -2:2)), as
// Kokkos::Experimental::OffsetView. It holds a View and the first index of each dimension; v(i, j) is
// view()(i - begin(0), j - begin(1)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include <weft/array.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/layouts.hpp>
#include <weft/view.hpp>

namespace weft {

template <class DataType, class... Props>
class OffsetView;

template <class T>
struct is_offset_view : std::false_type {};
template <class D, class... P>
struct is_offset_view<OffsetView<D, P...>> : std::true_type {};
template <class T>
inline constexpr bool is_offset_view_v = is_offset_view<std::remove_cv_t<T>>::value;

namespace impl {
/// The OffsetView of a View type (what subview and the mirrors give).
template <class V>
using offset_view_of =
    OffsetView<typename V::data_type, typename V::array_layout, typename V::device_type, typename V::memory_traits>;
inline constexpr std::int64_t offset_view_unset = INT64_MIN;  // a range or begin not given
/// last - first + plus, false when it overflows int64.
inline bool offset_extent(std::int64_t first, std::int64_t last, std::int64_t plus, std::int64_t& out) {
  std::int64_t d;
  if (__builtin_sub_overflow(last, first, &d) || __builtin_add_overflow(d, plus, &out)) return false;
  return true;
}
}  // namespace impl

/// OffsetView<T**, ...> a("a", {-1, 3}, {-2, 2}): indices -1..3 and -2..2 (inclusive ranges, as Kokkos); begin(r) and
/// end(r) (one past the last) bound each dimension. Also over a View and its begins (kernels may do it), or over a
/// pointer with begins and ends (one past the last), unmanaged.
template <class DataType, class... Props>
class OffsetView {
 public:
  using view_type = View<DataType, Props...>;
  static constexpr int Rank = view_type::R;
  using data_type = typename view_type::data_type;
  using const_data_type = typename view_type::const_data_type;
  using non_const_data_type = typename view_type::non_const_data_type;
  using value_type = typename view_type::value_type;
  using const_value_type = typename view_type::const_value_type;
  using non_const_value_type = typename view_type::non_const_value_type;
  using array_layout = typename view_type::array_layout;
  using memory_space = typename view_type::memory_space;
  using execution_space = typename view_type::execution_space;
  using device_type = typename view_type::device_type;
  using memory_traits = typename view_type::memory_traits;
  using pointer_type = typename view_type::pointer_type;
  using reference_type = typename view_type::reference_type;
  using size_type = std::size_t;
  using begins_type = Array<std::int64_t, Rank>;
  using index_list_type = std::initializer_list<std::int64_t>;
  using range_type = pair<std::int64_t, std::int64_t>;
  using HostMirror = OffsetView<non_const_data_type, array_layout, HostSpace>;
  using const_type = OffsetView<const_data_type, array_layout, device_type, memory_traits>;
  using non_const_type = OffsetView<non_const_data_type, array_layout, device_type, memory_traits>;
  using impl_own_deep_copy_tag = void;

  OffsetView() = default;

  /// Allocates: one inclusive range {first, last} per dimension.
  OffsetView(const std::string& label, const range_type& r0, const range_type& r1 = unset(),
             const range_type& r2 = unset(), const range_type& r3 = unset(), const range_type& r4 = unset(),
             const range_type& r5 = unset(), const range_type& r6 = unset(), const range_type& r7 = unset())
      : OffsetView(view_alloc(label), r0, r1, r2, r3, r4, r5, r6, r7) {}
  OffsetView(const impl::ViewAllocProps<>& props, const range_type& r0, const range_type& r1 = unset(),
             const range_type& r2 = unset(), const range_type& r3 = unset(), const range_type& r4 = unset(),
             const range_type& r5 = unset(), const range_type& r6 = unset(), const range_type& r7 = unset()) {
    const range_type r[8] = {r0, r1, r2, r3, r4, r5, r6, r7};
    int given = 0;
    while (given < 8 && r[given].first != impl::offset_view_unset) ++given;
    if (given != Rank)
      impl::throw_offset_view_error(props.label, "give one range {first, last} per dimension: " +
                                                     std::to_string(given) + " given for rank " + std::to_string(Rank));
    std::int64_t ext[Rank > 0 ? Rank : 1] = {};
    for (int k = 0; k < Rank; ++k) {
      if (r[k].second < r[k].first - 1 || !impl::offset_extent(r[k].first, r[k].second, 1, ext[k]))
        impl::throw_offset_view_error(props.label, "range " + std::to_string(k) + " {" + std::to_string(r[k].first) +
                                                       ", " + std::to_string(r[k].second) +
                                                       "} does not give a size; give {first, last} with last >= "
                                                       "first - 1");
      begins_[k] = r[k].first;
    }
    view_ = make_view(props, ext, std::make_index_sequence<Rank>());
  }

  /// Over a View: its element (0, 0, ...) becomes (begins[0], begins[1], ...). Kernels may construct these.
  WEFT_INLINE_FUNCTION OffsetView(const view_type& v, const begins_type& begins) : view_(v), begins_(begins) {}
  WEFT_INLINE_FUNCTION OffsetView(const view_type& v, index_list_type begins) : view_(v) {
    int k = 0;
    for (std::int64_t b : begins)
      if (k < Rank) begins_[k++] = b;
    for (; k < Rank; ++k) begins_[k] = 0;
  }
  /// A View as an OffsetView whose indices start at 0 (an implicit conversion, as Kokkos's).
  template <class D2, class... P2>
  requires std::is_constructible_v < view_type, const View<D2, P2...>
  & > WEFT_INLINE_FUNCTION OffsetView(const View<D2, P2...>& v) : view_(v) {
    for (int k = 0; k < Rank; ++k) begins_[k] = 0;
  }
  /// From another OffsetView (added const, another layout the View converts to).
  template <class D2, class... P2>
  requires(!std::is_same_v<OffsetView<D2, P2...>, OffsetView> &&
           std::is_constructible_v<view_type, const typename OffsetView<D2, P2...>::view_type&>) WEFT_INLINE_FUNCTION
      OffsetView(const OffsetView<D2, P2...>& o)
      : view_(o.view()) {
    for (int k = 0; k < Rank; ++k) begins_[k] = o.begin(k);
  }

  /// Unmanaged over a pointer: dimension r holds indices begins[r] .. ends[r] - 1.
  OffsetView(const pointer_type& p, const begins_type& begins, const begins_type& ends)
      : OffsetView(p, begins.data(), Rank, ends.data(), Rank) {}
  OffsetView(const pointer_type& p, const begins_type& begins, index_list_type ends)
      : OffsetView(p, begins.data(), Rank, ends.begin(), ends.size()) {}
  OffsetView(const pointer_type& p, index_list_type begins, const begins_type& ends)
      : OffsetView(p, begins.begin(), begins.size(), ends.data(), Rank) {}
  OffsetView(const pointer_type& p, index_list_type begins, index_list_type ends)
      : OffsetView(p, begins.begin(), begins.size(), ends.begin(), ends.size()) {}

  // ---- access ----
  template <std::integral... I>
  requires(sizeof...(I) == Rank) WEFT_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
    return at(std::make_index_sequence<Rank>(), i...);
  }
  template <std::integral I>
  requires(Rank == 1) WEFT_FORCEINLINE_FUNCTION reference_type operator[](I i) const {
    return view_(static_cast<std::int64_t>(i) - begins_[0]);
  }
  template <std::integral... I>
  requires(sizeof...(I) == Rank) WEFT_FORCEINLINE_FUNCTION reference_type access(I... i)
  const { return (*this)(i...); }

  // ---- shape ----
  WEFT_INLINE_FUNCTION static constexpr unsigned rank() { return Rank; }
  template <std::integral I>
  WEFT_INLINE_FUNCTION std::int64_t begin(I r) const {
    return r < I(Rank) ? begins_[static_cast<int>(r)] : 0;
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION std::int64_t end(I r) const {
    return begin(r) + static_cast<std::int64_t>(view_.extent(r));
  }
  WEFT_INLINE_FUNCTION const begins_type& begins() const { return begins_; }
  template <std::integral I>
  WEFT_INLINE_FUNCTION std::size_t extent(I r) const {
    return view_.extent(r);
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION int extent_int(I r) const {
    return view_.extent_int(r);
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION std::size_t stride(I r) const {
    return view_.stride(r);
  }
  WEFT_INLINE_FUNCTION std::size_t size() const { return view_.size(); }
  WEFT_INLINE_FUNCTION std::size_t span() const { return view_.span(); }
  WEFT_INLINE_FUNCTION bool span_is_contiguous() const { return view_.span_is_contiguous(); }
  WEFT_INLINE_FUNCTION pointer_type data() const { return view_.data(); }
  WEFT_INLINE_FUNCTION bool is_allocated() const { return view_.is_allocated(); }
  WEFT_INLINE_FUNCTION const view_type& view() const { return view_; }
  std::string label() const { return view_.label(); }
  int use_count() const { return view_.use_count(); }

  /// The same View and begins.
  template <class D2, class... P2>
  friend bool operator==(const OffsetView& a, const OffsetView<D2, P2...>& b) {
    if (!(a.view() == b.view())) return false;
    for (int k = 0; k < Rank; ++k)
      if (a.begin(k) != b.begin(k)) return false;
    return true;
  }
  template <class D2, class... P2>
  friend bool operator!=(const OffsetView& a, const OffsetView<D2, P2...>& b) {
    return !(a == b);
  }
  /// Against a View: the same View (the begins aside), as Kokkos compares them.
  template <class D2, class... P2>
  friend bool operator==(const OffsetView& a, const View<D2, P2...>& b) {
    return a.view() == b;
  }
  template <class D2, class... P2>
  friend bool operator==(const View<D2, P2...>& b, const OffsetView& a) {
    return a.view() == b;
  }

 private:
  static constexpr range_type unset() { return range_type(impl::offset_view_unset, impl::offset_view_unset); }
  template <std::size_t... K>
  static view_type make_view(const impl::ViewAllocProps<>& props, const std::int64_t* ext, std::index_sequence<K...>) {
    return view_type(props, static_cast<std::size_t>(ext[K])...);
  }
  template <std::size_t... K, class... I>
  WEFT_FORCEINLINE_FUNCTION reference_type at(std::index_sequence<K...>, I... i) const {
    return view_(static_cast<std::int64_t>(i) - begins_[K]...);
  }
  /// The unmanaged constructors: checks the counts and each ends[r] - begins[r], then views p.
  OffsetView(pointer_type p, const std::int64_t* b, std::size_t nb, const std::int64_t* e, std::size_t ne) {
    std::string problems;
    if (nb != std::size_t(Rank))
      problems += "\n  begins.size() (" + std::to_string(nb) + ") != Rank (" + std::to_string(Rank) + ")";
    if (ne != std::size_t(Rank))
      problems += "\n  ends.size() (" + std::to_string(ne) + ") != Rank (" + std::to_string(Rank) + ")";
    std::int64_t ext[Rank > 0 ? Rank : 1] = {};
    if (problems.empty())
      for (int k = 0; k < Rank; ++k) {
        const std::string what = "\n  (ends[" + std::to_string(k) + "] (" + std::to_string(e[k]) + ") - begins[" +
                                 std::to_string(k) + "] (" + std::to_string(b[k]) + "))";
        if (!impl::offset_extent(b[k], e[k], 0, ext[k]))
          problems += what + " overflows";
        else if (ext[k] < 0)
          problems += what + " must be non-negative";
        begins_[k] = b[k];
      }
    if (!problems.empty()) impl::throw_offset_view_error("(unmanaged)", "for unmanaged OffsetView" + problems);
    view_ = make_unmanaged(p, ext, std::make_index_sequence<Rank>());
  }
  template <std::size_t... K>
  static view_type make_unmanaged(pointer_type p, const std::int64_t* ext, std::index_sequence<K...>) {
    return view_type(p, static_cast<std::size_t>(ext[K])...);
  }

  view_type view_;
  begins_type begins_ = {};
};

namespace impl {
/// An OffsetView subview argument in the View's own indices: an index or a range minus the dimension's begin.
template <class A>
WEFT_INLINE_FUNCTION auto offset_subview_arg(const A& a, std::int64_t b) {
  if constexpr (std::is_same_v<A, ALL_t>)
    return a;
  else if constexpr (is_range_arg<A>::value)
    return pair<std::int64_t, std::int64_t>(static_cast<std::int64_t>(a.first) - b,
                                            static_cast<std::int64_t>(a.second) - b);
  else
    return static_cast<std::int64_t>(a) - b;
}
}  // namespace impl

/// subview(ov, args...): the arguments in ov's indices; a dimension kept by ALL keeps its begin, one kept by a range
/// [first, second) starts at 0 (as Kokkos).
template <class D, class... P, class... Args>
auto subview(const OffsetView<D, P...>& v, const Args&... args) {
  static_assert(sizeof...(Args) == OffsetView<D, P...>::Rank,
                "weft::subview: give one argument (index, ALL or range) per dimension of the OffsetView");
  auto s = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return subview(v.view(), impl::offset_subview_arg(args, v.begin(K))...);
  }
  (std::index_sequence_for<Args...>());
  using S = decltype(s);
  using Result = impl::offset_view_of<S>;
  std::int64_t kept[Result::Rank > 0 ? Result::Rank : 1] = {};  // the begins of the dimensions kept, in order
  int out = 0, k = 0;
  (
      [&](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, ALL_t>)
          kept[out++] = v.begin(k);
        else if constexpr (impl::is_range_arg<A>::value)
          kept[out++] = 0;
        ++k;
      }(args),
      ...);
  typename Result::begins_type b = {};
  if constexpr (Result::Rank > 0)
    for (int r = 0; r < Result::Rank; ++r) b[r] = kept[r];
  return Result(s, b);
}

// ---- copies and mirrors ----
template <class D, class... P>
void deep_copy(const OffsetView<D, P...>& dst, const typename OffsetView<D, P...>::const_value_type& value) {
  deep_copy(dst.view(), value);
}
template <class D1, class... P1, class D2, class... P2>
void deep_copy(const OffsetView<D1, P1...>& dst, const OffsetView<D2, P2...>& src) {
  deep_copy(dst.view(), src.view());
}
template <class D1, class... P1, class D2, class... P2>
void deep_copy(const OffsetView<D1, P1...>& dst, const View<D2, P2...>& src) {
  deep_copy(dst.view(), src);
}
template <class D1, class... P1, class D2, class... P2>
void deep_copy(const View<D1, P1...>& dst, const OffsetView<D2, P2...>& src) {
  deep_copy(dst, src.view());
}
template <ExecutionSpace E, class D1, class... P1, class Src>
void deep_copy(const E& exec, const OffsetView<D1, P1...>& dst, const Src& src) {
  if constexpr (is_offset_view_v<Src>)
    deep_copy(exec, dst.view(), src.view());
  else
    deep_copy(exec, dst.view(), src);
}
/// Mirrors keep the begins.
template <class D, class... P>
auto create_mirror(const OffsetView<D, P...>& v) {
  auto m = create_mirror(v.view());
  return impl::offset_view_of<decltype(m)>(m, v.begins());
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror(const Space& s, const OffsetView<D, P...>& v) {
  auto m = create_mirror(s, v.view());
  return impl::offset_view_of<decltype(m)>(m, v.begins());
}
template <class D, class... P>
auto create_mirror_view(const OffsetView<D, P...>& v) {
  auto m = create_mirror_view(v.view());
  return impl::offset_view_of<decltype(m)>(m, v.begins());
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view(const Space& s,
                                                                              const OffsetView<D, P...>& v) {
  auto m = create_mirror_view(s, v.view());
  return impl::offset_view_of<decltype(m)>(m, v.begins());
}
template <class Space, class D, class... P>
auto create_mirror_view_and_copy(const Space& s, const OffsetView<D, P...>& v) {
  auto m = create_mirror_view_and_copy(s, v.view());
  return impl::offset_view_of<decltype(m)>(m, v.begins());
}

}  // namespace weft
