// Kokkos::Experimental's team utilities: local_deep_copy (a copy or fill by one team or one thread inside a kernel)
// and AcquireTeamUniqueToken (one UniqueToken value for a whole team), on Weft's nested ranges and UniqueToken.
#pragma once

#include <cstddef>
#include <utility>

#include <weft/containers/unique_token.hpp>
#include <weft/team.hpp>
#include <weft/view.hpp>

namespace Kokkos::Experimental {
namespace impl_team_utils {
/// The element of v at flat position k, counting in row-major order over v's extents.
template <class V, std::size_t... K>
WEFT_INLINE_FUNCTION decltype(auto) at(const V& v, std::size_t k, std::index_sequence<K...>) {
  std::size_t idx[sizeof...(K) > 0 ? sizeof...(K) : 1] = {};
  for (int d = int(sizeof...(K)) - 1; d >= 0; --d) {
    const std::size_t e = v.extent(d);
    idx[d] = k % e;
    k /= e;
  }
  return v(idx[K]...);
}
template <class D, class S>
WEFT_INLINE_FUNCTION void check_sizes(const D& dst, const S& src) {
  if (dst.size() != src.size()) ::Kokkos::abort("Kokkos::Experimental::local_deep_copy: the Views differ in size");
}
}  // namespace impl_team_utils

/// local_deep_copy(team, dst, src) / (team, dst, value): the team's threads and vector lanes copy (or fill) the
/// elements, then the team waits at a barrier. local_deep_copy(dst, src) / (dst, value): the calling thread alone.
template <class Team, class DT, class... DP, class ST, class... SP>
requires requires(const Team& t) { t.team_barrier(); }
WEFT_INLINE_FUNCTION void local_deep_copy(const Team& team, const ::weft::View<DT, DP...>& dst,
                                          const ::weft::View<ST, SP...>& src) {
  impl_team_utils::check_sizes(dst, src);
  using seq = std::make_index_sequence<std::size_t(::weft::View<DT, DP...>::R)>;
  ::weft::parallel_for(::weft::TeamVectorRange(team, dst.size()),
                       [&](std::size_t k) { impl_team_utils::at(dst, k, seq{}) = impl_team_utils::at(src, k, seq{}); });
  team.team_barrier();
}
template <class Team, class DT, class... DP>
requires requires(const Team& t) { t.team_barrier(); }
WEFT_INLINE_FUNCTION void local_deep_copy(const Team& team, const ::weft::View<DT, DP...>& dst,
                                          typename ::weft::View<DT, DP...>::const_value_type& value) {
  using seq = std::make_index_sequence<std::size_t(::weft::View<DT, DP...>::R)>;
  ::weft::parallel_for(::weft::TeamVectorRange(team, dst.size()),
                       [&](std::size_t k) { impl_team_utils::at(dst, k, seq{}) = value; });
  team.team_barrier();
}
template <class DT, class... DP, class ST, class... SP>
WEFT_INLINE_FUNCTION void local_deep_copy(const ::weft::View<DT, DP...>& dst, const ::weft::View<ST, SP...>& src) {
  impl_team_utils::check_sizes(dst, src);
  using seq = std::make_index_sequence<std::size_t(::weft::View<DT, DP...>::R)>;
  for (std::size_t k = 0; k < dst.size(); ++k) impl_team_utils::at(dst, k, seq{}) = impl_team_utils::at(src, k, seq{});
}
template <class DT, class... DP>
WEFT_INLINE_FUNCTION void local_deep_copy(const ::weft::View<DT, DP...>& dst,
                                          typename ::weft::View<DT, DP...>::const_value_type& value) {
  using seq = std::make_index_sequence<std::size_t(::weft::View<DT, DP...>::R)>;
  for (std::size_t k = 0; k < dst.size(); ++k) impl_team_utils::at(dst, k, seq{}) = value;
}

/// One UniqueToken value for a whole team: the team's first thread acquires it and shares it through the team's
/// level-0 scratch (ask for shmem_size() bytes of it); the team releases it when the object goes out of scope.
template <class TeamPolicy>
class AcquireTeamUniqueToken {
 public:
  using exec_space = typename TeamPolicy::execution_space;
  using token_type = ::weft::UniqueToken<exec_space>;
  using size_type = typename token_type::size_type;
  using team_member_type = typename TeamPolicy::member_type;
  using scratch_view =
      ::weft::View<size_type, typename exec_space::scratch_memory_space, ::weft::MemoryTraits<::weft::Unmanaged>>;

  WEFT_INLINE_FUNCTION AcquireTeamUniqueToken(const token_type& token, const team_member_type& team)
      : token_(token), shared_(team.team_scratch(0)), team_(team) {
    ::weft::single(::weft::PerTeam(team_), [&] { shared_() = token_.acquire(); });
    team_.team_barrier();
    value_ = shared_();
  }
  WEFT_INLINE_FUNCTION ~AcquireTeamUniqueToken() {
    team_.team_barrier();
    ::weft::single(::weft::PerTeam(team_), [&] { token_.release(value_); });
    team_.team_barrier();
  }
  AcquireTeamUniqueToken(const AcquireTeamUniqueToken&) = delete;
  AcquireTeamUniqueToken& operator=(const AcquireTeamUniqueToken&) = delete;
  WEFT_INLINE_FUNCTION size_type value() const { return value_; }
  /// Level-0 scratch bytes per team the token needs.
  static std::size_t shmem_size() { return scratch_view::shmem_size(); }

 private:
  token_type token_;
  scratch_view shared_;
  team_member_type team_;
  size_type value_ = 0;
};
}  // namespace Kokkos::Experimental
