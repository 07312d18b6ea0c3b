// Reducers (Sum, Prod, Min, Max, MinLoc, MaxLoc, MinMax, MinMaxLoc, LAnd, LOr, BAnd, BOr), reduction
// identities, and the adaptors that turn a result argument or a reducing functor into one interface.
#pragma once

#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include <weft/macros.hpp>
#include <weft/view.hpp>

namespace weft {

namespace impl {
/// The identities of arithmetic types (numeric_limits), which reduction_identity's primary template gives. The sum
/// of a type that is not made from 0 (a struct with operator+=, an aggregate of arrays) starts value-initialized,
/// as Kokkos's default reduction does.
template <class T>
struct reduction_identity_default {
  WEFT_FORCEINLINE_FUNCTION static constexpr T sum() {
    if constexpr (requires { static_cast<T>(0); })
      return static_cast<T>(0);
    else
      return T();
  }
  WEFT_FORCEINLINE_FUNCTION static constexpr T prod() { return static_cast<T>(1); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T max() { return std::numeric_limits<T>::lowest(); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T min() { return std::numeric_limits<T>::max(); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T land() { return static_cast<T>(true); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T lor() { return static_cast<T>(false); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T band() { return static_cast<T>(~T(0)); }
  WEFT_FORCEINLINE_FUNCTION static constexpr T bor() { return static_cast<T>(0); }
};
}  // namespace impl

/// Identity elements; specialize for a user type to use it with the built-in reducers (and ScatterView).
template <class T>
struct reduction_identity : impl::reduction_identity_default<T> {};

template <class Scalar, class Index>
struct ValLocScalar {
  Scalar val;
  Index loc;
};
template <class Scalar>
struct MinMaxScalar {
  Scalar min_val;
  Scalar max_val;
};
template <class Scalar, class Index>
struct MinMaxLocScalar {
  Scalar min_val;
  Scalar max_val;
  Index min_loc;
  Index max_loc;
};

namespace impl {
using ResultWriter = void (*)(void*, const void*, std::size_t);
/// Writes a result computed on the host into memory space M (a device copy when the host cannot write M).
template <class M>
void write_result_bytes(void* dst, const void* src, std::size_t bytes) {
  if constexpr (requires(void* d, const void* s, std::size_t n) { M::impl_copy_bytes(d, s, n); })
    M::impl_copy_bytes(dst, src, bytes);
  else
    std::memcpy(dst, src, bytes);
}

/// Holds where a reducer's result goes: a host scalar, or a rank-0 View (written without a fence).
template <class T, class Space>
class ReducerResult {
 public:
  using value_type = std::remove_cv_t<T>;
  using result_view_type = View<value_type, Space>;
  WEFT_INLINE_FUNCTION ReducerResult(value_type& v) : ptr_(&v), scalar_(true) {}
  WEFT_INLINE_FUNCTION ReducerResult(const result_view_type& v) : ptr_(v.data()), view_(v), scalar_(false) {}
  WEFT_INLINE_FUNCTION value_type& reference() const { return *ptr_; }
  result_view_type view() const { return scalar_ ? result_view_type(ptr_) : view_; }
  WEFT_INLINE_FUNCTION bool references_scalar() const { return scalar_; }
  /// Where a kernel of execution space E may write the result itself: the View's memory when E can reach it
  /// (a device View on a GPU), else null (a host scalar or a View E cannot reach: the backend delivers).
  template <class E>
  value_type* impl_direct_target() const {
    if constexpr (SpaceAccessibility<E, Space>::accessible) return scalar_ ? nullptr : ptr_;
    return nullptr;
  }
  /// Stores a host-side result value where the reducer's result lives.
  void impl_store(const value_type& v) const {
    if (scalar_)
      *ptr_ = v;
    else
      write_result_bytes<Space>(ptr_, &v, sizeof(v));
  }

 private:
  value_type* ptr_;
  result_view_type view_;  // keeps a View result alive
  bool scalar_;
};
}  // namespace impl

#define WEFT_IMPL_SIMPLE_REDUCER(NAME, INIT, JOIN)                                                               \
  template <class Scalar, class Space = HostSpace>                                                               \
  class NAME : public impl::ReducerResult<Scalar, Space> {                                                       \
   public:                                                                                                       \
    using reducer = NAME;                                                                                        \
    using value_type = std::remove_cv_t<Scalar>;                                                                 \
    using impl::ReducerResult<Scalar, Space>::ReducerResult;                                                     \
    WEFT_FORCEINLINE_FUNCTION void join(value_type& dest, const value_type& src) const { JOIN; }                 \
    WEFT_FORCEINLINE_FUNCTION void init(value_type& val) const { val = reduction_identity<value_type>::INIT(); } \
  };                                                                                                             \
  template <class Scalar>                                                                                        \
  requires(!is_view_v<Scalar> && !requires { typename Scalar::reducer; }) WEFT_DEDUCTION_GUIDE NAME(Scalar&)     \
  ->NAME<Scalar>;                                                                                                \
  template <class Scalar, class... P>                                                                            \
  WEFT_DEDUCTION_GUIDE NAME(const View<Scalar, P...>&)->NAME<Scalar, typename View<Scalar, P...>::memory_space>;

WEFT_IMPL_SIMPLE_REDUCER(Sum, sum, dest += src)
WEFT_IMPL_SIMPLE_REDUCER(Prod, prod, dest *= src)
WEFT_IMPL_SIMPLE_REDUCER(Min, min, if (src < dest) dest = src)
WEFT_IMPL_SIMPLE_REDUCER(Max, max, if (dest < src) dest = src)
WEFT_IMPL_SIMPLE_REDUCER(LAnd, land, dest = dest && src)
WEFT_IMPL_SIMPLE_REDUCER(LOr, lor, dest = dest || src)
WEFT_IMPL_SIMPLE_REDUCER(BAnd, band, dest = dest & src)
WEFT_IMPL_SIMPLE_REDUCER(BOr, bor, dest = dest | src)
#undef WEFT_IMPL_SIMPLE_REDUCER

/// Smallest value and its index; ties go to the smallest index, so results do not depend on threads.
template <class Scalar, class Index, class Space = HostSpace>
class MinLoc : public impl::ReducerResult<ValLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>, Space> {
 public:
  using reducer = MinLoc;
  using value_type = ValLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>;
  using impl::ReducerResult<value_type, Space>::ReducerResult;
  WEFT_FORCEINLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (s.val < d.val || (s.val == d.val && s.loc < d.loc)) d = s;
  }
  WEFT_FORCEINLINE_FUNCTION void init(value_type& v) const {
    v.val = reduction_identity<std::remove_cv_t<Scalar>>::min();
    v.loc = reduction_identity<std::remove_cv_t<Index>>::min();
  }
};
/// Largest value and its index; ties go to the smallest index.
template <class Scalar, class Index, class Space = HostSpace>
class MaxLoc : public impl::ReducerResult<ValLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>, Space> {
 public:
  using reducer = MaxLoc;
  using value_type = ValLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>;
  using impl::ReducerResult<value_type, Space>::ReducerResult;
  WEFT_FORCEINLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (d.val < s.val || (s.val == d.val && s.loc < d.loc)) d = s;
  }
  WEFT_FORCEINLINE_FUNCTION void init(value_type& v) const {
    v.val = reduction_identity<std::remove_cv_t<Scalar>>::max();
    v.loc = reduction_identity<std::remove_cv_t<Index>>::min();
  }
};
template <class Scalar, class Space = HostSpace>
class MinMax : public impl::ReducerResult<MinMaxScalar<std::remove_cv_t<Scalar>>, Space> {
 public:
  using reducer = MinMax;
  using value_type = MinMaxScalar<std::remove_cv_t<Scalar>>;
  using impl::ReducerResult<value_type, Space>::ReducerResult;
  WEFT_FORCEINLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (s.min_val < d.min_val) d.min_val = s.min_val;
    if (d.max_val < s.max_val) d.max_val = s.max_val;
  }
  WEFT_FORCEINLINE_FUNCTION void init(value_type& v) const {
    v.min_val = reduction_identity<std::remove_cv_t<Scalar>>::min();
    v.max_val = reduction_identity<std::remove_cv_t<Scalar>>::max();
  }
};
namespace impl {
/// MinMaxLoc and MinMaxFirstLastLoc: the smallest value with its smallest index, and the largest value with its
/// smallest index (LastMax false) or its largest (LastMax true).
template <class Scalar, class Index, class Space, bool LastMax>
class MinMaxLocReducer
    : public ReducerResult<MinMaxLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>, Space> {
 public:
  using value_type = MinMaxLocScalar<std::remove_cv_t<Scalar>, std::remove_cv_t<Index>>;
  using ReducerResult<value_type, Space>::ReducerResult;
  WEFT_FORCEINLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (s.min_val < d.min_val || (s.min_val == d.min_val && s.min_loc < d.min_loc)) {
      d.min_val = s.min_val;
      d.min_loc = s.min_loc;
    }
    if (d.max_val < s.max_val ||
        (s.max_val == d.max_val && (LastMax ? d.max_loc < s.max_loc : s.max_loc < d.max_loc))) {
      d.max_val = s.max_val;
      d.max_loc = s.max_loc;
    }
  }
  WEFT_FORCEINLINE_FUNCTION void init(value_type& v) const {
    v.min_val = reduction_identity<std::remove_cv_t<Scalar>>::min();
    v.max_val = reduction_identity<std::remove_cv_t<Scalar>>::max();
    v.min_loc = reduction_identity<std::remove_cv_t<Index>>::min();
    v.max_loc = LastMax ? reduction_identity<std::remove_cv_t<Index>>::max()
                        : reduction_identity<std::remove_cv_t<Index>>::min();
  }
};
}  // namespace impl

/// Smallest and largest values with their indices; ties go to the smallest index.
template <class Scalar, class Index, class Space = HostSpace>
class MinMaxLoc : public impl::MinMaxLocReducer<Scalar, Index, Space, false> {
 public:
  using reducer = MinMaxLoc;
  using impl::MinMaxLocReducer<Scalar, Index, Space, false>::MinMaxLocReducer;
};
/// Smallest value with its first (smallest) index and largest value with its last (largest) index.
template <class Scalar, class Index, class Space = HostSpace>
class MinMaxFirstLastLoc : public impl::MinMaxLocReducer<Scalar, Index, Space, true> {
 public:
  using reducer = MinMaxFirstLastLoc;
  using impl::MinMaxLocReducer<Scalar, Index, Space, true>::MinMaxLocReducer;
};

/// What a reducer must provide (Kokkos' reducer concept).
template <class R>
concept Reducer = requires {
  typename R::reducer;
  typename R::value_type;
}
&&requires(const R& r, typename R::value_type& a, const typename R::value_type& b) {
  r.join(a, b);
  r.init(a);
  r.reference();
};
template <class R>
inline constexpr bool is_reducer_v = Reducer<R>;

namespace impl {
// ---- a small tuple for several reductions in one kernel ----
template <class... T>
struct Tup {};
template <class H, class... T>
struct Tup<H, T...> {
  H head;
  Tup<T...> tail;
};
template <std::size_t I, class H, class... T>
WEFT_FORCEINLINE_FUNCTION auto& get(Tup<H, T...>& t) {
  if constexpr (I == 0)
    return t.head;
  else
    return get<I - 1>(t.tail);
}
template <std::size_t I, class H, class... T>
WEFT_FORCEINLINE_FUNCTION const auto& get(const Tup<H, T...>& t) {
  if constexpr (I == 0)
    return t.head;
  else
    return get<I - 1>(t.tail);
}

/// The one interface the backends' reduce and scan engines use:
///   value_count(), init(v*), join(d*, s*), final(v*), apply(v*, fn) calls fn with the accumulator(s),
///   store(v*) delivers the result.
template <class R>
struct ReducerAdaptor {
  using value_type = typename R::value_type;
  static constexpr bool is_array = false;
  R r;
  WEFT_INLINE_FUNCTION int value_count() const { return 1; }
  WEFT_FORCEINLINE_FUNCTION void init(value_type* v) const { r.init(*v); }
  WEFT_FORCEINLINE_FUNCTION void join(value_type* d, const value_type* s) const { r.join(*d, *s); }
  WEFT_FORCEINLINE_FUNCTION void final(value_type* v) const {
    if constexpr (requires { r.final(*v); }) r.final(*v);
  }
  template <class Fn>
  WEFT_FORCEINLINE_FUNCTION void apply(value_type* v, Fn&& fn) const {
    fn(*v);
  }
  /// Stores through reference(): for results that live where the caller runs (nested reductions).
  WEFT_INLINE_FUNCTION void store_local(const value_type* v) const { r.reference() = *v; }
  /// The result's memory when a kernel of E may write it directly (see ReducerResult::impl_direct_target).
  template <class E>
  value_type* direct_target() const {
    if constexpr (requires { r.template impl_direct_target<E>(); })
      return r.template impl_direct_target<E>();
    else
      return nullptr;
  }
  /// Delivers the host-side result (for built-in reducers, into device memory too).
  void store(const value_type* v) const {
    if constexpr (requires { r.impl_store(*v); })
      r.impl_store(*v);
    else
      r.reference() = *v;
  }
};

template <class... R>
struct CombinedAdaptor {
  using value_type = Tup<typename R::value_type...>;
  static constexpr bool is_array = false;
  static constexpr bool is_combined = true;
  Tup<R...> rs;
  WEFT_INLINE_FUNCTION int value_count() const { return 1; }
  template <std::size_t... I>
  WEFT_FORCEINLINE_FUNCTION void init_impl(value_type* v, std::index_sequence<I...>) const {
    (get<I>(rs).init(get<I>(*v)), ...);
  }
  template <std::size_t... I>
  WEFT_FORCEINLINE_FUNCTION void join_impl(value_type* d, const value_type* s, std::index_sequence<I...>) const {
    (get<I>(rs).join(get<I>(*d), get<I>(*s)), ...);
  }
  template <std::size_t... I, class Fn>
  WEFT_FORCEINLINE_FUNCTION void apply_impl(value_type* v, Fn&& fn, std::index_sequence<I...>) const {
    fn(get<I>(*v)...);
  }
  template <std::size_t... I>
  void store_impl(const value_type* v, std::index_sequence<I...>) const {
    (ReducerAdaptor<std::remove_cvref_t<decltype(get<I>(rs))>>{get<I>(rs)}.store(&get<I>(*v)), ...);
  }
  using seq = std::index_sequence_for<R...>;
  WEFT_FORCEINLINE_FUNCTION void init(value_type* v) const { init_impl(v, seq{}); }
  WEFT_FORCEINLINE_FUNCTION void join(value_type* d, const value_type* s) const { join_impl(d, s, seq{}); }
  WEFT_FORCEINLINE_FUNCTION void final(value_type*) const {}
  template <class Fn>
  WEFT_FORCEINLINE_FUNCTION void apply(value_type* v, Fn&& fn) const {
    apply_impl(v, fn, seq{});
  }
  void store(const value_type* v) const { store_impl(v, seq{}); }
  template <std::size_t... I>
  WEFT_INLINE_FUNCTION void store_local_impl(const value_type* v, std::index_sequence<I...>) const {
    ((get<I>(rs).reference() = get<I>(*v)), ...);
  }
  WEFT_INLINE_FUNCTION void store_local(const value_type* v) const { store_local_impl(v, seq{}); }
};

/// A functor that reduces by itself: it has value_type (possibly T[] with a value_count member), and
/// optionally init / join / final. Results go to a scalar, an array, a View (TargetSpace: its memory space), or
/// nowhere.
template <class F, class TargetSpace = void, class Tag = void>
struct FunctorAdaptor {
  using declared = typename F::value_type;
  static constexpr bool is_array = std::is_array_v<declared>;
  using value_type = std::remove_cv_t<std::remove_extent_t<declared>>;
  const F* f;
  int count;
  value_type* target;             // nullptr: no result wanted
  ResultWriter writer = nullptr;  // how to write into target's memory space (nullptr: plain host stores)
  WEFT_INLINE_FUNCTION int value_count() const { return count; }
  // With a work tag, the functor's tagged init(Tag, ...) / join(Tag, ...) / final(Tag, ...) come first (Kokkos).
  WEFT_FORCEINLINE_FUNCTION void init(value_type* v) const {
    if constexpr (is_array) {
      if constexpr (!std::is_void_v<Tag> && requires { f->init(Tag{}, v); })
        f->init(Tag{}, v);
      else if constexpr (requires { f->init(v); })
        f->init(v);
      else
        for (int i = 0; i < count; ++i) v[i] = value_type();
    } else {
      if constexpr (!std::is_void_v<Tag> && requires { f->init(Tag{}, *v); })
        f->init(Tag{}, *v);
      else if constexpr (requires { f->init(*v); })
        f->init(*v);
      else
        *v = value_type();
    }
  }
  WEFT_FORCEINLINE_FUNCTION void join(value_type* d, const value_type* s) const {
    if constexpr (is_array) {
      if constexpr (!std::is_void_v<Tag> && requires { f->join(Tag{}, d, s); })
        f->join(Tag{}, d, s);
      else if constexpr (requires { f->join(d, s); })
        f->join(d, s);
      else
        for (int i = 0; i < count; ++i) d[i] += s[i];
    } else {
      if constexpr (!std::is_void_v<Tag> && requires { f->join(Tag{}, *d, *s); })
        f->join(Tag{}, *d, *s);
      else if constexpr (requires { f->join(*d, *s); })
        f->join(*d, *s);
      else
        *d += *s;
    }
  }
  WEFT_FORCEINLINE_FUNCTION void final(value_type* v) const {
    if constexpr (is_array) {
      if constexpr (!std::is_void_v<Tag> && requires { f->final(Tag{}, v); })
        f->final(Tag{}, v);
      else if constexpr (requires { f->final(v); })
        f->final(v);
    } else {
      if constexpr (!std::is_void_v<Tag> && requires { f->final(Tag{}, *v); })
        f->final(Tag{}, *v);
      else if constexpr (requires { f->final(*v); })
        f->final(*v);
    }
  }
  template <class Fn>
  WEFT_FORCEINLINE_FUNCTION void apply(value_type* v, Fn&& fn) const {
    if constexpr (is_array)
      fn(v);
    else
      fn(*v);
  }
  /// The result View's memory when a kernel of E may write it directly, else null (see ReducerResult).
  template <class E>
  value_type* direct_target() const {
    if constexpr (!std::is_void_v<TargetSpace>) {
      if constexpr (SpaceAccessibility<E, TargetSpace>::accessible) return target;
    }
    return nullptr;
  }
  void store(const value_type* v) const {
    if (!target) return;
    if (writer)
      writer(target, v, sizeof(value_type) * count);
    else
      for (int i = 0; i < count; ++i) target[i] = v[i];
  }
};

template <class F>
concept ReducingFunctor = requires {
  typename F::value_type;
};

template <class F>
int functor_value_count(const F& f) {
  if constexpr (requires { f.value_count; })
    return static_cast<int>(f.value_count);
  else
    return 1;
}

/// Turns one result argument of parallel_reduce into a reducer: T& -> Sum<T>, rank-0 View -> Sum<T>.
template <class Arg>
WEFT_INLINE_FUNCTION auto as_reducer(Arg& a) {
  using A = std::remove_cv_t<Arg>;
  if constexpr (Reducer<A>) {
    return a;
  } else if constexpr (is_view_v<A>) {
    static_assert(A::R == 0, "weft::parallel_reduce: a View result must have rank 0 (or use a reducer)");
    return Sum<typename A::value_type, typename A::memory_space>(
        typename Sum<typename A::value_type, typename A::memory_space>::result_view_type(a));
  } else {
    return Sum<A>(a);
  }
}
}  // namespace impl
}  // namespace weft
