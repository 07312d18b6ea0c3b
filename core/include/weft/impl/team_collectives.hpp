// team_reduce and team_scan, written once for every backend's team member on top of its
// impl_join / impl_exclusive_prefix hooks (CRTP base).
#pragma once

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
  /// Exclusive prefix sum of `value` over team ranks; `*total` (if given) gets the team's sum.
  template <class T>
  WEFT_INLINE_FUNCTION T team_scan(const T& value, T* total = nullptr) const {
    T sink{};
    ReducerAdaptor<Sum<T>> a{Sum<T>(sink)};
    T v = value;
    T all;
    self().impl_exclusive_prefix(NestLevel::TeamThread, a, &v, &all);
    if (total) *total = all;
    return v;
  }

 private:
  WEFT_INLINE_FUNCTION const Member& self() const { return static_cast<const Member&>(*this); }
};

}  // namespace weft::impl
