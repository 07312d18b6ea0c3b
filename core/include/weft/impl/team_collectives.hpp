// team_reduce and team_scan, written once for every backend's team member on top of its
// impl_join / impl_exclusive_prefix hooks (CRTP base).
#pragma once

#include <weft/atomics.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>

namespace weft::impl {

template <class Member>
class TeamCollectives {
 public:
  /// Reduces the reducer's value over the team in place: every thread gets the result.
  template <class R>
  requires Reducer<R> WEFT_INLINE_FUNCTION void team_reduce(const R& reducer) const {
    ReducerAdaptor<R> a{reducer};
    typename R::value_type v = reducer.reference();
    self().impl_join(NestLevel::TeamThread, a, &v);
    reducer.reference() = v;
  }
  /// Exclusive prefix sum of `value` over team ranks. With `global` (Kokkos's global accumulator, shared by the teams):
  /// one thread adds the team's sum to *global atomically, and every thread's result starts from the value *global had
  /// before that add, so that the teams' scans continue one another (in the order the teams get there).
  template <class T>
  WEFT_INLINE_FUNCTION T team_scan(const T& value, T* global = nullptr) const {
    T sink{};
    ReducerAdaptor<Sum<T>> a{Sum<T>(sink)};
    T v = value;
    T all;
    self().impl_exclusive_prefix(NestLevel::TeamThread, a, &v, &all);
    if (global) {
      T base{};
      if (self().team_rank() == 0) base = atomic_fetch_add(global, all);
      self().team_broadcast(base, 0);
      v += base;
    }
    return v;
  }

 private:
  WEFT_INLINE_FUNCTION const Member& self() const { return static_cast<const Member&>(*this); }
};

}  // namespace weft::impl
