// weft::DynRankView<T, Props...>: a View whose rank (0 to 7) is chosen at run time, as Kokkos::DynRankView.
// It holds a rank-7 View of T (the extents past its rank are 1) and its rank; every kernel access goes through
// that View, so bounds checks, GpuEmu's memory model and the tracker behave as for any View.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/deep_copy.hpp>
#include <weft/view.hpp>

namespace weft {

/// An extent not given (Kokkos's KOKKOS_INVALID_INDEX): DynRankView("a", n0, n1) has rank 2.
inline constexpr std::size_t dyn_rank_unset = ~std::size_t(0);

template <class DataType, class... Props>
class DynRankView;

template <class T>
struct is_dyn_rank_view : std::false_type {};
template <class D, class... P>
struct is_dyn_rank_view<DynRankView<D, P...>> : std::true_type {};
template <class T>
inline constexpr bool is_dyn_rank_view_v = is_dyn_rank_view<std::remove_cv_t<T>>::value;

namespace impl {
[[noreturn]] inline void dyn_rank_index_count_abort(const std::string& label, int given, unsigned rank) {
  std::fprintf(stderr,
               "weft: DynRankView \"%s\" of rank %u accessed with %d indices; give one index per dimension (access() "
               "also takes extra zeros)\n",
               label.c_str(), rank, given);
  std::abort();
}
}  // namespace impl

template <class DataType, class... Props>
class DynRankView {
  static_assert(impl::DataTypeAnalysis<DataType>::rank == 0,
                "weft::DynRankView<T, ...>: give the element type (double), not an array type (double*): the rank "
                "is chosen at run time by the number of extents");

 public:
  static constexpr int max_rank = 7;
  using impl_dyn_rank_tag = void;
  using view_type = View<typename impl::add_pointers<DataType, max_rank>::type, Props...>;
  using traits = typename view_type::traits;
  using data_type = DataType;
  using value_type = typename view_type::value_type;
  using const_value_type = typename view_type::const_value_type;
  using non_const_value_type = typename view_type::non_const_value_type;
  using const_data_type = const_value_type;
  using non_const_data_type = non_const_value_type;
  using array_layout = typename view_type::array_layout;
  using memory_space = typename view_type::memory_space;
  using execution_space = typename view_type::execution_space;
  using device_type = typename view_type::device_type;
  using memory_traits = typename view_type::memory_traits;
  using size_type = std::size_t;
  using pointer_type = typename view_type::pointer_type;
  using reference_type = typename view_type::reference_type;
  using host_mirror_type = DynRankView<non_const_value_type, typename view_type::mirror_layout, HostSpace>;
  using HostMirror = host_mirror_type;
  using host_mirror_space = HostSpace;
  using const_type = DynRankView<const_value_type, array_layout, device_type, memory_traits>;
  using non_const_type = DynRankView<non_const_value_type, array_layout, device_type, memory_traits>;
  using uniform_type = DynRankView<value_type, array_layout, device_type, memory_traits>;

  DynRankView() = default;
  /// Allocates with as many extents as given (0 to 7): DynRankView<double> a("a", n, m) has rank 2.
  template <impl::LabelFor<typename view_type::pointer_type> L>
  explicit DynRankView(const L& label, std::size_t n0 = dyn_rank_unset, std::size_t n1 = dyn_rank_unset,
                       std::size_t n2 = dyn_rank_unset, std::size_t n3 = dyn_rank_unset,
                       std::size_t n4 = dyn_rank_unset, std::size_t n5 = dyn_rank_unset,
                       std::size_t n6 = dyn_rank_unset)
      : DynRankView(view_alloc(std::string_view(label)), n0, n1, n2, n3, n4, n5, n6) {}
  explicit DynRankView(const impl::ViewAllocProps<>& props, std::size_t n0 = dyn_rank_unset,
                       std::size_t n1 = dyn_rank_unset, std::size_t n2 = dyn_rank_unset,
                       std::size_t n3 = dyn_rank_unset, std::size_t n4 = dyn_rank_unset,
                       std::size_t n5 = dyn_rank_unset, std::size_t n6 = dyn_rank_unset)
      : rank_(count_rank({n0, n1, n2, n3, n4, n5, n6})) {
    const std::size_t n[max_rank] = {n0, n1, n2, n3, n4, n5, n6};
    view_ = view_type(props, ext(n, 0), ext(n, 1), ext(n, 2), ext(n, 3), ext(n, 4), ext(n, 5), ext(n, 6));
  }
  /// With a layout: its dimensions up to the first unset one give the rank (and LayoutStride its strides).
  template <impl::LabelFor<typename view_type::pointer_type> L>
  DynRankView(const L& label, const array_layout& layout) : DynRankView(view_alloc(std::string_view(label)), layout) {}
  DynRankView(const impl::ViewAllocProps<>& props, const array_layout& layout)
      : rank_(count_rank(layout.dimension)), view_(props, padded(layout, count_rank(layout.dimension))) {}
  /// A DynRankView of team or thread scratch (or of a space the team reaches): DynRankView<int, ScratchSpace> s(
  /// member.team_scratch(0), n0, n1), its rank the number of extents given; it never owns its scratch bytes. Device
  /// code too.
  template <class E>
  WEFT_INLINE_FUNCTION DynRankView(const ScratchMemorySpace<E>& space, std::size_t n0 = dyn_rank_unset,
                                   std::size_t n1 = dyn_rank_unset, std::size_t n2 = dyn_rank_unset,
                                   std::size_t n3 = dyn_rank_unset, std::size_t n4 = dyn_rank_unset,
                                   std::size_t n5 = dyn_rank_unset, std::size_t n6 = dyn_rank_unset) {
    const std::size_t n[max_rank] = {n0, n1, n2, n3, n4, n5, n6};
    rank_ = count_rank(n);
    view_ = view_type(space, ext(n, 0), ext(n, 1), ext(n, 2), ext(n, 3), ext(n, 4), ext(n, 5), ext(n, 6));
  }
  /// Bytes of scratch a DynRankView of these extents needs (with alignment slack), for TeamPolicy::set_scratch_size.
  static std::size_t shmem_size(std::size_t n0 = dyn_rank_unset, std::size_t n1 = dyn_rank_unset,
                                std::size_t n2 = dyn_rank_unset, std::size_t n3 = dyn_rank_unset,
                                std::size_t n4 = dyn_rank_unset, std::size_t n5 = dyn_rank_unset,
                                std::size_t n6 = dyn_rank_unset) {
    const std::size_t n[max_rank] = {n0, n1, n2, n3, n4, n5, n6};
    return view_type::shmem_size(ext(n, 0), ext(n, 1), ext(n, 2), ext(n, 3), ext(n, 4), ext(n, 5), ext(n, 6));
  }
  /// Wraps user memory (never freed by Weft).
  explicit DynRankView(pointer_type p, std::size_t n0 = dyn_rank_unset, std::size_t n1 = dyn_rank_unset,
                       std::size_t n2 = dyn_rank_unset, std::size_t n3 = dyn_rank_unset,
                       std::size_t n4 = dyn_rank_unset, std::size_t n5 = dyn_rank_unset,
                       std::size_t n6 = dyn_rank_unset)
      : rank_(count_rank({n0, n1, n2, n3, n4, n5, n6})) {
    const std::size_t n[max_rank] = {n0, n1, n2, n3, n4, n5, n6};
    view_ = view_type(p, ext(n, 0), ext(n, 1), ext(n, 2), ext(n, 3), ext(n, 4), ext(n, 5), ext(n, 6));
  }
  /// A View of any rank up to 7 as a DynRankView of that rank, sharing its elements (and its reference count).
  template <class D2, class... P2>
  requires(View<D2, P2...>::R <= max_rank &&
           (std::is_same_v<typename View<D2, P2...>::value_type, value_type> ||
            std::is_same_v<const typename View<D2, P2...>::value_type,
                           value_type>)&&std::is_same_v<typename View<D2, P2...>::memory_space, memory_space>)
      DynRankView(const View<D2, P2...>& v)  // NOLINT(google-explicit-constructor): Kokkos converts implicitly
      : rank_(View<D2, P2...>::R) {
    using V = View<D2, P2...>;
    constexpr bool same_layout = std::is_same_v<typename V::array_layout, array_layout>;
    static_assert(same_layout || std::is_same_v<array_layout, LayoutStride> || V::R <= 1,
                  "weft::DynRankView from a View: the layouts differ; use a LayoutStride DynRankView");
    impl::ViewOffset<array_layout, max_rank> m;
    for (int k = 0; k < max_rank; ++k) {
      m.ext[k] = k < V::R ? v.extent(k) : 1;
      m.str[k] = k < V::R ? v.stride(k) : 1;
    }
    if constexpr (!std::is_same_v<array_layout, LayoutStride>) {
      // the layout's own unit-stride dimension must be unit stride in the source too
      const int unit = std::is_same_v<array_layout, LayoutLeft> ? 0 : (V::R > 0 ? V::R - 1 : 0);
      if (V::R > 0 && v.extent(unit) > 1 && v.stride(unit) != 1)
        impl::throw_view_error(v.label(),
                               "a strided View cannot become a DynRankView of a contiguous layout; use "
                               "a LayoutStride DynRankView");
      if constexpr (std::is_same_v<array_layout, LayoutRight>)
        for (int k = V::R > 0 ? V::R - 1 : 0; k < max_rank; ++k) m.str[k] = 1;
      // A rank-7 LayoutRight View stores one stride, that of dimension 5: a padded rank < 7 View has its padding
      // elsewhere (Kokkos's DynRankView has the same form)
      if (!view_type::impl_holds(m))
        impl::throw_view_error(v.label(), "a padded LayoutRight View (extents " + impl::format_extents(m.ext, V::R) +
                                              ", strides not the packed ones) cannot become a LayoutRight "
                                              "DynRankView; use a LayoutStride DynRankView");
    }
    view_ = view_type::impl_make(const_cast<pointer_type>(v.data()), m, v.impl_track());
  }
  /// Adding const, and between layouts as View converts.
  template <class D2, class... P2>
  requires(!std::is_same_v<DynRankView<D2, P2...>, DynRankView> &&
           std::is_constructible_v<view_type, typename DynRankView<D2, P2...>::view_type>) WEFT_INLINE_FUNCTION
      DynRankView(const DynRankView<D2, P2...>& o)  // NOLINT(google-explicit-constructor)
      : rank_(o.rank()), view_(o.impl_view()) {}

  // ---- element access ----
  /// v(i...) with one index per dimension (indices past the rank are allowed when they are 0, as in Kokkos);
  /// bounds-checked builds check that no dimension lacks its index, and the view's bounds check the rest.
  template <impl::ViewIndex... I>
  requires(sizeof...(I) <= max_rank) WEFT_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
#if WEFT_BOUNDS_CHECK && !WEFT_IMPL_DEVICE_PASS
    if (sizeof...(I) < rank_) [[unlikely]]
      impl::dyn_rank_index_count_abort(view_.label(), static_cast<int>(sizeof...(I)), rank_);
#endif
    return at(std::make_index_sequence<max_rank - sizeof...(I)>{}, impl::index_value(i)...);
  }
  /// As operator(), and any count of indices up to 7: those past the rank must be 0.
  template <impl::ViewIndex... I>
  requires(sizeof...(I) <= max_rank) WEFT_FORCEINLINE_FUNCTION reference_type access(I... i)
  const { return at(std::make_index_sequence<max_rank - sizeof...(I)>{}, impl::index_value(i)...); }
  template <impl::ViewIndex I>
  WEFT_FORCEINLINE_FUNCTION reference_type operator[](I i) const {
    return access(i);
  }

  // ---- queries ----
  WEFT_INLINE_FUNCTION constexpr unsigned rank() const { return rank_; }
  /// The extent of dimension r: 1 past the rank (0 everywhere in a default-constructed one, as Kokkos).
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr std::size_t extent(I r) const {
    return view_.extent(r);
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr int extent_int(I r) const {
    return static_cast<int>(extent(r));
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr std::size_t stride(I r) const {
    return view_.stride(r);
  }
  template <std::integral I>
  void stride(I* s) const {
    for (unsigned k = 0; k < rank_; ++k) s[k] = static_cast<I>(view_.stride(k));
    s[rank_] = static_cast<I>(span());
  }
  WEFT_INLINE_FUNCTION constexpr std::size_t size() const { return view_.size(); }
  WEFT_INLINE_FUNCTION constexpr std::size_t span() const { return view_.span(); }
  WEFT_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return view_.span_is_contiguous(); }
  WEFT_INLINE_FUNCTION constexpr pointer_type data() const { return view_.data(); }
  WEFT_INLINE_FUNCTION constexpr bool is_allocated() const { return view_.is_allocated(); }
  std::string label() const { return view_.label(); }
  int use_count() const { return view_.use_count(); }
  /// The layout: the extents (and LayoutStride's strides) up to the rank; the rest unset.
  array_layout layout() const {
    array_layout l = view_.layout();
    for (int k = static_cast<int>(rank_); k < max_rank; ++k) l.dimension[k] = dyn_rank_unset;
    return l;
  }
  /// The same elements as a View of rank N, which must be the rank (Kokkos's Impl::as_view_of_rank_n).
  template <int N>
  auto impl_as_view() const {
    static_assert(N >= 0 && N <= max_rank, "weft::DynRankView: a View of rank 0 to 7");
    using V = View<typename impl::add_pointers<value_type, N>::type, array_layout, device_type, memory_traits>;
    if (static_cast<unsigned>(N) != rank_)
      impl::throw_cat(
          {"weft::DynRankView \"", label(), "\" has rank ", rank_, "; it cannot be viewed as a View of rank ", N});
    impl::ViewOffset<array_layout, N> m;
    for (int k = 0; k < N; ++k) {
      m.ext[k] = view_.extent(k);
      m.str[k] = view_.stride(k);
    }
    return V::impl_make(view_.data(), m, view_.impl_track());
  }
  /// The rank-7 View behind it, as Kokkos's ConstDownCast() gives it (a View of rank 7, extents past the rank 1).
  WEFT_INLINE_FUNCTION const view_type& ConstDownCast() const { return view_; }
  /// The rank-7 View behind it (extents past the rank are 1).
  WEFT_INLINE_FUNCTION const view_type& impl_view() const { return view_; }
  view_type& impl_view() { return view_; }
  void impl_set_rank(unsigned r) { rank_ = r; }

  template <class D2, class... P2>
  friend bool operator==(const DynRankView& a, const DynRankView<D2, P2...>& b) {
    return a.rank() == b.rank() && a.impl_view() == b.impl_view();
  }

  /// The rank given by extents: the count before the first unset one (Kokkos's rule).
  static unsigned count_rank(std::initializer_list<std::size_t> n) { return count_rank<>(n); }
  template <class E>
  WEFT_INLINE_FUNCTION static unsigned count_rank(const E& n) {
    unsigned r = 0;
    for (std::size_t e : n) {
      if (e == dyn_rank_unset || r == max_rank) break;
      ++r;
    }
    return r;
  }

 private:
  template <std::size_t... Z, class... I>
  WEFT_FORCEINLINE_FUNCTION reference_type at(std::index_sequence<Z...>, I... i) const {
    return view_(i..., (static_cast<void>(Z), 0)...);
  }
  WEFT_INLINE_FUNCTION static std::size_t ext(const std::size_t* n, int k) {
    for (int j = 0; j <= k; ++j)
      if (n[j] == dyn_rank_unset) return 1;
    return n[k];
  }
  static array_layout padded(const array_layout& l, unsigned r) {
    array_layout p = l;
    for (int k = static_cast<int>(r); k < max_rank; ++k) {
      p.dimension[k] = 1;
      if constexpr (std::is_same_v<array_layout, LayoutStride>) p.stride[k] = 1;
    }
    return p;
  }

  unsigned rank_ = 0;
  view_type view_;
};

/// Kokkos::rank(v): the run-time rank of a DynRankView, and a View's rank (Kokkos takes both).
template <class D, class... P>
WEFT_INLINE_FUNCTION unsigned rank(const DynRankView<D, P...>& v) {
  return v.rank();
}
template <class D, class... P>
WEFT_INLINE_FUNCTION constexpr unsigned rank(const View<D, P...>&) {
  return View<D, P...>::R;
}

namespace impl {
/// The extents of v as the padded list a rank-7 View takes.
template <class V>
auto dyn_rank_extents(const V& v) {
  return std::array<std::size_t, 7>{v.extent(0), v.extent(1), v.extent(2), v.extent(3),
                                    v.extent(4), v.extent(5), v.extent(6)};
}
/// A DynRankView of v's rank over `storage` (a rank-7 View): of type M, or when M is void, of the type that
/// storage's value type, layout and device give.
template <class M = void, class V, class S>
auto dyn_rank_like(const V& v, S storage) {
  using R =
      std::conditional_t<std::is_void_v<M>,
                         DynRankView<typename S::value_type, typename S::array_layout, typename S::device_type>, M>;
  R m;
  m.impl_view() = std::move(storage);
  m.impl_set_rank(v.rank());
  return m;
}
/// A View or a DynRankView as the DynRankView that deep_copy works on.
template <class V>
auto as_dyn_rank(const V& v) {
  if constexpr (is_dyn_rank_view_v<V>)
    return v;
  else
    return DynRankView<typename V::value_type, typename V::array_layout, typename V::device_type,
                       typename V::memory_traits>(v);
}
template <class A, class B>
void check_same_rank(const A& dst, const B& src) {
  if (dst.rank() != src.rank())
    throw_cat({"weft::deep_copy: DynRankView \"", dst.label(), "\" has rank ", dst.rank(), " but its source \"",
               src.label(), "\" has rank ", src.rank(), "; copy between views of the same rank and extents"});
}
}  // namespace impl

// ---- mirrors ----
template <class D, class... P>
auto create_mirror(const DynRankView<D, P...>& v) {
  using M = typename DynRankView<D, P...>::HostMirror;
  return impl::dyn_rank_like<M>(v, create_mirror(v.impl_view()));
}
template <class D, class... P>
auto create_mirror(impl::WithoutInitializing_t w, const DynRankView<D, P...>& v) {
  using M = typename DynRankView<D, P...>::HostMirror;
  return impl::dyn_rank_like<M>(v, create_mirror(w, v.impl_view()));
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror(const Space& s,
                                                                         const DynRankView<D, P...>& v) {
  return impl::dyn_rank_like(v, create_mirror(s, v.impl_view()));
}
/// v itself when it is already in Space's memory (any layout, LayoutStride included, as Kokkos), else a mirror.
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view(const Space& s,
                                                                              const DynRankView<D, P...>& v) {
  using V = DynRankView<D, P...>;
  if constexpr (std::is_same_v<typename V::memory_space, typename Space::memory_space> &&
                std::is_same_v<typename V::value_type, typename V::non_const_value_type>) {
    return v;
  } else {
    return impl::dyn_rank_like(v, create_mirror_view(s, v.impl_view()));
  }
}
template <class D, class... P>
auto create_mirror_view(const DynRankView<D, P...>& v) {
  return create_mirror_view(HostSpace(), v);
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view_and_copy(const Space& s,
                                                                                       const DynRankView<D, P...>& v) {
  return impl::dyn_rank_like(v, create_mirror_view_and_copy(s, v.impl_view()));
}

// ---- deep_copy: DynRankView to and from DynRankViews and Views of the same rank and extents, and a scalar ----
template <class A, class B>
requires((is_dyn_rank_view_v<A> && (is_dyn_rank_view_v<B> || is_view_v<B>)) ||
         (is_view_v<A> && is_dyn_rank_view_v<B>)) void deep_copy(const A& dst, const B& src) {
  const auto d = impl::as_dyn_rank(dst);
  const auto s = impl::as_dyn_rank(src);
  impl::check_same_rank(d, s);
  deep_copy(d.impl_view(), s.impl_view());
}
template <ExecutionSpace E, class A, class B>
requires((is_dyn_rank_view_v<A> && (is_dyn_rank_view_v<B> || is_view_v<B>)) ||
         (is_view_v<A> && is_dyn_rank_view_v<B>)) void deep_copy(const E& exec, const A& dst, const B& src) {
  const auto d = impl::as_dyn_rank(dst);
  const auto s = impl::as_dyn_rank(src);
  impl::check_same_rank(d, s);
  deep_copy(exec, d.impl_view(), s.impl_view());
}
template <class D, class... P>
void deep_copy(const DynRankView<D, P...>& dst, const typename DynRankView<D, P...>::const_value_type& value) {
  deep_copy(dst.impl_view(), value);
}
template <ExecutionSpace E, class D, class... P>
void deep_copy(const E& exec, const DynRankView<D, P...>& dst,
               const typename DynRankView<D, P...>::const_value_type& value) {
  deep_copy(exec, dst.impl_view(), value);
}

// ---- resize and realloc: the rank follows the extents given (each also with WithoutInitializing or view_alloc) ----
namespace impl {
/// Calls op(view, e0, ..., e6) with the extents given padded by 1, then sets v's rank to their count: a resize that
/// throws (too large, out of memory) leaves the view as it was, its rank included.
template <class V, class Op, class... N>
void dyn_rank_reshape(V& v, Op op, N... n) {
  const std::size_t e[8] = {static_cast<std::size_t>(n)..., 0};
  constexpr std::size_t c = sizeof...(N);
  op(v.impl_view(), c > 0 ? e[0] : 1, c > 1 ? e[1] : 1, c > 2 ? e[2] : 1, c > 3 ? e[3] : 1, c > 4 ? e[4] : 1,
     c > 5 ? e[5] : 1, c > 6 ? e[6] : 1);
  v.impl_set_rank(c);
}
}  // namespace impl
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void resize(DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [](auto& w, auto... e) { resize(w, e...); }, n...);
}
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void resize(impl::WithoutInitializing_t, DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [](auto& w, auto... e) { resize(WithoutInitializing, w, e...); }, n...);
}
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void resize(const impl::ViewAllocProps<>& props, DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [&props](auto& w, auto... e) { resize(props, w, e...); }, n...);
}
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void realloc(DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [](auto& w, auto... e) { realloc(w, e...); }, n...);
}
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void realloc(impl::WithoutInitializing_t, DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [](auto& w, auto... e) { realloc(WithoutInitializing, w, e...); }, n...);
}
template <class D, class... P, std::integral... N>
requires(sizeof...(N) <= 7) void realloc(const impl::ViewAllocProps<>& props, DynRankView<D, P...>& v, N... n) {
  impl::dyn_rank_reshape(
      v, [&props](auto& w, auto... e) { realloc(props, w, e...); }, n...);
}

// ---- subviews: one argument per dimension (index, ALL or range); the result keeps the ranges' dimensions ----
/// Arguments past v's rank are allowed (as in Kokkos) and ignored: they apply to its extent-1 dimensions (an index
/// there must be 0), and the result's rank counts the ranges and ALLs of v's own dimensions only.
template <class D, class... P, class... Args>
requires(sizeof...(Args) <= 7) auto subdynrankview(const DynRankView<D, P...>& v, const Args&... args) {
  if (sizeof...(Args) < v.rank())
    impl::throw_cat({"weft::subdynrankview of \"", v.label(), "\": ", sizeof...(Args), " arguments for rank ", v.rank(),
                     "; give one (index, ALL or range) per dimension"});
  const bool kept[] = {!(std::is_integral_v<Args> || std::is_enum_v<Args>)..., false};
  unsigned rank = 0;
  for (unsigned k = 0; k < v.rank(); ++k) rank += kept[k] ? 1 : 0;
  auto sub = [&]<std::size_t... Z>(std::index_sequence<Z...>) {
    return subview(v.impl_view(), args..., (static_cast<void>(Z), 0)...);
  }
  (std::make_index_sequence<7 - sizeof...(Args)>{});
  using S = decltype(sub);
  using Strided = View<typename impl::add_pointers<typename S::value_type, S::R>::type, LayoutStride,
                       typename S::device_type, typename S::memory_traits>;
  DynRankView<typename S::value_type, LayoutStride, typename S::device_type, typename S::memory_traits> out{
      Strided(sub)};
  out.impl_set_rank(rank);  // the ignored arguments' dimensions come last, with extent 1
  return out;
}
template <class D, class... P, class... Args>
requires(sizeof...(Args) >= 1) auto subview(const DynRankView<D, P...>& v, const Args&... args) {
  return subdynrankview(v, args...);
}

}  // namespace weft
