// Hierarchical parallelism inside a team: nested parallel_for / parallel_reduce / parallel_scan over
// TeamThreadRange, ThreadVectorRange and TeamVectorRange, and single(PerTeam / PerThread). Written once
// against the member hooks every backend's team member provides:
//   impl_for(level, b, e, body), impl_join(level, adaptor, value*), impl_exclusive_prefix(level, adaptor,
//   value*, total*), impl_single_team(f), impl_single_lane(f), impl_vector_broadcast(value), team_rank(),
//   team_broadcast(value, source), and optionally impl_scan(level, b, e, adaptor, f, total*) (a nested scan in
//   the member's own order; without it, contiguous chunks per part).
#pragma once

#include <type_traits>

#include <weft/parallel.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>

namespace weft {

template <impl::NestLevel L, class I, class M, class F>
WEFT_INLINE_FUNCTION void parallel_for(const impl::NestedRange<L, I, M>& r, const F& f) {
  static_assert(std::is_invocable_v<const F&, I>, "weft::parallel_for over a nested range: f must be callable as f(i)");
  r.member.impl_for(L, r.begin, r.end, f);
}

namespace impl {
/// A functor that reduces by itself in a nested reduction: it names the result's type as its value_type and has an
/// init or a join (a scalar value type; arrays are for the top-level reductions).
template <class F, class T>
concept NestedReducingFunctor = !Reducer<T> && !is_view_v<T> && requires {
  typename F::value_type;
}
&&std::is_same_v<std::remove_cv_t<typename F::value_type>, T> && !std::is_array_v<T> &&
    (
        requires(const F& f, T& a, const T& b) { f.join(a, b); } || requires(const F& f, T& a) { f.init(a); });
template <class F, class... T>
inline constexpr bool nested_functor_reduces = false;
template <class F, class T>
inline constexpr bool nested_functor_reduces<F, T> = NestedReducingFunctor<F, T>;
/// Such a functor seen as a reducer of `result`: its init (else a value-initialized T) and its join (else +=).
template <class F, class T>
struct FunctorAsReducer {
  using reducer = FunctorAsReducer;
  using value_type = T;
  const F* f;
  T* result;
  WEFT_FORCEINLINE_FUNCTION void init(T& v) const {
    if constexpr (requires { f->init(v); })
      f->init(v);
    else
      v = T();
  }
  WEFT_FORCEINLINE_FUNCTION void join(T& d, const T& s) const {
    if constexpr (requires { f->join(d, s); })
      f->join(d, s);
    else
      d += s;
  }
  WEFT_INLINE_FUNCTION T& reference() const { return *result; }
};
}  // namespace impl

/// Nested reduction: every thread of the level gets the reduced value in `results`.
template <impl::NestLevel L, class I, class M, class F, class... Results>
WEFT_INLINE_FUNCTION void parallel_reduce(const impl::NestedRange<L, I, M>& r, const F& f, Results&&... results) {
  static_assert(sizeof...(Results) >= 1, "weft::parallel_reduce over a nested range needs a result or reducer");
  static_assert((!std::is_const_v<std::remove_reference_t<Results>> && ...),
                "weft::parallel_reduce: a result argument is const; pass a non-const variable or a reducer");
  auto adaptor = [&]() {
    if constexpr (impl::nested_functor_reduces<F, std::remove_cvref_t<Results>...>) {
      // The functor's own init and join, as the reducer of a plain result (Kokkos's TeamReductionScan).
      using R = impl::FunctorAsReducer<F, std::remove_cvref_t<Results>...>;
      return impl::ReducerAdaptor<R>{R{&f, &results...}};
    } else if constexpr (sizeof...(Results) == 1) {
      using R = decltype(impl::as_reducer(results...));
      return impl::ReducerAdaptor<R>{impl::as_reducer(results...)};
    } else {
      return impl::CombinedAdaptor<decltype(impl::as_reducer(results))...>{
          impl::Tup<decltype(impl::as_reducer(results))...>{impl::as_reducer(results)...}};
    }
  }();
  typename decltype(adaptor)::value_type v;
  adaptor.init(&v);
  r.member.impl_for(L, r.begin, r.end, [&](I i) { adaptor.apply(&v, [&](auto&... acc) { f(i, acc...); }); });
  r.member.impl_join(L, adaptor, &v);
  adaptor.store_local(&v);
}

namespace impl {
/// The nested scan with the reducer behind `adaptor`; `all` receives the reduction over the whole range.
template <NestLevel L, class I, class M, class F, class Adaptor, class T>
WEFT_INLINE_FUNCTION void nested_scan(const NestedRange<L, I, M>& r, const F& f, const Adaptor& adaptor, T& all) {
  if constexpr (requires { r.member.impl_scan(L, r.begin, r.end, adaptor, f, &all); }) {
    r.member.impl_scan(L, r.begin, r.end, adaptor, f, &all);  // the member's own order (GPU: strided passes)
  } else {
    // Contiguous chunks per part: reduce the chunk, take the parts' exclusive prefix, run the chunk again.
    T partial;
    adaptor.init(&partial);
    r.member.impl_for(L, r.begin, r.end, [&](I i) { f(i, partial, false); });
    T offset = partial;
    r.member.impl_exclusive_prefix(L, adaptor, &offset, &all);
    r.member.impl_for(L, r.begin, r.end, [&](I i) { f(i, offset, true); });
  }
}
}  // namespace impl

/// Nested exclusive scan: f(i, update, final); `total` (optional) receives the sum over the range.
template <impl::NestLevel L, class I, class M, class F, class... Total>
requires(sizeof...(Total) <= 1 && !(Reducer<std::remove_cv_t<Total>> || ...)) WEFT_INLINE_FUNCTION
    void parallel_scan(const impl::NestedRange<L, I, M>& r, const F& f, Total&... total) {
  using T = std::remove_cv_t<typename impl::first_or<typename impl::lambda_param<F, 1>::type, Total...>::type>;
  static_assert(!std::is_void_v<T>,
                "weft::parallel_scan over a nested range: give f a concrete (i, T&, bool) signature");
  T sink{};
  impl::ReducerAdaptor<Sum<T>> adaptor{Sum<T>(sink)};
  T all;
  impl::nested_scan(r, f, adaptor, all);
  ((total = all), ...);
}
/// Nested scan with a reducer (Sum, Prod, Min, Max, or a user's): `update` starts at the reducer's identity and
/// joins the earlier elements' contributions; the reducer's result receives the reduction over the range.
template <impl::NestLevel L, class I, class M, class F, Reducer R>
WEFT_INLINE_FUNCTION void parallel_scan(const impl::NestedRange<L, I, M>& r, const F& f, const R& reducer) {
  using T = typename R::value_type;
  impl::ReducerAdaptor<R> adaptor{reducer};
  T all;
  impl::nested_scan(r, f, adaptor, all);
  reducer.reference() = all;
}

/// single(PerTeam(member), f): one thread of the team runs f; single(PerTeam(member), f, value) also
/// broadcasts `value` to every thread.
template <class M, class F>
WEFT_INLINE_FUNCTION void single(const impl::PerTeamSingle<M>& s, const F& f) {
  s.member.impl_single_team(f);
}
template <class M, class F, class T>
WEFT_INLINE_FUNCTION void single(const impl::PerTeamSingle<M>& s, const F& f, T& value) {
  s.member.impl_single_team([&] { f(value); });
  s.member.team_broadcast(value, 0);
}
/// single(PerThread(member), f): one vector lane of the calling thread runs f.
template <class M, class F>
WEFT_INLINE_FUNCTION void single(const impl::PerThreadSingle<M>& s, const F& f) {
  s.member.impl_single_lane(f);
}
template <class M, class F, class T>
WEFT_INLINE_FUNCTION void single(const impl::PerThreadSingle<M>& s, const F& f, T& value) {
  s.member.impl_single_lane([&] { f(value); });
  s.member.impl_vector_broadcast(value);
}

}  // namespace weft
