// parallel_for / parallel_reduce / parallel_scan: the front-ends, their concepts, and the customization
// points (impl::ParallelFor / ParallelReduce / ParallelScan) that each backend specializes.
#pragma once

#include <typeinfo>

#include <weft/impl/tools.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include <weft/initialize.hpp>
#include <weft/macros.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>

namespace weft {
namespace impl {

template <class Functor, class Policy, class ExecSpace>
class ParallelFor;
template <class Functor, class Adaptor, class Policy, class ExecSpace>
class ParallelReduce;
template <class Functor, class Adaptor, class Policy, class ExecSpace>
class ParallelScan;

/// Calls f with the policy's work tag first when it has one: the device engines' kernels. Under nvcc a functor
/// whose operator() is host-only (no WEFT_LAMBDA / WEFT_INLINE_FUNCTION) is a compile error here naming its
/// operator() (#20011, made an error; #20014, the same without the names, left out), rather than nvcc's warning
/// and a kernel that cannot call it.
#if WEFT_IMPL_NVCC
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20014
#pragma nv_diag_error 20011
#endif
template <class Tag, class F, class... A>
WEFT_FORCEINLINE_FUNCTION void invoke(const F& f, A&&... a) {
  if constexpr (std::is_void_v<Tag>)
    f(static_cast<A&&>(a)...);
  else
    f(Tag{}, static_cast<A&&>(a)...);
}
#if WEFT_IMPL_NVCC
#pragma nv_diagnostic pop
#endif
/// The same for the host engines, host-only: f may be a plain lambda or functor on a host space in a CUDA build.
template <class Tag, class F, class... A>
WEFT_HOST_FORCEINLINE void host_invoke(const F& f, A&&... a) {
  if constexpr (std::is_void_v<Tag>)
    f(static_cast<A&&>(a)...);
  else
    f(Tag{}, static_cast<A&&>(a)...);
}

template <class P>
concept ExecutionPolicy = requires {
  typename P::policy;
}
&&std::is_same_v<typename P::policy, P>;

/// The space a count runs on, as Kokkos picks it: the functor's own `execution_space` when it names one (a functor
/// written for the host keeps running on the host in a build whose default space is a device), else the default.
template <class F>
struct count_space {
  using type = DefaultExecutionSpace;
};
template <class F>
requires requires { typename F::execution_space; } && ExecutionSpace<typename F::execution_space>
struct count_space<F> {
  using type = typename F::execution_space;
};

/// A count n becomes RangePolicy<space>(0, n), the space as count_space picks it.
template <class F, std::integral I>
RangePolicy<typename count_space<F>::type> count_policy(I n) {
  return RangePolicy<typename count_space<F>::type>(0, n);
}

/// A team functor's own scratch request, team_shmem_size(team_size) (or shmem_size(team_size)), as Kokkos reads it:
/// added to the policy's level-0 scratch per team, at the team size the policy runs with.
template <class F, class P>
P with_functor_scratch(P p, const F& f) {
  if constexpr (
      requires { typename P::member_type::team_handle; } || requires(const P& q) { q.league_size(); }) {
    std::size_t extra = 0;
    if constexpr (requires { f.team_shmem_size(1); })
      extra = static_cast<std::size_t>(f.team_shmem_size(p.team_size()));
    else if constexpr (requires { f.shmem_size(1); })
      extra = static_cast<std::size_t>(f.shmem_size(p.team_size()));
    if (extra > 0) p.set_scratch_size(0, PerTeam(size_add(p.team_scratch_size(0), extra)));
  }
  return p;
}

/// What a policy iterates over: what the functor is called with, and which engine runs it.
enum class PolicyKind { range, md_range, team };
template <class P>
struct policy_kind {
  static constexpr PolicyKind value = PolicyKind::range;
};
template <class... A>
struct policy_kind<MDRangePolicy<A...>> {
  static constexpr PolicyKind value = PolicyKind::md_range;
};
template <class... A>
struct policy_kind<TeamPolicy<A...>> {
  static constexpr PolicyKind value = PolicyKind::team;
};

/// Whether f can be called with the policy's arguments (work tag, indices or member) followed by Extra.
template <class Policy, class F, class... Extra>
constexpr bool callable_with_policy() {
  using Tag = typename Policy::work_tag;
  constexpr PolicyKind kind = policy_kind<Policy>::value;
  auto check = []<class... Idx>(std::type_identity<Idx>...) {
    if constexpr (std::is_void_v<Tag>)
      return std::is_invocable_v<const F&, Idx..., Extra...>;
    else
      return std::is_invocable_v<const F&, Tag, Idx..., Extra...>;
  };
  if constexpr (kind == PolicyKind::range) {
    return check(std::type_identity<typename Policy::index_type>{});
  } else if constexpr (kind == PolicyKind::md_range) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return check(std::type_identity<std::conditional_t<(I < 64), typename Policy::index_type, void>>{}...);
    }
    (std::make_index_sequence<Policy::rank>{});
  } else {
    return check(std::type_identity<const typename Policy::member_type&>{});
  }
}

/// static_asserts with a message naming the mistake; returns whether the dispatch may be instantiated.
template <class F, class Policy>
constexpr bool check_for_functor() {
  constexpr PolicyKind kind = policy_kind<Policy>::value;
  if constexpr (kind == PolicyKind::range)
    static_assert(callable_with_policy<Policy, F>(),
                  "weft::parallel_for over a RangePolicy: the functor must be callable as f(i) "
                  "(or f(Tag{}, i) when the policy has a work tag)");
  else if constexpr (kind == PolicyKind::md_range)
    static_assert(callable_with_policy<Policy, F>(),
                  "weft::parallel_for over an MDRangePolicy<Rank<N>>: the functor must take N indices "
                  "f(i0, ..., iN-1) (after Tag{} when the policy has a work tag)");
  else
    static_assert(callable_with_policy<Policy, F>(),
                  "weft::parallel_for over a TeamPolicy: the functor must be callable as "
                  "f(const member_type& member) (after Tag{} when the policy has a work tag)");
  return callable_with_policy<Policy, F>();
}

template <class F, class Policy, class Adaptor>
constexpr bool reduce_callable() {
  using V = typename Adaptor::value_type;
  if constexpr (Adaptor::is_array)
    return callable_with_policy<Policy, F, V*>();
  else if constexpr (requires { Adaptor::is_combined; })
    return true;  // several reductions: checked by the compiler at the call
  else
    return callable_with_policy<Policy, F, V&>();
}

template <class Default, class... T>
struct first_or {
  using type = Default;
};
template <class Default, class T, class... R>
struct first_or<Default, T, R...> {
  using type = T;
};

template <std::size_t N, class T, class... R>
struct pack_at {
  using type = typename pack_at<N - 1, R...>::type;
};
template <class T, class... R>
struct pack_at<0, T, R...> {
  using type = T;
};

/// The N-th parameter type of a non-generic lambda (void when it cannot be told).
template <class F, std::size_t N>
struct lambda_param {
  using type = void;
};
template <class F, std::size_t N>
requires requires { &F::operator(); }
struct lambda_param<F, N> {
  template <class R, class C, class... A>
  static auto pick(R (C::*)(A...) const) {
    if constexpr (N < sizeof...(A))
      return std::type_identity<std::remove_cvref_t<typename pack_at<N, A...>::type>>{};
    else
      return std::type_identity<void>{};
  }
  using type = typename decltype(pick(&F::operator()))::type;
};

/// The value type of a scan functor without value_type: its update argument's type, f(i, T& update, bool final);
/// under a work tag, that of the operator() taking the tag first, also when the functor has one per tag (Kokkos
/// deduces it so).
template <class F, class Tag>
struct scan_update_type {
  using type = typename lambda_param<F, 1>::type;
};
template <class F, class Tag>
requires(!std::is_void_v<Tag>) struct scan_update_type<F, Tag> {
  template <class I, class T>
  static std::type_identity<T> pick(void (F::*)(Tag, I, T&, bool) const);
  template <class I, class T>
  static std::type_identity<T> pick(void (F::*)(const Tag&, I, T&, bool) const);
  static auto find() {
    if constexpr (requires { pick(&F::operator()); })
      return decltype(pick(&F::operator())){};
    else
      return std::type_identity<void>{};
  }
  using type = typename decltype(find())::type;
};

}  // namespace impl

namespace impl {
/// A dispatch with the tools listening: begin, the dispatch, a fence of its instance (so that the tools and the
/// timer see the kernel's time on asynchronous backends too, as Kokkos does for tools), end. The dispatch comes in
/// type-erased: this is compiled once per execution space, not once per kernel.
template <class Exec>
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))  // keeps the fast path (no tools) as small as it was
#endif
void profiled(tools::Kind kind, std::string_view label, const char* type_name, const Exec& exec,
              void (*run)(const void*), const void* dispatch) {
  std::uint32_t device = 0;
  if constexpr (requires { exec.impl_instance_id(); }) device = static_cast<std::uint32_t>(exec.impl_instance_id());
  tools::KernelToken token;
  tools::begin_kernel(kind, label, type_name, device, token);
  run(dispatch);
  exec.fence("weft::profiling: kernel end");
  tools::end_kernel(token);
}
/// Runs a dispatch (ParallelFor, ParallelReduce, ParallelScan). Its execute() is compiled once, here, out of line:
/// the path with the tools listening and the one without both call it (inlined into each, a kernel's host code
/// was compiled twice).
template <class D>
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
void execute_dispatch(const void* d) {
  static_cast<const D*>(d)->execute();
}
template <class D, class Exec>
inline void run_dispatch(tools::Kind kind, std::string_view label, const char* type_name, const Exec& exec,
                         const D& d) {
  if (tools::g_active) [[unlikely]] {
    profiled(kind, label, type_name, exec, &execute_dispatch<D>, &d);
    return;
  }
  execute_dispatch<D>(&d);
}
}  // namespace impl

// ---- parallel_for --------------------------------------------------------------------------------------
template <impl::ExecutionPolicy P, class F>
inline void parallel_for(std::string_view label, const P& policy, const F& f) {
  const auto p = impl::with_functor_scratch(policy, f);
  using Policy = std::remove_cvref_t<decltype(p)>;
  if constexpr (impl::check_for_functor<F, Policy>()) {
    impl::check_initialized("parallel_for", label);
    impl::run_dispatch(impl::tools::Kind::parallel_for, label, typeid(F).name(), p.space(),
                       impl::ParallelFor<F, Policy, typename Policy::execution_space>(label, f, p));
  }
}
template <impl::ExecutionPolicy P, class F>
inline void parallel_for(const P& policy, const F& f) {
  parallel_for(std::string_view(), policy, f);
}
/// A count n runs RangePolicy<>(0, n) on the functor's execution_space if it names one, else the default. Counts are
/// taken by value, as Kokkos takes them: a `static const` data member with no definition outside its class is then not
/// odr-used (no "undefined reference" at link time).
template <std::integral I, class F>
inline void parallel_for(std::string_view label, I n, const F& f) {
  parallel_for(label, impl::count_policy<F>(n), f);
}
template <std::integral I, class F>
inline void parallel_for(I n, const F& f) {
  parallel_for(std::string_view(), impl::count_policy<F>(n), f);
}

// ---- parallel_reduce -------------------------------------------------------------------------------------
namespace impl {
/// The memory space of a View result (void for anything else).
template <class R, bool = is_view_v<R>>
struct view_memory_space {
  using type = void;
};
template <class R>
struct view_memory_space<R, true> {
  using type = typename R::memory_space;
};
template <class F, class Policy, class... Results>
auto make_reduce_adaptor(const F& f, Results&... results) {
  if constexpr (sizeof...(Results) == 0) {
    static_assert(ReducingFunctor<F>,
                  "weft::parallel_reduce without a result needs a functor that declares value_type");
    return FunctorAdaptor<F, void, typename Policy::work_tag>{&f, functor_value_count(f), nullptr};
  } else if constexpr (sizeof...(Results) == 1 && ReducingFunctor<F> && !(Reducer<Results> && ...)) {
    using R0 = std::remove_cvref_t<typename first_or<void, Results...>::type>;
    using FA = FunctorAdaptor<F, typename view_memory_space<R0>::type, typename Policy::work_tag>;
    auto target = [](auto& r) -> typename FA::value_type* {
      using Rr = std::remove_cvref_t<decltype(r)>;
      if constexpr (is_view_v<Rr>)
        return r.data();
      else if constexpr (std::is_array_v<Rr>)
        return &r[0];
      else if constexpr (std::is_pointer_v<Rr>)
        return r;
      else
        return &r;
    }(results...);
    ResultWriter writer = nullptr;
    if constexpr (is_view_v<R0>) writer = &write_result_bytes<typename R0::memory_space>;
    return FA{&f, functor_value_count(f), target, writer};
  } else if constexpr (sizeof...(Results) == 1) {
    using R = decltype(as_reducer(results...));
    return ReducerAdaptor<R>{as_reducer(results...)};
  } else {
    return CombinedAdaptor<decltype(as_reducer(results))...>{
        Tup<decltype(as_reducer(results))...>{as_reducer(results)...}};
  }
}
}  // namespace impl

template <impl::ExecutionPolicy P, class F, class... Results>
inline void parallel_reduce(std::string_view label, const P& policy, const F& f, Results&&... results) {
  // A View or a reducer is a handle: a const one still writes its result (Kokkos accepts a const View&).
  constexpr bool non_const = ((!std::is_const_v<std::remove_reference_t<Results>> ||
                               is_view_v<std::remove_cvref_t<Results>> || Reducer<std::remove_cvref_t<Results>>)&&...);
  static_assert(non_const,
                "weft::parallel_reduce: a result argument is const; pass a non-const variable, a View or a reducer");
  if constexpr (non_const) {
    const auto p = impl::with_functor_scratch(policy, f);
    using Policy = std::remove_cvref_t<decltype(p)>;
    auto adaptor = impl::make_reduce_adaptor<F, Policy>(f, results...);
    using Adaptor = decltype(adaptor);
    constexpr bool callable =
        impl::ReducingFunctor<F> || sizeof...(Results) != 1 || impl::reduce_callable<F, Policy, Adaptor>();
    static_assert(callable,
                  "weft::parallel_reduce: the functor cannot be called as f(i..., value&) where value has the "
                  "result's type (a reducer's value_type); make the accumulator parameter that type, by reference");
    if constexpr (callable) {
      impl::check_initialized("parallel_reduce", label);
      impl::run_dispatch(
          impl::tools::Kind::parallel_reduce, label, typeid(F).name(), p.space(),
          impl::ParallelReduce<F, Adaptor, Policy, typename Policy::execution_space>(label, f, adaptor, p));
    }
  }
}
template <impl::ExecutionPolicy P, class F, class... Results>
inline void parallel_reduce(const P& policy, const F& f, Results&&... results) {
  parallel_reduce(std::string_view(), policy, f, static_cast<Results&&>(results)...);
}
template <std::integral I, class F, class... Results>
inline void parallel_reduce(std::string_view label, I n, const F& f, Results&&... results) {
  parallel_reduce(label, impl::count_policy<F>(n), f, static_cast<Results&&>(results)...);
}
template <std::integral I, class F, class... Results>
inline void parallel_reduce(I n, const F& f, Results&&... results) {
  parallel_reduce(std::string_view(), impl::count_policy<F>(n), f, static_cast<Results&&>(results)...);
}

// ---- parallel_scan ---------------------------------------------------------------------------------------
namespace impl {
template <class F, class Policy, class Adaptor>
void run_scan(std::string_view label, const Policy& p, const F& f, const Adaptor& adaptor) {
  static_assert(policy_kind<Policy>::value == PolicyKind::range, "weft::parallel_scan takes a RangePolicy or a count");
  using V = typename Adaptor::value_type;
  constexpr bool callable =
      Adaptor::is_array ? callable_with_policy<Policy, F, V*, bool>() : callable_with_policy<Policy, F, V&, bool>();
  static_assert(callable, "weft::parallel_scan: the functor must be callable as f(i, value_type& update, bool final)");
  if constexpr (!callable)
    return;
  else {
    check_initialized("parallel_scan", label);
    run_dispatch(tools::Kind::parallel_scan, label, typeid(F).name(), p.space(),
                 ParallelScan<F, Adaptor, Policy, typename Policy::execution_space>(label, f, adaptor, p));
  }
}
}  // namespace impl

/// Exclusive prefix scan: f(i, update, final) adds its contribution to `update`; on the final pass
/// `update` holds the sum of the contributions of the indices before i. `total` receives the sum of all.
template <impl::ExecutionPolicy P, class F, class Total>
inline void parallel_scan(std::string_view label, const P& p, const F& f, Total& total) {
  static_assert(!std::is_const_v<Total>, "weft::parallel_scan: the total argument is const");
  if constexpr (is_view_v<Total>) {
    // The total is written where the View lives: by the kernel itself when the space can reach it, else
    // copied there (a device View is never dereferenced on the host).
    static_assert(Total::R == 0, "weft::parallel_scan: a View total must have rank 0");
    if constexpr (impl::ReducingFunctor<F>)
      impl::run_scan(
          label, p, f,
          impl::FunctorAdaptor<F, typename Total::memory_space, typename P::work_tag>{
              &f, impl::functor_value_count(f), total.data(), &impl::write_result_bytes<typename Total::memory_space>});
    else
      impl::run_scan(label, p, f, impl::ReducerAdaptor<decltype(impl::as_reducer(total))>{impl::as_reducer(total)});
  } else if constexpr (impl::ReducingFunctor<F>) {
    using FA = impl::FunctorAdaptor<F, void, typename P::work_tag>;
    typename FA::value_type* target;
    if constexpr (std::is_pointer_v<Total>)
      target = total;
    else
      target = &total;
    impl::run_scan(label, p, f, FA{&f, impl::functor_value_count(f), target});
  } else {
    impl::run_scan(label, p, f, impl::ReducerAdaptor<Sum<Total>>{Sum<Total>(total)});
  }
}
template <impl::ExecutionPolicy P, class F>
inline void parallel_scan(std::string_view label, const P& p, const F& f) {
  if constexpr (impl::ReducingFunctor<F>) {
    impl::run_scan(label, p, f,
                   impl::FunctorAdaptor<F, void, typename P::work_tag>{&f, impl::functor_value_count(f), nullptr});
  } else {
    using T = typename impl::scan_update_type<F, typename P::work_tag>::type;
    static_assert(!std::is_void_v<T>,
                  "weft::parallel_scan: cannot tell the scan's value type; give the lambda a concrete "
                  "f(i, T& update, bool final) signature, a total argument, or a functor with value_type");
    T discarded{};
    parallel_scan(label, p, f, discarded);
  }
}
template <impl::ExecutionPolicy P, class F, class... Total>
requires(sizeof...(Total) <= 1) inline void parallel_scan(const P& policy, const F& f, Total&... total) {
  parallel_scan(std::string_view(), policy, f, total...);
}
template <std::integral I, class F, class... Total>
requires(sizeof...(Total) <= 1) inline void parallel_scan(std::string_view label, I n, const F& f, Total&... total) {
  parallel_scan(label, impl::count_policy<F>(n), f, total...);
}
template <std::integral I, class F, class... Total>
requires(sizeof...(Total) <= 1) inline void parallel_scan(I n, const F& f, Total&... total) {
  parallel_scan(std::string_view(), impl::count_policy<F>(n), f, total...);
}

}  // namespace weft
