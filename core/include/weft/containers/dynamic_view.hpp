// weft::DynamicView<T*, Props...>: a rank-1 array that grows and shrinks on the host, in chunks, without moving its
// elements (Kokkos::Experimental::DynamicView). Kernels index it as a View; the host resizes it between kernels.
//
// The elements live in chunks of chunk_size() elements (a power of two), each its own allocation in the memory space;
// a table of chunk pointers in the same memory space lets device code find element i in chunk i / chunk_size(). The
// host keeps the chunks' Views, the table's host copy and the size in a shared control block, so that every copy
// of a DynamicView sees a resize. Under GpuEmu's stream-order checker a kernel that captures a DynamicView is
// recorded as touching every chunk it holds, as it would be for a View.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/view.hpp>

namespace weft {

template <class DataType, class... Props>
class DynamicView;

template <class T>
struct is_dynamic_view : std::false_type {};
template <class D, class... P>
struct is_dynamic_view<DynamicView<D, P...>> : std::true_type {};
template <class T>
inline constexpr bool is_dynamic_view_v = is_dynamic_view<std::remove_cv_t<T>>::value;

namespace impl {
/// A DynamicView's host side, shared by every copy: the chunks (which own the elements), the table's host copy
/// and the size.
template <class T, class Device>
struct DynamicViewControl {
  std::string label;
  std::vector<View<T*, Device>> chunks;
  std::vector<std::uintptr_t> table;  // chunk_max() chunk addresses, then the size
  View<std::uintptr_t*, Device> device_table;
};
}  // namespace impl

template <class DataType, class... Props>
class DynamicView {
  using view_type = View<DataType, Props...>;
  static_assert(view_type::rank == 1 && view_type::rank_dynamic == 1,
                "weft::DynamicView<T*, ...>: a DynamicView has one runtime dimension (T*)");

 public:
  using traits = typename view_type::traits;
  using data_type = typename view_type::data_type;
  using const_data_type = typename view_type::const_data_type;
  using non_const_data_type = typename view_type::non_const_data_type;
  using value_type = typename view_type::value_type;
  using const_value_type = typename view_type::const_value_type;
  using non_const_value_type = typename view_type::non_const_value_type;
  using memory_space = typename view_type::memory_space;
  using execution_space = typename view_type::execution_space;
  using device_type = typename view_type::device_type;
  using memory_traits = typename view_type::memory_traits;
  using size_type = typename view_type::size_type;
  using reference_type = value_type&;
  using pointer_type = value_type*;
  using array_type = DynamicView<data_type, device_type>;
  using const_type = DynamicView<const_data_type, device_type>;
  using non_const_type = DynamicView<non_const_data_type, device_type>;
  using HostMirror = DynamicView<non_const_data_type, typename view_type::HostMirror::device_type>;
  static constexpr unsigned rank = 1;
  static constexpr unsigned rank_dynamic = 1;
  enum { Rank = 1 };
  using impl_own_deep_copy_tag = void;

 private:
  template <class, class...>
  friend class DynamicView;
  using chunk_view = View<non_const_value_type*, device_type>;
  using Control = impl::DynamicViewControl<non_const_value_type, device_type>;

 public:
  DynamicView() = default;

  /// DynamicView("label", min_chunk_size, max_extent): no elements yet (size() 0); resize_serial(n) grows it up to
  /// max_extent, rounded up to whole chunks of min_chunk_size rounded up to a power of two.
  DynamicView(const std::string& label, unsigned min_chunk_size, std::size_t max_extent)
      : DynamicView(view_alloc(label), min_chunk_size, max_extent) {}
  DynamicView(const impl::ViewAllocProps<>& props, unsigned min_chunk_size, std::size_t max_extent) {
    const std::uint64_t chunk = std::bit_ceil(std::uint64_t(min_chunk_size ? min_chunk_size : 1));
    if (chunk > (std::uint64_t(1) << 31))
      impl::throw_cat({"weft::DynamicView \"", props.label, "\": a chunk of ", min_chunk_size,
                       " elements is too large (at most 2^31); give a smaller min_chunk_size"});
    shift_ = static_cast<unsigned>(std::countr_zero(chunk));
    mask_ = static_cast<unsigned>(chunk - 1);
    const std::uint64_t chunks = chunks_for(max_extent);
    if (chunks > 0xffffffffu)
      impl::throw_cat({"weft::DynamicView \"", props.label, "\": ", max_extent, " elements in chunks of ", chunk,
                       " need ", chunks, " chunks, more than 2^32-1; give a larger min_chunk_size"});
    chunk_max_ = static_cast<unsigned>(chunks);
    control_ = View<Control, HostSpace>(view_alloc(SequentialHostInit, props.label + " (DynamicView control)"));
    Control& c = *control_.data();
    c.label = props.label;
    c.table.assign(chunk_max_ + 1, 0);
    c.device_table = View<std::uintptr_t*, device_type>(props.label + " (DynamicView chunk table)", chunk_max_ + 1);
    table_ = c.device_table.data();
  }

  /// A DynamicView<const T*> from a DynamicView<T*>: the same elements.
  template <class D2, class... P2>
  requires(!std::is_same_v<DynamicView<D2, P2...>, DynamicView> &&
           std::is_convertible_v<typename DynamicView<D2, P2...>::chunk_view, chunk_view>) WEFT_INLINE_FUNCTION
      DynamicView(const DynamicView<D2, P2...>& o)
      : control_(o.control_), table_(o.table_), shift_(o.shift_), mask_(o.mask_), chunk_max_(o.chunk_max_) {
    note_capture();
  }

#if WEFT_IMPL_ACCESS_HOOKS
  DynamicView(const DynamicView& o)
      : control_(o.control_), table_(o.table_), shift_(o.shift_), mask_(o.mask_), chunk_max_(o.chunk_max_) {
    note_capture();
  }
  DynamicView& operator=(const DynamicView&) = default;
  DynamicView(DynamicView&&) = default;
  DynamicView& operator=(DynamicView&&) = default;
#endif

  // ---- shape ----
  WEFT_INLINE_FUNCTION std::size_t chunk_size() const noexcept { return std::size_t(mask_) + (table_ ? 1 : 0); }
  WEFT_INLINE_FUNCTION std::size_t chunk_max() const noexcept { return chunk_max_; }
  /// The elements the allocated chunks hold (size() rounded up to whole chunks).
  std::size_t allocation_extent() const { return control_.data() ? control().chunks.size() << shift_ : 0; }
  /// The number of elements (set by resize_serial); readable in kernels too.
  WEFT_INLINE_FUNCTION std::size_t size() const noexcept {
    if (!table_) return 0;
#if WEFT_IMPL_DEVICE_PASS
    return static_cast<std::size_t>(table_[chunk_max_]);
#else
    return static_cast<std::size_t>(control_.data()->table[chunk_max_]);
#endif
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION std::size_t extent(I r) const noexcept {
    return r == 0 ? size() : 1;
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION int extent_int(I r) const noexcept {
    return static_cast<int>(extent(r));
  }
  /// The elements are not one strided block: the strides are 0 and span() and data() are 0, as in Kokkos.
  template <class I>
  WEFT_INLINE_FUNCTION void stride(I* s) const noexcept {
    s[0] = 0;
  }
  WEFT_INLINE_FUNCTION constexpr std::size_t stride_0() const noexcept { return 0; }
  WEFT_INLINE_FUNCTION constexpr bool span_is_contiguous() const noexcept { return false; }
  WEFT_INLINE_FUNCTION constexpr std::size_t span() const noexcept { return 0; }
  WEFT_INLINE_FUNCTION constexpr pointer_type data() const noexcept { return nullptr; }
  /// Whether it holds elements (size() > 0), as Kokkos's: a DynamicView just constructed is not allocated yet.
  WEFT_INLINE_FUNCTION bool is_allocated() const noexcept { return table_ != nullptr && size() > 0; }
  int use_count() const { return control_.use_count(); }
  std::string label() const { return control_.data() ? control().label : std::string(); }

  // ---- access ----
  /// Element i (trailing indices, as Kokkos allows, must be 0). With bounds checks, i must be below size().
  template <std::integral I, std::integral... More>
  WEFT_INLINE_FUNCTION reference_type operator()(I i, More... more) const {
#if WEFT_BOUNDS_CHECK
    if (static_cast<std::size_t>(i) >= size() || ((more != 0) || ...)) bounds_abort(static_cast<long long>(i));
#else
    ((void)more, ...);
#endif
    const std::size_t u = static_cast<std::size_t>(i);
    const pointer_type p = reinterpret_cast<pointer_type>(table_[u >> shift_]) + (u & mask_);
#if WEFT_IMPL_ACCESS_HOOKS
    // GpuEmu's memory model sees the access, as a View's.
    if constexpr (requires { memory_space::impl_note_access(static_cast<const void*>(p), std::size_t(0)); })
      memory_space::impl_note_access(p, sizeof(value_type));
#endif
    return *p;
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION reference_type operator[](I i) const {
    return (*this)(i);
  }

  // ---- resizing (host only, between kernels) ----
  /// Grows or shrinks to n elements, allocating or freeing whole chunks; the elements kept stay where they are
  /// (new ones are value-initialized). Waits for the work queued on the memory space's execution space first.
  /// Beyond chunk_max() chunks it throws weft::Error.
  template <class I>
  requires std::is_arithmetic_v<I>
  void resize_serial(I n_in) {
    if (!table_)
      throw Error(
          "weft::DynamicView::resize_serial on a default-constructed DynamicView; construct it with (label, "
          "min_chunk_size, max_extent) first");
    Control& c = control();
    if constexpr (std::is_signed_v<I>)
      if (n_in < I(0))
        // (string building here, not impl::throw_cat's braced list: nvcc 13's cudafe rewrites that call as
        // throw_cat(({...})), which g++ then reads as a statement expression)
        throw Error("weft::DynamicView \"" + c.label + "\": resize_serial(" + std::to_string(n_in) +
                    ") is negative; give the number of elements");
    const std::size_t n = static_cast<std::size_t>(n_in);
    const std::uint64_t need = chunks_for(n);
    if (need > chunk_max_)
      throw Error("weft::DynamicView \"" + c.label + "\": resize_serial(" + std::to_string(n) + ") exceeds its " +
                  std::to_string(std::uint64_t(chunk_max_) << shift_) + " elements (" + std::to_string(chunk_max_) +
                  " chunks of " + std::to_string(chunk_size()) + "); construct it with a larger max_extent");
    execution_space exec;
    exec.fence();
    while (c.chunks.size() > need) {
      c.table[c.chunks.size() - 1] = 0;
      c.chunks.pop_back();
    }
    while (c.chunks.size() < need) {
      c.chunks.emplace_back(c.label, chunk_size());
      c.table[c.chunks.size() - 1] = reinterpret_cast<std::uintptr_t>(c.chunks.back().data());
    }
    c.table[chunk_max_] = n;
    deep_copy(exec, c.device_table,
              View<const std::uintptr_t*, HostSpace, MemoryUnmanaged>(c.table.data(), c.table.size()));
    exec.fence();
  }

  /// The elements [chunk * chunk_size(), ...) that chunk `chunk` holds below size(), as a View (host side).
  View<value_type*, device_type> impl_chunk(std::size_t chunk) const {
    const Control& c = control();
    const std::size_t begin = chunk << shift_, n = size();
    const std::size_t len = begin >= n ? 0 : (n - begin < chunk_size() ? n - begin : chunk_size());
    return subview(View<value_type*, device_type>(c.chunks[chunk]), pair<std::size_t, std::size_t>(0, len));
  }

 private:
  Control& control() const { return *control_.data(); }
  /// Whole chunks holding n elements, without the wrap of (n + mask) >> shift for n near SIZE_MAX.
  std::uint64_t chunks_for(std::size_t n) const {
    return (std::uint64_t(n) >> shift_) + ((std::uint64_t(n) & mask_) != 0 ? 1 : 0);
  }
  WEFT_INLINE_FUNCTION void note_capture() const {
#if WEFT_IMPL_ACCESS_HOOKS
    if (impl::t_view_capture && control_.data()) [[unlikely]]
      for (const chunk_view& ch : control().chunks)
        impl::t_view_capture->note(impl::t_view_capture->ctx, ch.impl_track().record(), ch.data(),
                                   ch.extent(0) * sizeof(value_type), std::is_const_v<value_type>);
#endif
  }
  /// An index at or past size(): the message, then abort (as a View's bounds error; kernels cannot throw).
  [[noreturn]] WEFT_INLINE_FUNCTION void bounds_abort(long long i) const {
#if WEFT_IMPL_DEVICE_PASS
    printf("weft: DynamicView index %lld is outside its %llu elements\n", i, (unsigned long long)size());
    WEFT_IMPL_DEVICE_TRAP();
#else
    impl::abort_with(
        impl::cat({"DynamicView \"", label(), "\" indexed (", i, ") but its size is ", size(), "; resize_serial first"})
            .c_str());
#endif
  }

  View<Control, HostSpace> control_;
  const std::uintptr_t* table_ = nullptr;
  unsigned shift_ = 0;
  unsigned mask_ = 0;
  unsigned chunk_max_ = 0;
};

namespace impl {
/// The elements a deep_copy with a DynamicView copies: those both sides hold (Kokkos copies the common part, so
/// that a DynamicView grown to n elements copies into a View of its maximum capacity and back).
template <class A, class B>
std::size_t dynamic_copy_count(const A& dst, const B& src) {
  static_assert(A::rank == 1 && B::rank == 1, "weft::deep_copy with a DynamicView: the other side must be rank 1");
  return dst.extent(0) < src.extent(0) ? dst.extent(0) : src.extent(0);
}
/// The elements [b, e) of a rank-1 View.
template <class V>
auto dynamic_range(const V& v, std::size_t b, std::size_t e) {
  return subview(v, pair<std::size_t, std::size_t>(b, e));
}
/// Walks dv's first n elements chunk by chunk: f(c, b, part) with chunk c's elements [b, b + part.extent(0)) as a
/// View part.
template <class DV, class F>
void for_each_dynamic_chunk(const DV& dv, std::size_t n, const F& f) {
  for (std::size_t c = 0, b = 0; b < n; ++c) {
    const auto whole = dv.impl_chunk(c);
    const std::size_t len = whole.extent(0) < n - b ? whole.extent(0) : n - b;
    f(c, b, dynamic_range(whole, 0, len));
    b += len;
  }
}
}  // namespace impl

/// deep_copy between a DynamicView and a rank-1 View, or two DynamicViews, chunk by chunk, between any memory spaces:
/// the first min(dst.extent(0), src.extent(0)) elements, as Kokkos. Ordered on exec; the forms without exec wait for
/// all work before and after, as deep_copy does.
template <ExecutionSpace E, class D, class... P, class D2, class... P2>
void deep_copy(const E& exec, const DynamicView<D, P...>& dst, const View<D2, P2...>& src) {
  impl::for_each_dynamic_chunk(dst, impl::dynamic_copy_count(dst, src),
                               [&](std::size_t, std::size_t b, const auto& part) {
                                 deep_copy(exec, part, impl::dynamic_range(src, b, b + part.extent(0)));
                               });
}
template <ExecutionSpace E, class D, class... P, class D2, class... P2>
void deep_copy(const E& exec, const View<D, P...>& dst, const DynamicView<D2, P2...>& src) {
  impl::for_each_dynamic_chunk(src, impl::dynamic_copy_count(dst, src),
                               [&](std::size_t, std::size_t b, const auto& part) {
                                 deep_copy(exec, impl::dynamic_range(dst, b, b + part.extent(0)), part);
                               });
}
template <ExecutionSpace E, class D, class... P, class D2, class... P2>
void deep_copy(const E& exec, const DynamicView<D, P...>& dst, const DynamicView<D2, P2...>& src) {
  const std::size_t n = impl::dynamic_copy_count(dst, src);
  if (dst.chunk_size() == src.chunk_size()) {
    impl::for_each_dynamic_chunk(dst, n, [&](std::size_t c, std::size_t, const auto& part) {
      deep_copy(exec, part, impl::dynamic_range(src.impl_chunk(c), 0, part.extent(0)));
    });
  } else {  // chunks that do not line up: through one contiguous copy in the destination's memory space
    View<typename DynamicView<D, P...>::non_const_value_type*, typename DynamicView<D, P...>::memory_space> tmp(
        view_alloc(WithoutInitializing, dst.label() + " (deep_copy staging)"), n);
    deep_copy(exec, tmp, src);
    deep_copy(exec, dst, tmp);
    exec.fence();  // tmp is freed on return
  }
}
template <class A, class B>
requires((is_dynamic_view_v<A> && (is_dynamic_view_v<B> || is_view_v<B>)) ||
         (is_view_v<A> && is_dynamic_view_v<B>)) void deep_copy(const A& dst, const B& src) {
  fence();
  typename A::execution_space exec;
  deep_copy(exec, dst, src);
  exec.fence();
}

/// A host copy of a DynamicView's shape (same chunk size and capacity), with its size; create_mirror_view returns v
/// itself when it is in host memory already.
namespace impl {
/// A DynamicView of type M with v's chunk size, capacity and size.
template <class M, class V>
M dynamic_mirror(const V& v) {
  M m(v.label() + " (mirror)", static_cast<unsigned>(v.chunk_size()), v.chunk_max() * v.chunk_size());
  m.resize_serial(v.size());
  return m;
}
}  // namespace impl
template <class D, class... P>
auto create_mirror(const DynamicView<D, P...>& v) {
  return impl::dynamic_mirror<typename DynamicView<D, P...>::HostMirror>(v);
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror(const Space&, const DynamicView<D, P...>& v) {
  return impl::dynamic_mirror<
      DynamicView<typename DynamicView<D, P...>::non_const_data_type, typename Space::memory_space>>(v);
}
template <class D, class... P>
auto create_mirror_view(const DynamicView<D, P...>& v) {
  using V = DynamicView<D, P...>;
  if constexpr (std::is_same_v<typename V::memory_space, typename V::HostMirror::memory_space>)
    return v;
  else
    return create_mirror(v);
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view(const Space& s,
                                                                              const DynamicView<D, P...>& v) {
  if constexpr (std::is_same_v<typename DynamicView<D, P...>::memory_space, typename Space::memory_space>)
    return v;
  else
    return create_mirror(s, v);
}
}  // namespace weft
