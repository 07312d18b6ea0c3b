// Hierarchical parallelism inside a team: nested parallel_for / parallel_reduce / parallel_scan over
// TeamThreadRange, ThreadVectorRange and TeamVectorRange, and single(PerTeam / PerThread). Written once
// against the member hooks every backend's team member provides:
//   impl_for(level, b, e, body), impl_join(level, adaptor, value*), impl_exclusive_prefix(level, adaptor,
//   value*, total*), impl_single_team(f), impl_single_lane(f), impl_vector_broadcast(value), team_rank(),
//   team_broadcast(value, source), and optionally impl_scan(level, b, e, adaptor, f, total*) (a nested scan in
//   the member's own order; without it, contiguous chunks per part).
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

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

// ---- multidimensional nested ranges --------------------------------------------------------------------
namespace impl {
/// N extents split over a nesting level as one flattened range of their product (balanced whatever the shape), each
/// flat index taken apart into N indices: the last one fastest for Iterate::Right, the first for Left; Default follows
/// the execution space's array layout (Right on the host backends, Left on the GPU ones), as Kokkos's.
template <NestLevel L, class RankT, class Member>
struct NestedMDRange {
  static constexpr int rank = int(RankT::rank);
  static constexpr bool right = RankT::inner_direction == Iterate::Right ||
                                (RankT::inner_direction == Iterate::Default &&
                                 !std::is_same_v<typename Member::execution_space::array_layout, LayoutLeft>);
  const Member& member;
  std::int64_t ext[rank];
  template <class... N>
  WEFT_INLINE_FUNCTION NestedMDRange(const Member& m, N... n) : member(m), ext{static_cast<std::int64_t>(n)...} {
    static_assert(sizeof...(N) == rank, "weft: give a nested MD range exactly as many extents as its Rank");
  }
  WEFT_INLINE_FUNCTION std::int64_t size() const {
    std::int64_t s = 1;
    for (int k = 0; k < rank; ++k) s *= ext[k] > 0 ? ext[k] : 0;
    return s;
  }
  template <class F, class... A>
  WEFT_FORCEINLINE_FUNCTION void invoke(std::int64_t flat, const F& f, A&... acc) const {
    std::int64_t idx[rank];
    if constexpr (right) {
      for (int k = rank - 1; k >= 0; --k) {
        idx[k] = flat % ext[k];
        flat /= ext[k];
      }
    } else {
      for (int k = 0; k < rank; ++k) {
        idx[k] = flat % ext[k];
        flat /= ext[k];
      }
    }
    call(idx, f, std::make_integer_sequence<int, rank>{}, acc...);
  }

 private:
  template <class F, int... K, class... A>
  WEFT_FORCEINLINE_FUNCTION static void call(const std::int64_t* idx, const F& f, std::integer_sequence<int, K...>,
                                             A&... acc) {
    f(idx[K]..., acc...);
  }
};
}  // namespace impl

/// TeamThreadMDRange<Rank<N>, Member>(member, n0, ..., nN-1), N from 2 to 8: the index space split over the team's
/// threads (Kokkos 4's nested MD ranges); ThreadVectorMDRange over one thread's vector lanes; TeamVectorMDRange over
/// both. parallel_for calls f(i0, ..., iN-1); parallel_reduce f(i0, ..., iN-1, acc...).
#define WEFT_IMPL_NESTED_MD_RANGE(NAME, LEVEL)                                   \
  template <class RankT, class Member>                                           \
  struct NAME : impl::NestedMDRange<impl::NestLevel::LEVEL, RankT, Member> {     \
    template <std::integral... N>                                                \
    WEFT_INLINE_FUNCTION NAME(const Member& m, N... n)                           \
        : impl::NestedMDRange<impl::NestLevel::LEVEL, RankT, Member>(m, n...) {} \
  };                                                                             \
  template <class Member, std::integral... N>                                    \
  WEFT_DEDUCTION_GUIDE NAME(const Member&, N...) -> NAME<Rank<sizeof...(N)>, Member>;
WEFT_IMPL_NESTED_MD_RANGE(TeamThreadMDRange, TeamThread)
WEFT_IMPL_NESTED_MD_RANGE(ThreadVectorMDRange, ThreadVector)
WEFT_IMPL_NESTED_MD_RANGE(TeamVectorMDRange, TeamVector)
#undef WEFT_IMPL_NESTED_MD_RANGE

template <impl::NestLevel L, class RankT, class M, class F>
WEFT_INLINE_FUNCTION void parallel_for(const impl::NestedMDRange<L, RankT, M>& r, const F& f) {
  parallel_for(impl::NestedRange<L, std::int64_t, M>{r.member, 0, r.size()}, [&](std::int64_t i) { r.invoke(i, f); });
}
template <impl::NestLevel L, class RankT, class M, class F, class... Results>
WEFT_INLINE_FUNCTION void parallel_reduce(const impl::NestedMDRange<L, RankT, M>& r, const F& f, Results&&... results) {
  parallel_reduce(
      impl::NestedRange<L, std::int64_t, M>{r.member, 0, r.size()},
      [&](std::int64_t i, auto&... acc) { r.invoke(i, f, acc...); }, std::forward<Results>(results)...);
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
