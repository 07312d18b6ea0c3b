// Execution policies: RangePolicy, MDRangePolicy, TeamPolicy and the nested team ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include <weft/array.hpp>
#include <weft/backend_spaces.hpp>  // generated from backends/backend_spaces.hpp.in: the enabled backends
#include <weft/error.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/launch_bounds.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

struct Static {};
struct Dynamic {};
template <class T>
struct Schedule {
  static_assert(std::is_same_v<T, Static> || std::is_same_v<T, Dynamic>, "weft::Schedule<Static or Dynamic>");
  using schedule_type = T;
};
template <class T>
struct IndexType {
  static_assert(std::is_integral_v<T>, "weft::IndexType<T> needs an integer type");
  using type = T;
};
struct ChunkSize {
  explicit ChunkSize(std::int64_t c) : value(c) {}
  std::int64_t value;
};

/// Iteration order of MDRangePolicy: Right = last index fastest (host default), Left = first fastest.
enum class Iterate { Default, Left, Right };
template <unsigned N, Iterate Outer = Iterate::Default, Iterate Inner = Iterate::Default>
struct Rank {
  static_assert(N >= 1 && N <= 8,
                "weft::Rank<N>: N from 1 to 8 (MDRangePolicy takes 2 to 6, the nested MD ranges 2 to 8)");
  static constexpr unsigned rank = N;
  static constexpr Iterate outer_direction = Outer;
  static constexpr Iterate inner_direction = Inner;
};

namespace impl {
template <class T>
struct is_index_type : std::false_type {};
template <class T>
struct is_index_type<IndexType<T>> : std::true_type {};
template <class T>
struct is_schedule : std::false_type {};
template <class T>
struct is_schedule<Schedule<T>> : std::true_type {};
template <class T>
struct is_rank : std::false_type {};
template <unsigned N, Iterate O, Iterate I>
struct is_rank<Rank<N, O, I>> : std::true_type {};
template <class T>
concept IsLaunchBounds = requires {
  typename T::launch_bounds;
};

/// Sorts a policy's template arguments into execution space, index type, schedule, work tag and rank.
template <class... P>
struct PolicyTraits {
  using execution_space = DefaultExecutionSpace;
  using index_type = std::int64_t;
  using schedule_type = Static;
  using work_tag = void;
  using iteration_pattern = void;
  using launch_bounds = LaunchBounds<>;
};
template <class P0, class... P>
struct PolicyTraits<P0, P...> : PolicyTraits<P...> {
  using base = PolicyTraits<P...>;
  static constexpr bool is_space = ExecutionSpace<P0>;
  static constexpr bool is_index = is_index_type<P0>::value || std::is_integral_v<P0>;
  static constexpr bool is_sched = is_schedule<P0>::value;
  static constexpr bool is_rank_arg = is_rank<P0>::value;
  static constexpr bool is_lb = IsLaunchBounds<P0>;
  // A scheduling hint (a type with `impl_weft_policy_hint`, e.g. Kokkos's WorkItemProperty): accepted, not a tag.
  static constexpr bool is_hint = requires { P0::impl_weft_policy_hint; };
  static constexpr bool is_tag = !is_space && !is_index && !is_sched && !is_rank_arg && !is_lb && !is_hint;
  template <class T>
  struct index_of {
    using type = T;
  };
  template <class T>
  struct index_of<IndexType<T>> {
    using type = T;
  };
  using execution_space = std::conditional_t<is_space, P0, typename base::execution_space>;
  using index_type = typename std::conditional_t<is_index, index_of<P0>, index_of<typename base::index_type>>::type;
  using schedule_type =
      typename std::conditional_t<is_sched, P0, Schedule<typename base::schedule_type>>::schedule_type;
  using work_tag = std::conditional_t<is_tag, P0, typename base::work_tag>;
  using iteration_pattern = std::conditional_t<is_rank_arg, P0, typename base::iteration_pattern>;
  using launch_bounds = std::conditional_t<is_lb, P0, typename base::launch_bounds>;
};

/// The LaunchBounds among a policy's template arguments (LaunchBounds<> when none).
template <class Policy>
struct launch_bounds_of {
  using type = LaunchBounds<>;
};
template <template <class...> class Policy, class... P>
struct launch_bounds_of<Policy<P...>> {
  using type = typename PolicyTraits<P...>::launch_bounds;
};
template <class Policy>
using launch_bounds_of_t = typename launch_bounds_of<Policy>::type;

[[noreturn]] void throw_policy_error(const std::string& what);
/// throw_policy_error(compose(parts, numbers)), out of line.
[[noreturn]] void throw_policy_parts(std::initializer_list<std::string_view> parts,
                                     std::initializer_list<std::int64_t> numbers);
/// A team kernel's scratch request over a level's maximum (out of line; the message names the kernel, the request
/// and what to do).
/// The host backends' team errors: a team size over the maximum, and the teams' memory not allocated.
[[noreturn]] void throw_host_team_size(std::string_view label, int team_size, int max, const char* space,
                                       int concurrency);
[[noreturn]] void throw_host_team_memory(std::string_view label, int teams, std::size_t bytes_each);
[[noreturn]] void throw_scratch_request(std::string_view label, int level, std::size_t want, std::size_t per_team,
                                        std::size_t per_thread, int team_size, std::size_t limit,
                                        std::size_t level1_max);
/// What a RangePolicy takes as a bound: an integer (not bool), an unscoped enumerator, or a class type that
/// converts to an integer.
template <class T>
concept PolicyBound = ViewIndex<T> ||(std::is_class_v<T>&& std::is_convertible_v<T, std::int64_t>);
[[noreturn]] void throw_team_error(std::string_view label, const std::string& what);
/// A TeamPolicy's shape refused on a GPU (out of line, not once per policy type): with `space` and team_size 0, a
/// vector length that is not a power of two up to 32; with `space`, a team size over `max` at that vector length;
/// without `space`, team size x vector length over the policy's LaunchBounds of `max` threads (core/src/error.cpp;
/// backends/gpu/include/weft/gpu/team.hpp).
[[noreturn]] void throw_gpu_team_shape(std::string_view label, const char* space, int team_size, int vector_length,
                                       int max);

}  // namespace impl

/// A 1-D index range [begin, end) on an execution space instance.
template <class... Props>
class RangePolicy {
  using traits = impl::PolicyTraits<Props...>;

 public:
  using execution_space = typename traits::execution_space;
  using index_type = typename traits::index_type;
  using member_type = index_type;
  using schedule_type = Schedule<typename traits::schedule_type>;
  using work_tag = typename traits::work_tag;
  using policy = RangePolicy;

  RangePolicy() = default;
  /// Bounds: integers, unscoped enumerators, or class types that convert to the index type (as Kokkos).
  template <impl::PolicyBound B, impl::PolicyBound E>
  RangePolicy(const execution_space& space, B begin, E end) : space_(space) {
    init(bound_value(begin), bound_value(end));
  }
  template <impl::PolicyBound B, impl::PolicyBound E>
  RangePolicy(B begin, E end) : RangePolicy(execution_space(), begin, end) {}
  template <impl::PolicyBound B, impl::PolicyBound E>
  RangePolicy(const execution_space& space, B begin, E end, ChunkSize c) : RangePolicy(space, begin, end) {
    set_chunk_size(c.value);
  }
  template <impl::PolicyBound B, impl::PolicyBound E>
  RangePolicy(B begin, E end, ChunkSize c) : RangePolicy(execution_space(), begin, end, c) {}

  const execution_space& space() const { return space_; }
  index_type begin() const { return begin_; }
  index_type end() const { return end_; }
  std::int64_t chunk_size() const { return chunk_; }
  RangePolicy& set_chunk_size(std::int64_t c) {
    if (c < 0) impl::throw_policy_parts({"weft::RangePolicy: chunk size ", " is negative"}, {c});
    chunk_ = c;
    return *this;
  }

 private:
  // The messages are Kokkos's sentences (its death tests match them), with Weft's name for the policy.
  void init(std::int64_t b, std::int64_t e) {
    for (const std::int64_t x : {b, e})
      if (static_cast<std::int64_t>(static_cast<index_type>(x)) != x || (std::is_unsigned_v<index_type> && x < 0))
        impl::throw_policy_parts({"weft::RangePolicy bound type error: an unsafe implicit conversion is performed on "
                                  "a bound (",
                                  "), which may not preserve its original value."},
                                 {x});
    if (b > e)
      impl::throw_policy_parts(
          {"weft::RangePolicy bounds error: The lower bound (", ") is greater than the upper bound (", ")."}, {b, e});
    begin_ = static_cast<index_type>(b);
    end_ = static_cast<index_type>(e);
  }
  /// A bound's value; a class type that converts both ways must survive the round trip (else its conversion to
  /// the index type lost something: refused, as Kokkos refuses it).
  template <class B>
  static std::int64_t bound_value(const B& b) {
    if constexpr (std::is_class_v<B>) {
      const index_type i = static_cast<index_type>(b);
      if constexpr (std::is_convertible_v<index_type, B>) {
        if (static_cast<index_type>(static_cast<B>(i)) != i)
          impl::throw_policy_parts({"weft::RangePolicy bound type error: an unsafe implicit conversion is performed "
                                    "(the bound converts to ",
                                    ", which does not convert back to the same bound); pass an integer"},
                                   {static_cast<std::int64_t>(i)});
      }
      return static_cast<std::int64_t>(i);
    } else {
      return static_cast<std::int64_t>(impl::index_value(b));
    }
  }
  execution_space space_;
  index_type begin_ = 0;
  index_type end_ = 0;
  std::int64_t chunk_ = 0;
};

/// An N-D tiled index box (N = 2..6): MDRangePolicy<Rank<3>>({0,0,0}, {n0,n1,n2}, {t0,t1,t2}).
template <class... Props>
class MDRangePolicy {
  using traits = impl::PolicyTraits<Props...>;
  static_assert(!std::is_void_v<typename traits::iteration_pattern>,
                "weft::MDRangePolicy needs a Rank<N> template argument: MDRangePolicy<Rank<2>>");

 public:
  using execution_space = typename traits::execution_space;
  using index_type = typename traits::index_type;
  using work_tag = typename traits::work_tag;
  using iteration_pattern = typename traits::iteration_pattern;
  using schedule_type = Schedule<typename traits::schedule_type>;
  static constexpr int rank = iteration_pattern::rank;
  static_assert(rank >= 2 && rank <= 6, "weft::MDRangePolicy supports Rank<2> to Rank<6>");
  static constexpr bool iterate_right = iteration_pattern::inner_direction != Iterate::Left;
  static constexpr bool tiles_right = iteration_pattern::outer_direction != Iterate::Left;
  /// The directions this policy runs in (Iterate::Default resolved: Right).
  static constexpr Iterate inner_direction = iterate_right ? Iterate::Right : Iterate::Left;
  static constexpr Iterate outer_direction = tiles_right ? Iterate::Right : Iterate::Left;
  using point_type = Array<std::int64_t, rank>;
  using tile_type = Array<std::int64_t, rank>;
  using policy = MDRangePolicy;

  MDRangePolicy() = default;
  template <class LT, std::size_t LN, class UT, std::size_t UN, class TT = std::int64_t, std::size_t TN = rank>
  MDRangePolicy(const execution_space& space, const LT (&lower)[LN], const UT (&upper)[UN], const TT (&tiles)[TN] = {})
      : space_(space) {
    static_assert(LN == rank && UN == rank, "weft::MDRangePolicy: give one lower and one upper bound per dimension");
    static_assert(TN <= rank, "weft::MDRangePolicy: give at most one tile size per dimension (the rest: chosen)");
    for (int k = 0; k < rank; ++k) {
      m_lower[k] = static_cast<std::int64_t>(lower[k]);
      m_upper[k] = static_cast<std::int64_t>(upper[k]);
      for (const std::int64_t b : {m_lower[k], m_upper[k]})
        if (static_cast<std::int64_t>(static_cast<index_type>(b)) != b || (std::is_unsigned_v<index_type> && b < 0))
          impl::throw_policy_parts({"weft::MDRangePolicy bound type error: an unsafe implicit conversion is "
                                    "performed on a bound (",
                                    ") in dimension (", "), which may not preserve its original value."},
                                   {b, k});
      m_tile[k] = k < static_cast<int>(TN) ? static_cast<std::int64_t>(tiles[k]) : 0;
    }
    user_tiles_ = true;
    for (int k = 0; k < rank; ++k) user_tiles_ = user_tiles_ && m_tile[k] > 0;
    init();
  }
  template <class LT, std::size_t LN, class UT, std::size_t UN, class TT = std::int64_t, std::size_t TN = rank>
  MDRangePolicy(const LT (&lower)[LN], const UT (&upper)[UN], const TT (&tiles)[TN] = {})
      : MDRangePolicy(execution_space(), lower, upper, tiles) {}
  /// Bounds as Arrays: MDRangePolicy<Rank<3>>({{0, 0, 0}}, {{n0, n1, n2}}), or Array variables of any index type.
  MDRangePolicy(const execution_space& space, const point_type& lower, const point_type& upper,
                const tile_type& tiles = {})
      : MDRangePolicy(space, lower.impl_values, upper.impl_values, tiles.impl_values) {}
  MDRangePolicy(const point_type& lower, const point_type& upper, const tile_type& tiles = {})
      : MDRangePolicy(execution_space(), lower.impl_values, upper.impl_values, tiles.impl_values) {}
  template <class LT, class UT, class TT = std::int64_t, std::size_t TN = rank>
  requires(!std::is_same_v<LT, std::int64_t> || !std::is_same_v<UT, std::int64_t> ||
           !std::is_same_v<TT, std::int64_t> || TN != rank)
      MDRangePolicy(const execution_space& space, const Array<LT, rank>& lower, const Array<UT, rank>& upper,
                    const Array<TT, TN>& tiles = {})
      : MDRangePolicy(space, lower.impl_values, upper.impl_values, tiles.impl_values) {}
  template <class LT, class UT, class TT = std::int64_t, std::size_t TN = rank>
  requires(!std::is_same_v<LT, std::int64_t> || !std::is_same_v<UT, std::int64_t> ||
           !std::is_same_v<TT, std::int64_t> || TN != rank)
      MDRangePolicy(const Array<LT, rank>& lower, const Array<UT, rank>& upper, const Array<TT, TN>& tiles = {})
      : MDRangePolicy(execution_space(), lower.impl_values, upper.impl_values, tiles.impl_values) {}

  const execution_space& space() const { return space_; }
  std::int64_t lower(int k) const { return m_lower[k]; }
  std::int64_t upper(int k) const { return m_upper[k]; }
  std::int64_t tile(int k) const { return m_tile[k]; }
  /// Whether the caller gave every tile size (GPU backends then run one tile per block).
  bool impl_user_tiles() const { return user_tiles_; }
  std::int64_t tiles_in(int k) const { return (m_upper[k] - m_lower[k] + m_tile[k] - 1) / m_tile[k]; }
  std::int64_t num_tiles() const {
    std::int64_t n = 1;
    for (int k = 0; k < rank; ++k) n *= tiles_in(k);
    return n;
  }

 private:
  void init() {
    // From the innermost dimension out, as Kokkos checks (its death tests name the first one it finds).
    for (int i = 0; i < rank; ++i) {
      const int k = iterate_right ? rank - 1 - i : i;
      if (m_lower[k] > m_upper[k])
        impl::throw_policy_parts({"weft::MDRangePolicy bounds error: The lower bound (",
                                  ") is greater than its upper bound (", ") in dimension ", "."},
                                 {m_lower[k], m_upper[k], k});
      if (m_tile[k] < 0)
        impl::throw_policy_parts({"weft::MDRangePolicy: tile size ", " is negative in dimension ", ""}, {m_tile[k], k});
    }
    // Default tiles: the innermost dimension whole (so it vectorizes), the others one at a time.
    const int inner = iterate_right ? rank - 1 : 0;
    for (int k = 0; k < rank; ++k)
      if (m_tile[k] == 0) m_tile[k] = k == inner ? (m_upper[k] - m_lower[k] > 1 ? m_upper[k] - m_lower[k] : 1) : 1;
  }
  execution_space space_;
  bool user_tiles_ = false;

 public:
  /// The bounds and tile sizes (tiles as the policy runs them: the defaults filled in), public as in Kokkos.
  point_type m_lower = {};
  point_type m_upper = {};
  tile_type m_tile = {};
};

// ---- teams -------------------------------------------------------------------------------------------
namespace impl {
/// What a backend says about its teams; specialized by each backend (team_size_max, scratch limits).
template <class E>
struct TeamTraits;
}  // namespace impl

/// A league of teams: TeamPolicy<>(league_size, team_size or AUTO, vector_length).
template <class... Props>
class TeamPolicy {
  using traits = impl::PolicyTraits<Props...>;

 public:
  using execution_space = typename traits::execution_space;
  using index_type = typename traits::index_type;
  using work_tag = typename traits::work_tag;
  using schedule_type = Schedule<typename traits::schedule_type>;
  using member_type = typename impl::TeamTraits<execution_space>::member_type;
  using policy = TeamPolicy;

  TeamPolicy() = default;
  TeamPolicy(const execution_space& space, std::int64_t league, int team, int vector = 1)
      : space_(space), league_(league), team_(team), vector_(vector) {
    validate();
    // Through the drop-in, a GPU vector length that is not a power of two up to the warp is rounded down into range
    // as Kokkos's GPU backends round it (33 runs as 32, 19 as 16); Weft programs are told (weft::Error at launch).
    if (!execution_space::impl_is_host_space && vector_ > 0 && impl::kokkos_error_style()) {
      int v = vector_ < 32 ? vector_ : 32;
      while (v & (v - 1)) v &= v - 1;
      vector_ = v;
    }
  }
  TeamPolicy(const execution_space& space, std::int64_t league, AUTO_t, int vector = 1)
      : TeamPolicy(space, league, -1, vector) {}
  TeamPolicy(const execution_space& space, std::int64_t league, AUTO_t, AUTO_t) : TeamPolicy(space, league, -1, -1) {}
  TeamPolicy(const execution_space& space, std::int64_t league, int team, AUTO_t)
      : TeamPolicy(space, league, team, -1) {}
  TeamPolicy(std::int64_t league, int team, int vector = 1) : TeamPolicy(execution_space(), league, team, vector) {}
  TeamPolicy(std::int64_t league, AUTO_t, int vector = 1) : TeamPolicy(execution_space(), league, -1, vector) {}
  TeamPolicy(std::int64_t league, AUTO_t, AUTO_t) : TeamPolicy(execution_space(), league, -1, -1) {}
  TeamPolicy(std::int64_t league, int team, AUTO_t) : TeamPolicy(execution_space(), league, team, -1) {}

  const execution_space& space() const { return space_; }
  std::int64_t league_size() const { return league_; }
  int team_size() const { return team_ > 0 ? team_ : team_size_recommended(); }
  int vector_length() const { return vector_ > 0 ? vector_ : 1; }
  bool impl_auto_team_size() const { return team_ <= 0; }
  /// The longest vector length a team takes: a warp's 32 lanes on GPU backends, 1024 on host ones (as Kokkos).
  static constexpr int vector_length_max() { return execution_space::impl_is_host_space ? 1024 : 32; }
  int team_size_max() const { return impl::TeamTraits<execution_space>::team_size_max(space_, vector_length()); }
  int team_size_recommended() const {
    return impl::TeamTraits<execution_space>::team_size_recommended(space_, vector_length());
  }
  template <class F, class Tag>
  int team_size_max(const F&, const Tag&) const {
    return team_size_max();
  }
  template <class F, class Tag>
  int team_size_recommended(const F&, const Tag&) const {
    return team_size_recommended();
  }
  static std::size_t scratch_size_max(int level) { return impl::TeamTraits<execution_space>::scratch_size_max(level); }

  TeamPolicy& set_scratch_size(int level, PerTeamValue team) {
    check_level(level);
    team_scratch_[level] = team.value;
    return *this;
  }
  TeamPolicy& set_scratch_size(int level, PerThreadValue thread) {
    check_level(level);
    thread_scratch_[level] = thread.value;
    return *this;
  }
  TeamPolicy& set_scratch_size(int level, PerTeamValue team, PerThreadValue thread) {
    set_scratch_size(level, team);
    return set_scratch_size(level, thread);
  }
  TeamPolicy& set_scratch_size(int level, PerThreadValue thread, PerTeamValue team) {
    return set_scratch_size(level, team, thread);
  }
  TeamPolicy& set_chunk_size(int c) {
    chunk_ = c;
    return *this;
  }
  /// League ranks a team takes at a time under Schedule<Dynamic>: what set_chunk_size gave, else 1 (a static
  /// schedule gives each team one contiguous share of the league).
  int chunk_size() const { return chunk_ > 0 ? chunk_ : 1; }
  std::size_t team_scratch_size(int level) const { return team_scratch_[level]; }
  /// Raises weft::Error naming the kernel when a level's request exceeds the backend's maximum.
  void impl_check_scratch(std::string_view label, int team_size) const {
    for (int l = 0; l < 2; ++l) {
      const std::size_t want = scratch_size(l, team_size);
      std::size_t lim = scratch_size_max(l);
      if constexpr (requires { impl::TeamTraits<execution_space>::scratch_size_limit(l, 1); })
        lim = impl::TeamTraits<execution_space>::scratch_size_limit(l, team_size * vector_length());
      if (want > lim)
        impl::throw_scratch_request(label, l, want, team_scratch_[l], thread_scratch_[l], team_size, lim,
                                    scratch_size_max(1));
    }
  }
  std::size_t thread_scratch_size(int level) const { return thread_scratch_[level]; }
  /// Scratch one team uses at `level`: per-team bytes plus per-thread bytes times the team size.
  std::size_t scratch_size(int level, int team_size = -1) const {
    const int ts = team_size > 0 ? team_size : this->team_size();
    // Saturating (impl::size_mul/size_add): a request past size_t reads as SIZE_MAX, over every backend's maximum.
    return impl::size_add(team_scratch_[level], impl::size_mul(thread_scratch_[level], static_cast<std::size_t>(ts)));
  }

 private:
  static void check_level(int level) {
    if (level != 0 && level != 1)
      impl::throw_policy_parts(
          {"weft::TeamPolicy::set_scratch_size: level ", " does not exist; use 0 (fast, small) or 1 (large)"}, {level});
  }
  void validate() const {
    if (league_ < 0) impl::throw_policy_parts({"weft::TeamPolicy: league size ", " is negative"}, {league_});
    if (team_ == 0 || vector_ == 0)
      impl::throw_policy_error("weft::TeamPolicy: team size and vector length must be >= 1 (or weft::AUTO)");
  }
  execution_space space_;
  std::int64_t league_ = 0;
  int team_ = -1;
  int vector_ = 1;
  int chunk_ = 0;
  std::size_t team_scratch_[2] = {0, 0};
  std::size_t thread_scratch_[2] = {0, 0};
};

// ---- nested ranges inside a team -------------------------------------------------------------------
namespace impl {
enum class NestLevel { TeamThread, ThreadVector, TeamVector };
template <NestLevel L, class I, class Member>
struct NestedRange {
  using index_type = I;
  using member_type = Member;
  static constexpr NestLevel level = L;
  const Member& member;
  I begin;
  I end;
};
template <class T>
struct is_nested_range : std::false_type {};
template <NestLevel L, class I, class M>
struct is_nested_range<NestedRange<L, I, M>> : std::true_type {};

template <class M>
struct PerTeamSingle {
  const M& member;
};
template <class M>
struct PerThreadSingle {
  const M& member;
};
}  // namespace impl

#define WEFT_IMPL_NESTED_RANGE(NAME, LEVEL)                                                                \
  template <class Member, std::integral I>                                                                 \
  WEFT_INLINE_FUNCTION impl::NestedRange<impl::NestLevel::LEVEL, I, Member> NAME(const Member& m, I n) {   \
    return {m, I(0), n};                                                                                   \
  }                                                                                                        \
  template <class Member, std::integral I1, std::integral I2>                                              \
  WEFT_INLINE_FUNCTION impl::NestedRange<impl::NestLevel::LEVEL, std::common_type_t<I1, I2>, Member> NAME( \
      const Member& m, I1 b, I2 e) {                                                                       \
    return {m, static_cast<std::common_type_t<I1, I2>>(b), static_cast<std::common_type_t<I1, I2>>(e)};    \
  }
/// Splits [0, n) or [b, e) over the threads of a team.
WEFT_IMPL_NESTED_RANGE(TeamThreadRange, TeamThread)
/// Splits [0, n) or [b, e) over the vector lanes of one thread.
WEFT_IMPL_NESTED_RANGE(ThreadVectorRange, ThreadVector)
/// Splits [0, n) or [b, e) over every thread and vector lane of a team.
WEFT_IMPL_NESTED_RANGE(TeamVectorRange, TeamVector)
#undef WEFT_IMPL_NESTED_RANGE

template <class Member>
requires requires(const Member& m) { m.team_rank(); }
WEFT_INLINE_FUNCTION impl::PerTeamSingle<Member> PerTeam(const Member& m) { return {m}; }
template <class Member>
requires requires(const Member& m) { m.team_rank(); }
WEFT_INLINE_FUNCTION impl::PerThreadSingle<Member> PerThread(const Member& m) { return {m}; }

}  // namespace weft
