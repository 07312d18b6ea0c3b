// ScatterView: many threads add (multiply, min, max) into the elements of one View without races: through
// per-thread copies combined afterwards (host backends) or atomics (GPUs), as Kokkos::Experimental::ScatterView.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/atomics.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>
#include <weft/view.hpp>

namespace weft {

// The combining operation, how the contributions are kept apart, and whether a contribution is an atomic update.
struct ScatterSum {};
struct ScatterProd {};
struct ScatterMin {};
struct ScatterMax {};
struct ScatterDuplicated {};     // a copy per thread, combined by contribute()
struct ScatterNonDuplicated {};  // straight into the View
struct ScatterAtomic {};
struct ScatterNonAtomic {};

namespace impl {
/// Host spaces duplicate (a copy per thread, no atomics); device spaces update the View with atomics.
template <class Exec>
using scatter_default_duplication_t =
    std::conditional_t<Exec::execution_space::impl_is_host_space, ScatterDuplicated, ScatterNonDuplicated>;
template <class Dup>
using scatter_default_contribution_t =
    std::conditional_t<std::is_same_v<Dup, ScatterDuplicated>, ScatterNonAtomic, ScatterAtomic>;

/// Op's identity, the reducers' (a user type specializes weft::reduction_identity once for both).
template <class Op, class T>
WEFT_INLINE_FUNCTION constexpr T scatter_identity() {
  if constexpr (std::is_same_v<Op, ScatterSum>)
    return reduction_identity<T>::sum();
  else if constexpr (std::is_same_v<Op, ScatterProd>)
    return reduction_identity<T>::prod();
  else if constexpr (std::is_same_v<Op, ScatterMin>)
    return reduction_identity<T>::min();
  else
    return reduction_identity<T>::max();
}
template <class Op, class T>
WEFT_INLINE_FUNCTION constexpr T scatter_join(const T& a, const T& b) {
  if constexpr (std::is_same_v<Op, ScatterSum>)
    return a + b;
  else if constexpr (std::is_same_v<Op, ScatterProd>)
    return a * b;
  else if constexpr (std::is_same_v<Op, ScatterMin>)
    return b < a ? b : a;
  else
    return a < b ? b : a;
}

/// contribute's element: dest[d] = op(dest[d], the `copies` arrays at src (span apart) at s).
template <class Op, class T>
struct ScatterCombineAt {
  T* dest;
  const T* src;
  std::size_t span;
  int copies;
  WEFT_INLINE_FUNCTION void operator()(std::size_t d, std::size_t s) const {
    T acc = src[s];
    for (int c = 1; c < copies; ++c) acc = scatter_join<Op>(acc, src[static_cast<std::size_t>(c) * span + s]);
    dest[d] = scatter_join<Op>(dest[d], acc);
  }
};
/// contribute's kernel when the destination has the copies' layout and is contiguous: element j of the span.
template <class Op, class T>
struct ScatterCombineFlat {
  ScatterCombineAt<Op, T> at;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t j) const {
    at(static_cast<std::size_t>(j), static_cast<std::size_t>(j));
  }
};
}  // namespace impl

/// What access(...)(i...) returns: the element a contribution goes to, with the operators of Op only.
template <class T, class Op, bool Atomic>
class ScatterValue {
 public:
  WEFT_FORCEINLINE_FUNCTION explicit ScatterValue(T* p) : p_(p) {}
  WEFT_FORCEINLINE_FUNCTION void operator+=(const T& v) const {
    static_assert(std::is_same_v<Op, ScatterSum>, "weft::ScatterView: += and -= need ScatterSum");
    if constexpr (Atomic)
      atomic_add(p_, v);
    else
      *p_ += v;
  }
  WEFT_FORCEINLINE_FUNCTION void operator-=(const T& v) const { *this += T(-v); }
  WEFT_FORCEINLINE_FUNCTION void operator++() const { *this += T(1); }
  WEFT_FORCEINLINE_FUNCTION void operator++(int) const { *this += T(1); }
  WEFT_FORCEINLINE_FUNCTION void operator--() const { *this += T(-1); }
  WEFT_FORCEINLINE_FUNCTION void operator--(int) const { *this += T(-1); }
  WEFT_FORCEINLINE_FUNCTION void operator*=(const T& v) const {
    static_assert(std::is_same_v<Op, ScatterProd>, "weft::ScatterView: *= and /= need ScatterProd");
    if constexpr (Atomic)
      (void)atomic_fetch_mul(p_, v);
    else
      *p_ *= v;
  }
  WEFT_FORCEINLINE_FUNCTION void operator/=(const T& v) const { *this *= T(T(1) / v); }
  /// The operation of Op: add, multiply, keep the smaller or keep the larger.
  WEFT_FORCEINLINE_FUNCTION void update(const T& v) const {
    if constexpr (std::is_same_v<Op, ScatterSum>) {
      *this += v;
    } else if constexpr (std::is_same_v<Op, ScatterProd>) {
      *this *= v;
    } else if constexpr (Atomic) {
      if constexpr (std::is_same_v<Op, ScatterMin>)
        atomic_min(p_, v);
      else
        atomic_max(p_, v);
    } else {
      *p_ = impl::scatter_join<Op>(*p_, v);
    }
  }

 private:
  T* p_;
};

/// ScatterView<DataType, Layout, Exec, Op, Duplication, Contribution> over a View of Exec's memory. In a kernel:
/// `auto a = scatter.access(); a(i) += x;`. After the kernels, `contribute(view, scatter)` combines what was
/// contributed into `view` (with Duplication, the copies; without, the contributions are already there), and
/// `reset()` starts the next round. Duplicated copies exist on host spaces only: one per thread of the instance
/// the ScatterView was made for (`concurrency()`) but the first, which writes into the View itself (as Kokkos). On a
/// GPU, ScatterDuplicated contributes atomically into the View itself (Kokkos keeps one copy per resident thread,
/// concurrency() copies of the View; the sums are the same, and GPUs are what atomics are fast on).
template <class DataType, class Layout = typename View<DataType>::array_layout, class Exec = DefaultExecutionSpace,
          class Op = ScatterSum, class Duplication = impl::scatter_default_duplication_t<Exec>,
          class Contribution = impl::scatter_default_contribution_t<Duplication>>
class ScatterView {
 public:
  // Exec may be an execution space or a Device<Exec, Memory> (Kokkos's form).
  using execution_space = typename Exec::execution_space;
  using memory_space = typename Exec::memory_space;
  using original_view_type = View<DataType, Layout, memory_space>;
  using original_value_type = typename original_view_type::value_type;
  using value_type = std::remove_const_t<original_value_type>;
  using array_layout = Layout;
  using op_type = Op;
  static constexpr int rank = original_view_type::R;
  static constexpr bool is_duplicated = std::is_same_v<Duplication, ScatterDuplicated>;
  static constexpr bool is_atomic = std::is_same_v<Contribution, ScatterAtomic>;
  static_assert(!std::is_const_v<original_value_type>, "weft::ScatterView: the View must not be of const data");
  /// Copies per host thread; a device's ScatterDuplicated contributes atomically to the View instead.
  static constexpr bool impl_host_duplicated = is_duplicated && execution_space::impl_is_host_space;
  static constexpr bool impl_device_duplicated = is_duplicated && !execution_space::impl_is_host_space;
  /// Contributions through access() are atomic: ScatterAtomic, or a device's ScatterDuplicated.
  static constexpr bool impl_atomic_access = is_atomic || impl_device_duplicated;
  using value_reference = ScatterValue<value_type, Op, impl_atomic_access>;

  ScatterView() = default;
  /// Contributions go to (copies of) v.
  explicit ScatterView(const original_view_type& v, const execution_space& exec = execution_space()) : orig_(v) {
    if constexpr (impl_host_duplicated) {
      copies_ = exec.concurrency();
      remake_copies(exec);
    }
  }
  /// A View of its own, zeroed, as Kokkos's ScatterView(label, extents...).
  template <impl::Label L, impl::ViewIndex... N>
  explicit ScatterView(const L& label, N... n) : ScatterView(original_view_type(label, n...)) {}

  /// A ScatterView over a View of another spelling of the same elements (runtime or compile-time extents, Exec or
  /// Device<Exec, Memory>), as Kokkos's converting constructor: the View and the copies are shared. The View's own
  /// conversion checks the extents.
  template <class D2, class E2>
  requires(
      !std::is_same_v<ScatterView<D2, Layout, E2, Op, Duplication, Contribution>, ScatterView> &&
      std::is_same_v<typename E2::execution_space, execution_space> &&
      std::is_same_v<typename E2::memory_space, memory_space> &&
      std::is_constructible_v<original_view_type,
                              typename ScatterView<D2, Layout, E2, Op, Duplication, Contribution>::original_view_type>)
      ScatterView(const ScatterView<D2, Layout, E2, Op, Duplication, Contribution>& o)
      : orig_(o.orig_), dups_(o.dups_), copies_(o.copies_) {}

  /// What access() returns: Atomic is the Contribution's, or the one access<ScatterAtomic>() asks for.
  template <bool Atomic>
  class BasicAccess {
   public:
    using value_reference = ScatterValue<value_type, Op, Atomic>;
    /// The element (i...) of this thread's copy (or of the View).
    template <std::integral... I>
    WEFT_FORCEINLINE_FUNCTION value_reference operator()(I... i) const {
      static_assert(sizeof...(I) == rank, "weft::ScatterView::access: give one index per dimension");
#if WEFT_BOUNDS_CHECK
      (void)view_(i...);  // the View's own bounds check names it
#endif
      return value_reference(base_ + map_(i...));
    }
    template <std::integral I>
    requires(rank == 1) WEFT_FORCEINLINE_FUNCTION value_reference operator[](I i) const { return (*this)(i); }

   private:
    friend class ScatterView;
    // Only the pointer and the index map in release builds: an Access is made per iteration, and a View copy
    // (its tracker) there cost half the histogram's speed.
    WEFT_INLINE_FUNCTION BasicAccess(const original_view_type& v, value_type* base)
        :
#if WEFT_BOUNDS_CHECK
          view_(v),
#endif
          map_(v.impl_map()),
          base_(base) {
    }
#if WEFT_BOUNDS_CHECK
    original_view_type view_;
#endif
    typename original_view_type::impl_map_type map_;
    value_type* base_;
  };

  using Access = BasicAccess<impl_atomic_access>;

  /// The calling thread's way in: inside a kernel of the instance the ScatterView was made for.
  /// access<ScatterAtomic>() makes this access's contributions atomic whatever the Contribution (Kokkos's form).
  template <class OverrideContribution = Contribution>
  WEFT_INLINE_FUNCTION BasicAccess<std::is_same_v<OverrideContribution, ScatterAtomic> || impl_device_duplicated>
  access() const {
    using A = BasicAccess<std::is_same_v<OverrideContribution, ScatterAtomic> || impl_device_duplicated>;
    if constexpr (impl_host_duplicated) {
#if !WEFT_IMPL_DEVICE_PASS
      // Checked with one copy too (a ScatterView made for Serial or a one-thread instance): there the View itself
      // is thread 0's copy, and any other thread writing into it would lose updates without a word.
      const int t = impl::t_host_thread_index;
      if (t >= copies_) [[unlikely]]
        impl::abort_with(
            "ScatterView::access: the calling thread's index in its parallel region is not below the number of "
            "copies (the instance's threads when the ScatterView was made); make the ScatterView for the "
            "instance the kernel runs on");
      if (t > 0) return A(orig_, dups_.data() + static_cast<std::size_t>(t - 1) * orig_.span());
#endif
    }
    return A(orig_, orig_.data());
  }

  /// Sets the other threads' copies back to Op's identity (the View itself, which thread 0 and the contributions
  /// of the last contribute() went into, is left as it is).
  template <ExecutionSpace E = execution_space>
  void reset(const E& exec = E()) {
    if (dups_.is_allocated()) deep_copy(exec, dups_, impl::scatter_identity<Op, value_type>());
  }

  /// Kokkos's reset_except(view): resets the copies except one that is `view`. The View itself is never one of
  /// the copies reset() clears, so this is reset() whichever View is given.
  template <class D, class... P>
  void reset_except(const View<D, P...>&) {
    reset();
  }
  template <ExecutionSpace E, class D, class... P>
  void reset_except(const E& exec, const View<D, P...>&) {
    reset(exec);
  }

  /// The View this ScatterView holds gets new extents: resize keeps the values in the common extents (as
  /// weft::resize), realloc does not (as weft::realloc); the threads' copies are made anew for the new extents and
  /// reset. Other handles to the old View keep the old allocation, as with weft::resize.
  template <impl::ViewIndex... N>
  void resize(N... n) {
    weft::resize(orig_, n...);
    remake_copies();
  }
  template <impl::ViewIndex... N>
  void realloc(N... n) {
    weft::realloc(orig_, n...);
    remake_copies();
  }

  /// Combines the other threads' copies into the View; into another View dest (same extents), the View's
  /// values and the copies: dest(i...) = op(dest(i...), view(i...), copies' (i...)).
  template <class D, class... P>
  void contribute_into(const View<D, P...>& dest) const {
    contribute_into(execution_space(), dest);
  }
  template <ExecutionSpace E, class D, class... P>
  void contribute_into(const E& exec, const View<D, P...>& dest) const {
    using DV = View<D, P...>;
    static_assert(DV::R == rank, "weft::contribute: the destination's rank differs from the ScatterView's");
    static_assert(std::is_same_v<typename DV::memory_space, memory_space>,
                  "weft::contribute: the destination must be in the ScatterView's memory space");
    for (int k = 0; k < rank; ++k)
      if (dest.extent(k) != orig_.extent(k))
        impl::throw_cat({"contribute: View \"", dest.label(), "\" has extent ", dest.extent(k), " in dimension ", k,
                         " but ScatterView of \"", orig_.label(), "\" has ", orig_.extent(k),
                         "; give a View of the same shape"});
    // thread 0's contributions (and what the View held) are in the View itself; the other threads' in the copies
    if (dest.data() != orig_.data()) combine(exec, dest, orig_.data(), 1);
    if (dups_.is_allocated()) combine(exec, dest, dups_.data(), copies_ - 1);
  }

  const original_view_type& subview() const { return orig_; }
  template <std::integral I>
  std::size_t extent(I r) const {
    return orig_.extent(r);
  }
  bool is_allocated() const { return orig_.is_allocated(); }
  /// How many threads' contributions are kept apart (1: contributions go straight to the View).
  int impl_copies() const { return dups_.is_allocated() ? copies_ : 1; }

 private:
  /// dest(i...) = op(dest(i...), the `copies` arrays at src laid out as the View (i...)).
  template <ExecutionSpace E, class DV>
  void combine(const E& exec, const DV& dest, const value_type* src, int copies) const {
    const impl::ScatterCombineAt<Op, value_type> at{dest.data(), src, orig_.span(), copies};
    bool flat = std::is_same_v<typename DV::array_layout, Layout> && orig_.span_is_contiguous();
    for (int k = 0; k < rank; ++k) flat = flat && dest.stride(k) == orig_.stride(k);
    if (flat) {
      parallel_for("weft::ScatterView::contribute", RangePolicy<E>(exec, 0, static_cast<std::int64_t>(orig_.span())),
                   impl::ScatterCombineFlat<Op, value_type>{at});
      return;
    }
    std::size_t ext[rank > 0 ? rank : 1], dst_stride[rank > 0 ? rank : 1], src_stride[rank > 0 ? rank : 1];
    for (int k = 0; k < rank; ++k) ext[k] = orig_.extent(k);
    impl::strides_of(dest, dst_stride);
    impl::strides_of(orig_, src_stride);
    impl::for_each_element<rank>(exec, ext, dst_stride, src_stride, at);
  }

  /// The other threads' copies of the View, reset (thread 0 writes into the View itself, as in Kokkos: one copy
  /// less to clear, hold and combine).
  void remake_copies(const execution_space& exec = execution_space()) {
    if constexpr (impl_host_duplicated) {
      dups_ = View<value_type*, memory_space>();
      if (copies_ > 1 && orig_.span() > 0) {
        dups_ =
            View<value_type*, memory_space>(view_alloc(orig_.label() + " (ScatterView copies)", WithoutInitializing),
                                            static_cast<std::size_t>(copies_ - 1) * orig_.span());
        reset(exec);
      }
    }
  }

  template <class, class, class, class, class, class>
  friend class ScatterView;

  original_view_type orig_;
  View<value_type*, memory_space> dups_;
  int copies_ = 1;
};

/// contribute(view, scatter): combines what was contributed through `scatter` into `view`.
template <class D, class... P, class SD, class SL, class SE, class SO, class SDup, class SC>
void contribute(const View<D, P...>& dest, const ScatterView<SD, SL, SE, SO, SDup, SC>& src) {
  src.contribute_into(dest);
}
template <ExecutionSpace E, class D, class... P, class SD, class SL, class SE, class SO, class SDup, class SC>
void contribute(const E& exec, const View<D, P...>& dest, const ScatterView<SD, SL, SE, SO, SDup, SC>& src) {
  src.contribute_into(exec, dest);
}

/// create_scatter_view(v), create_scatter_view<Op>(v), create_scatter_view(Op{}, v),
/// create_scatter_view<Op, Duplication, Contribution>(v), create_scatter_view(Op{}, Duplication{}, Contribution{}, v):
/// a ScatterView over v for v's device_type (the default execution space of v's memory), as Kokkos's.
template <class Op = ScatterSum, class D, class... P>
auto create_scatter_view(const View<D, P...>& v) {
  using V = View<D, P...>;
  return ScatterView<typename V::data_type, typename V::array_layout, typename V::device_type, Op>(v);
}
template <class Op, class D, class... P>
auto create_scatter_view(Op, const View<D, P...>& v) {
  return create_scatter_view<Op>(v);
}
template <class Op, class Dup, class Contrib, class D, class... P>
auto create_scatter_view(const View<D, P...>& v) {
  using V = View<D, P...>;
  return ScatterView<typename V::data_type, typename V::array_layout, typename V::device_type, Op, Dup, Contrib>(v);
}
template <class Op, class Dup, class Contrib, class D, class... P>
auto create_scatter_view(Op, Dup, Contrib, const View<D, P...>& v) {
  using V = View<D, P...>;
  return ScatterView<typename V::data_type, typename V::array_layout, typename V::device_type, Op, Dup, Contrib>(v);
}

}  // namespace weft
