// Kokkos compatibility: Kokkos:: names and KOKKOS_* macros resolve to Weft, so a Kokkos program of the covered
// subset compiles unchanged. Programs include <Kokkos_Core.hpp> (and the other Kokkos header names) from the
// drop-in directory that Weft installs beside its own package (lib/weft-kokkos, docs/kokkos.md); this header is
// what those include, and may also be included (or force-included: -include weft/compat/kokkos.hpp) directly.
#pragma once

// What Kokkos_Core.hpp brings in, which programs rely on without including it themselves.
#include <algorithm>
#include <chrono>
#include <cinttypes>  // PRIu64 and friends: Kokkos_Core.hpp brings them
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

#include <weft/bit.hpp>
#include <weft/weft.hpp>
// Kokkos::sort, the random pools and Kokkos::Experimental's std algorithms, when weft's algorithms are on the
// include path (link Weft::algorithms).
#if __has_include(<weft/algorithms.hpp>)
#include <weft/algorithms.hpp>
#define WEFT_COMPAT_HAS_ALGORITHMS 1
#else
#define WEFT_COMPAT_HAS_ALGORITHMS 0
#endif

#include <weft/compat/kokkos/desul.hpp>
#include <weft/compat/kokkos/impl.hpp>
#include <weft/compat/kokkos/math.hpp>
#include <weft/compat/kokkos/numeric_traits.hpp>
#include <weft/compat/kokkos/simd.hpp>
#include <weft/compat/kokkos/unsupported.hpp>
#include <weft/containers.hpp>

/// The Kokkos API level Weft implements (Kokkos 4.6), as Kokkos spells its version; WEFT_KOKKOS_COMPAT says the
/// names come from Weft.
#define KOKKOS_VERSION_MAJOR 4
#define KOKKOS_VERSION_MINOR 6
#define KOKKOS_VERSION_PATCH 0
#define KOKKOS_VERSION (KOKKOS_VERSION_MAJOR * 10000 + KOKKOS_VERSION_MINOR * 100 + KOKKOS_VERSION_PATCH)
#define KOKKOS_VERSION_LESS(MAJOR, MINOR, PATCH) (KOKKOS_VERSION < ((MAJOR)*10000 + (MINOR)*100 + (PATCH)))
#define KOKKOS_VERSION_LESS_EQUAL(MAJOR, MINOR, PATCH) (KOKKOS_VERSION <= ((MAJOR)*10000 + (MINOR)*100 + (PATCH)))
#define KOKKOS_VERSION_GREATER(MAJOR, MINOR, PATCH) (KOKKOS_VERSION > ((MAJOR)*10000 + (MINOR)*100 + (PATCH)))
#define KOKKOS_VERSION_GREATER_EQUAL(MAJOR, MINOR, PATCH) (KOKKOS_VERSION >= ((MAJOR)*10000 + (MINOR)*100 + (PATCH)))
#define KOKKOS_VERSION_EQUAL(MAJOR, MINOR, PATCH) (KOKKOS_VERSION == ((MAJOR)*10000 + (MINOR)*100 + (PATCH)))
#define WEFT_KOKKOS_COMPAT 1

namespace Kokkos::impl_compat {
/// A program built through the drop-in fails as under Kokkos where Kokkos aborts: an invalid RangePolicy or
/// MDRangePolicy prints its message and aborts instead of raising weft::Error (docs/kokkos.md).
inline const bool kokkos_error_style_on = (::weft::impl::set_kokkos_error_style(true), true);
}  // namespace Kokkos::impl_compat

#define KOKKOS_LAMBDA WEFT_LAMBDA
#define KOKKOS_CLASS_LAMBDA WEFT_CLASS_LAMBDA
#define KOKKOS_FUNCTION WEFT_FUNCTION
/// A function other translation units may call from device code (Kokkos 4.5): Weft's device builds are whole-program,
/// so it is an ordinary KOKKOS_FUNCTION; define it in a header the callers include.
#define KOKKOS_RELOCATABLE_FUNCTION WEFT_FUNCTION
#define KOKKOS_INLINE_FUNCTION WEFT_INLINE_FUNCTION
#define KOKKOS_FORCEINLINE_FUNCTION WEFT_FORCEINLINE_FUNCTION
#define KOKKOS_DEFAULTED_FUNCTION
#define KOKKOS_DEDUCTION_GUIDE WEFT_DEDUCTION_GUIDE
#define KOKKOS_RESTRICT __restrict__
/// An extent not given (DynRankView("a", n) leaves the rest unset), as Kokkos spells it.
#define KOKKOS_INVALID_INDEX (~std::size_t(0))
#define KOKKOS_IMPL_CTOR_DEFAULT_ARG KOKKOS_INVALID_INDEX
/// Kokkos::Experimental::half_t and bhalf_t are 16-bit types in Weft on every backend (weft/half.hpp), not float:
/// Kokkos's macros say which (its tests loosen their statistics for 16-bit draws).
#define KOKKOS_HALF_T_IS_FLOAT false
#define KOKKOS_BHALF_T_IS_FLOAT false
#define KOKKOS_ENABLE_CXX17
#define KOKKOS_ENABLE_CXX20
#define KOKKOS_ENABLE_COMPLEX_ALIGN  // weft::complex<T> is aligned to 2 * sizeof(T)
/// KOKKOS_IF_ON_HOST((code)) / KOKKOS_IF_ON_DEVICE((code)): code for one side of a host-device function only.
#define WEFT_KOKKOS_STRIP_PARENS(...) __VA_ARGS__
#if WEFT_IMPL_DEVICE_PASS
#define KOKKOS_IF_ON_HOST(CODE)
#define KOKKOS_IF_ON_DEVICE(CODE) \
  { WEFT_KOKKOS_STRIP_PARENS CODE }
#else
#define KOKKOS_IF_ON_HOST(CODE) \
  { WEFT_KOKKOS_STRIP_PARENS CODE }
#define KOKKOS_IF_ON_DEVICE(CODE)
#endif
/// Around code that uses what Kokkos deprecates (Kokkos's tests of Kokkos::vector).
#if defined(__GNUC__) || defined(__clang__)
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_PUSH() \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_POP() _Pragma("GCC diagnostic pop")
#else
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_PUSH()
#define KOKKOS_IMPL_DISABLE_DEPRECATED_WARNINGS_POP()
#endif
/// Around code that a test's `if constexpr` makes unreachable for some types (nvcc's and NVHPC's warning; g++ has
/// none).
#define KOKKOS_IMPL_DISABLE_UNREACHABLE_WARNINGS_PUSH()
#define KOKKOS_IMPL_DISABLE_UNREACHABLE_WARNINGS_POP()
/// KOKKOS_ASSERT(cond): in debug builds (no NDEBUG) a failed condition aborts naming it, file and line.
#ifndef NDEBUG
#define KOKKOS_ASSERT(...)                                                                                             \
  do {                                                                                                                 \
    if (!(__VA_ARGS__))                                                                                                \
      ::Kokkos::abort("Kokkos contract violation: " #__VA_ARGS__ " (" __FILE__ ":" WEFT_IMPL_STRINGIFY(__LINE__) ")"); \
  } while (0)
#else
#define KOKKOS_ASSERT(...) \
  do {                     \
  } while (0)
#endif
#define KOKKOS_EXPECTS(...) KOKKOS_ASSERT(__VA_ARGS__)
#define KOKKOS_ENSURES(...) KOKKOS_ASSERT(__VA_ARGS__)
#if WEFT_HAS_OPENMP
#define KOKKOS_ENABLE_OPENMP
#endif
#if WEFT_HAS_SERIAL
#define KOKKOS_ENABLE_SERIAL
#endif
#if WEFT_HAS_CUDA
#define KOKKOS_ENABLE_CUDA
#define KOKKOS_ENABLE_CUDA_LAMBDA
#endif
#if WEFT_HAS_HIP
#define KOKKOS_ENABLE_HIP
#endif

namespace Kokkos {
using namespace ::weft;  // qualified lookup of Kokkos::X finds weft::X

using ::weft::ALL;
using ::weft::AUTO;
using ::weft::SequentialHostInit;
using ::weft::WithoutInitializing;
// Kokkos::complex's functions (weft/containers/complex.hpp) beside the real ones of kokkos/math.hpp
using ::weft::abs;
using ::weft::acos;
using ::weft::acosh;
using ::weft::arg;
using ::weft::asin;
using ::weft::asinh;
using ::weft::atan;
using ::weft::atanh;
using ::weft::conj;
using ::weft::cos;
using ::weft::cosh;
using ::weft::exp;
using ::weft::imag;
using ::weft::log;
using ::weft::log10;
using ::weft::norm;
using ::weft::polar;
using ::weft::pow;
using ::weft::real;
using ::weft::sin;
using ::weft::sinh;
using ::weft::sqrt;
using ::weft::tan;
using ::weft::tanh;

/// Kokkos::reduction_identity: a customization point of its own, which a Kokkos program specializes for its value
/// type inside namespace Kokkos (as Kokkos documents). The primary gives the arithmetic identities; Weft's reducers,
/// team and vector reductions and ScatterView read a user's specialization through weft::reduction_identity
/// (below the namespace).
template <class T>
struct reduction_identity : ::weft::impl::reduction_identity_default<T> {
  using impl_weft_primary_for = T;  // absent from a user's specialization (or names another type when it derives)
};

/// Kokkos::Timer: wall-clock seconds since construction or the last reset() (host code).
class Timer {
 public:
  Timer() { reset(); }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  void reset() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// The classic spelling of view_alloc(label) (ViewAllocateWithoutInitializing is a type, below).
template <class L>
auto ViewAllocate(const L& label) {
  return ::weft::view_alloc(label);
}

/// Subview<V, Args...>: the type subview(v, args...) gives (Kokkos's alias).
template <class V, class... Args>
using Subview = decltype(::weft::subview(std::declval<V>(), std::declval<Args>()...));

template <class T>
struct is_view : std::bool_constant<::weft::is_view_v<T>> {};
template <class T>
inline constexpr bool is_view_v = ::weft::is_view_v<T>;
/// Kokkos's space traits: true for a space type, const or not; false for a reference to one (Kokkos's Concepts test).
template <class T>
struct is_execution_space
    : std::bool_constant<!std::is_reference_v<T> && ::weft::is_execution_space_v<std::remove_cv_t<T>>> {};
template <class T>
struct is_memory_space : std::bool_constant<!std::is_reference_v<T> && ::weft::is_memory_space_v<std::remove_cv_t<T>>> {
};
template <class T>
struct is_device : std::bool_constant<!std::is_reference_v<T> && ::weft::impl::is_device<std::remove_cv_t<T>>::value> {
};
template <class T>
struct is_space : std::bool_constant<is_execution_space<T>::value || is_memory_space<T>::value || is_device<T>::value> {
};
template <class T>
inline constexpr bool is_execution_space_v = is_execution_space<T>::value;
template <class T>
inline constexpr bool is_memory_space_v = is_memory_space<T>::value;
template <class T>
inline constexpr bool is_device_v = is_device<T>::value;
template <class T>
inline constexpr bool is_space_v = is_space<T>::value;
/// is_team_handle<T>: T is a team policy's member type (a team handle), const or not; not a reference or pointer.
template <class T>
        struct is_team_handle : std::bool_constant < !std::is_reference_v<T> &&
    !std::is_pointer_v<T> && requires(const std::remove_cv_t<T>& m) {
  typename std::remove_cv_t<T>::execution_space;
  typename std::remove_cv_t<T>::scratch_memory_space;
  m.team_rank();
  m.team_size();
  m.league_rank();
  m.league_size();
  m.team_barrier();
  m.team_scratch(0);
} > {};
template <class T>
inline constexpr bool is_team_handle_v = is_team_handle<T>::value;

/// The detection idiom (Kokkos_DetectionIdiom.hpp, the Library Fundamentals TS v2's): is_detected<Op, Args...> is
/// true when Op<Args...> is a valid type; detected_t is it (or nonesuch), detected_or_t a default instead.
struct nonesuch {
  nonesuch() = delete;
  ~nonesuch() = delete;
  nonesuch(const nonesuch&) = delete;
  void operator=(const nonesuch&) = delete;
};
namespace impl_compat {
template <class Default, class AlwaysVoid, template <class...> class Op, class... Args>
struct detector {
  using value_t = std::false_type;
  using type = Default;
};
template <class Default, template <class...> class Op, class... Args>
struct detector<Default, std::void_t<Op<Args...>>, Op, Args...> {
  using value_t = std::true_type;
  using type = Op<Args...>;
};
}  // namespace impl_compat
template <template <class...> class Op, class... Args>
using is_detected = typename impl_compat::detector<nonesuch, void, Op, Args...>::value_t;
template <template <class...> class Op, class... Args>
using detected_t = typename impl_compat::detector<nonesuch, void, Op, Args...>::type;
template <class Default, template <class...> class Op, class... Args>
using detected_or_t = typename impl_compat::detector<Default, void, Op, Args...>::type;
template <class Expected, template <class...> class Op, class... Args>
using is_detected_exact = std::is_same<Expected, detected_t<Op, Args...>>;
template <class To, template <class...> class Op, class... Args>
using is_detected_convertible = std::is_convertible<detected_t<Op, Args...>, To>;
template <template <class...> class Op, class... Args>
inline constexpr bool is_detected_v = is_detected<Op, Args...>::value;
template <class Expected, template <class...> class Op, class... Args>
inline constexpr bool is_detected_exact_v = is_detected_exact<Expected, Op, Args...>::value;
template <class To, template <class...> class Op, class... Args>
inline constexpr bool is_detected_convertible_v = is_detected_convertible<To, Op, Args...>::value;

/// ViewAllocateWithoutInitializing("label"): view_alloc(WithoutInitializing, "label") under its pre-3.0 name (a type,
/// as Kokkos keeps it for backward compatibility).
struct ViewAllocateWithoutInitializing : ::weft::impl::ViewAllocProps<> {
  explicit ViewAllocateWithoutInitializing(std::string_view label) {
    this->label = std::string(label);
    this->initialize = false;
  }
};

/// The threads of DefaultHostExecutionSpace; the devices Weft sees and the one this process uses.
inline int num_threads() { return ::weft::DefaultHostExecutionSpace().concurrency(); }

/// Kokkos::printf: printf that also works in device code.
template <class... Args>
WEFT_INLINE_FUNCTION int printf(const char* format, Args... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if constexpr (sizeof...(Args) == 0)
    return ::printf("%s", format);
  else
    return ::printf(format, args...);
#pragma GCC diagnostic pop
}

/// Kokkos::abort: prints the message and ends the program (host) or the kernel (device).
[[noreturn]] WEFT_INLINE_FUNCTION void abort(const char* message) {
#if WEFT_IMPL_DEVICE_PASS
  ::printf("Kokkos::abort: %s\n", message);
  WEFT_IMPL_DEVICE_TRAP();
  __builtin_unreachable();
#else
  ::weft::impl::abort_with(message);
#endif
}

/// Kokkos's names for the location reducers' tie rules: MinLoc and MaxLoc keep the first (smallest) index.
template <class Scalar, class Index, class Space = ::weft::HostSpace>
using MinFirstLoc = ::weft::MinLoc<Scalar, Index, Space>;
template <class Scalar, class Index, class Space = ::weft::HostSpace>
using MaxFirstLoc = ::weft::MaxLoc<Scalar, Index, Space>;

/// The pattern tags that team_size_max / team_size_recommended take.
struct ParallelForTag {};
struct ParallelReduceTag {};
struct ParallelScanTag {};

// ---- kokkos_malloc / kokkos_realloc / kokkos_free ------------------------------------------------------------
namespace impl_compat {
struct RawAllocation {
  std::size_t bytes;
  std::string label;
  const char* space;
};
inline std::mutex& raw_mutex() {
  static std::mutex m;
  return m;
}
inline std::map<void*, RawAllocation>& raw_allocations() {
  static std::map<void*, RawAllocation> m;
  return m;
}
template <class Space>
RawAllocation take_raw(void* p, const char* call) {
  std::lock_guard<std::mutex> lock(raw_mutex());
  auto& m = raw_allocations();
  auto it = m.find(p);
  if (it == m.end())
    throw ::weft::Error(std::string("Kokkos::") + call + "<" + Space::name() +
                        ">: the pointer was not allocated by kokkos_malloc/kokkos_realloc (or was freed already)");
  if (std::string(it->second.space) != Space::name())
    throw ::weft::Error(std::string("Kokkos::") + call + "<" + Space::name() + ">: \"" + it->second.label +
                        "\" was allocated in " + it->second.space + "; free it with the same space");
  RawAllocation a = it->second;
  m.erase(it);
  return a;
}
}  // namespace impl_compat

/// Untyped memory of `Space` (a memory space, or an execution space's memory space), as Kokkos: kokkos_malloc
/// ([label,] bytes), kokkos_realloc(ptr, bytes) (keeps the first min(old, new) bytes), kokkos_free(ptr).
template <class Space = typename ::weft::DefaultExecutionSpace::memory_space>
void* kokkos_malloc(const std::string& label, std::size_t bytes) {
  using M = typename Space::memory_space;
  if (bytes == 0) return nullptr;
  void* p = M().allocate(bytes, label);
  std::lock_guard<std::mutex> lock(impl_compat::raw_mutex());
  impl_compat::raw_allocations()[p] = {bytes, label, M::name()};
  return p;
}
template <class Space = typename ::weft::DefaultExecutionSpace::memory_space>
void* kokkos_malloc(std::size_t bytes) {
  return kokkos_malloc<Space>("no-label", bytes);
}
template <class Space = typename ::weft::DefaultExecutionSpace::memory_space>
void kokkos_free(void* p) {
  using M = typename Space::memory_space;
  if (!p) return;
  const auto a = impl_compat::take_raw<M>(p, "kokkos_free");
  M().deallocate(p, a.bytes, a.label);
}
template <class Space = typename ::weft::DefaultExecutionSpace::memory_space>
void* kokkos_realloc(void* p, std::size_t bytes) {
  using M = typename Space::memory_space;
  if (!p) return kokkos_malloc<M>(bytes);
  const auto a = impl_compat::take_raw<M>(p, "kokkos_realloc");
  void* q = nullptr;
  if (bytes > 0) {
    q = M().allocate(bytes, a.label);
    using Bytes = ::weft::View<char*, M, ::weft::MemoryUnmanaged>;
    const std::size_t keep = bytes < a.bytes ? bytes : a.bytes;
    ::weft::deep_copy(Bytes(static_cast<char*>(q), keep), Bytes(static_cast<char*>(p), keep));
    std::lock_guard<std::mutex> lock(impl_compat::raw_mutex());
    impl_compat::raw_allocations()[q] = {bytes, a.label, M::name()};
  }
  M().deallocate(p, a.bytes, a.label);
  return q;
}

/// Kokkos::hwloc's queries, from the operating system (Weft does not link hwloc): one NUMA domain, the online
/// cores, one thread per core.
namespace hwloc {
inline bool available() { return false; }
inline unsigned get_available_numa_count() { return 1; }
inline unsigned get_available_cores_per_numa() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}
inline unsigned get_available_threads_per_core() { return 1; }
}  // namespace hwloc

namespace impl_compat {
/// What common_view_alloc_prop gives: the Views' common value type (for a plain View the property carries nothing
/// else, as in Kokkos; view_alloc accepts and ignores it).
template <class T>
struct CommonViewAllocProp {
  using value_type = T;
  using scalar_array_type = T;
  using impl_view_alloc_ignored = void;
};
}  // namespace impl_compat
/// common_view_alloc_prop(views...): view_alloc's property for a View of the given Views' common value type.
template <class... Views>
requires(sizeof...(Views) >= 1) impl_compat::CommonViewAllocProp<
    std::common_type_t<std::remove_cv_t<typename Views::value_type>...>> common_view_alloc_prop(const Views&...) {
  return {};
}

/// Kokkos::vector<T[, Device]> (Kokkos_Vector.hpp, deprecated in Kokkos 4): weft::DualVector.
template <class T, class Arg = void>
using vector = ::weft::DualVector<T, std::conditional_t<std::is_void_v<Arg>, ::weft::DefaultExecutionSpace, Arg>>;

namespace Experimental {
/// Work-item hints, as Kokkos spells them: values (require(policy, WorkItemProperty::HintLightWeight)), their types
/// (`WorkItemProperty::HintLightWeight_t`, also as a policy template argument) and | of both. Accepted; Weft's
/// backends schedule without them.
struct WorkItemProperty {  // a struct, as Kokkos's (`using Kokkos::Experimental::WorkItemProperty;` names it)
  template <unsigned long Bits>
  struct ImplWorkItemProperty {
    static constexpr unsigned long value = Bits;
    static constexpr bool impl_weft_policy_hint = true;  // a policy template argument Weft's policies accept
    using work_item_property = ImplWorkItemProperty;
    template <unsigned long B>
    friend constexpr ImplWorkItemProperty<Bits | B> operator|(ImplWorkItemProperty, ImplWorkItemProperty<B>) {
      return {};
    }
    template <unsigned long B>
    friend constexpr ImplWorkItemProperty<Bits & B> operator&(ImplWorkItemProperty, ImplWorkItemProperty<B>) {
      return {};
    }
    template <unsigned long B>
    friend constexpr bool operator==(ImplWorkItemProperty, ImplWorkItemProperty<B>) {
      return Bits == B;
    }
  };
  using None_t = ImplWorkItemProperty<0>;
  using HintLightWeight_t = ImplWorkItemProperty<1>;
  using HintHeavyWeight_t = ImplWorkItemProperty<2>;
  using HintRegular_t = ImplWorkItemProperty<4>;
  using HintIrregular_t = ImplWorkItemProperty<8>;
  using ImplForceGlobalLaunch_t = ImplWorkItemProperty<16>;
  static constexpr None_t None{};
  static constexpr HintLightWeight_t HintLightWeight{};
  static constexpr HintHeavyWeight_t HintHeavyWeight{};
  static constexpr HintRegular_t HintRegular{};
  static constexpr HintIrregular_t HintIrregular{};
  static constexpr ImplForceGlobalLaunch_t ImplForceGlobalLaunch{};
};
template <class Policy, unsigned long Bits>
Policy require(const Policy& policy, WorkItemProperty::ImplWorkItemProperty<Bits>) {
  return policy;
}
template <class Policy, unsigned long Bits>
Policy prefer(const Policy& policy, WorkItemProperty::ImplWorkItemProperty<Bits>) {
  return policy;
}
/// Occupancy hints (Kokkos 3.4): prefer(policy, DesiredOccupancy{percent}) and prefer(policy, MaximizeOccupancy{}).
/// Accepted and checked (a percentage from 1 to 100); Weft's backends size their launches without them, as Kokkos's
/// host backends do (Kokkos's CUDA backend limits blocks per SM by the percentage: Weft's does not).
struct MaximizeOccupancy {
  explicit MaximizeOccupancy() = default;
};
class DesiredOccupancy {
 public:
  explicit constexpr DesiredOccupancy(int percent) : value_(percent) {
    if (percent < 1 || percent > 100)
      ::weft::impl::throw_policy_error("Kokkos::Experimental::DesiredOccupancy(" + std::to_string(percent) +
                                       "): the occupancy is a percentage from 1 to 100");
  }
  constexpr int value() const { return value_; }

 private:
  int value_;
};
template <class Policy>
requires requires { typename Policy::execution_space; }
Policy prefer(const Policy& policy, MaximizeOccupancy) { return policy; }
template <class Policy>
requires requires { typename Policy::execution_space; }
Policy prefer(const Policy& policy, DesiredOccupancy) { return policy; }
/// The bit functions' *_builtin forms (Kokkos_BitManipulation.hpp): the same results as Kokkos::countl_zero and the
/// rest, which already compile to the compiler's builtins (and to the GPU's instructions in device code).
#define WEFT_KOKKOS_BIT_BUILTIN(F)                                                                 \
  template <class T>                                                                               \
  requires ::weft::impl::StandardUnsigned<T> WEFT_INLINE_FUNCTION auto F##_builtin(T x) noexcept { \
    return ::weft::F(x);                                                                           \
  }
WEFT_KOKKOS_BIT_BUILTIN(countl_zero)
WEFT_KOKKOS_BIT_BUILTIN(countl_one)
WEFT_KOKKOS_BIT_BUILTIN(countr_zero)
WEFT_KOKKOS_BIT_BUILTIN(countr_one)
WEFT_KOKKOS_BIT_BUILTIN(popcount)
WEFT_KOKKOS_BIT_BUILTIN(has_single_bit)
WEFT_KOKKOS_BIT_BUILTIN(bit_ceil)
WEFT_KOKKOS_BIT_BUILTIN(bit_floor)
WEFT_KOKKOS_BIT_BUILTIN(bit_width)
#undef WEFT_KOKKOS_BIT_BUILTIN
template <class T>
requires ::weft::impl::StandardUnsigned<T>
[[nodiscard]] WEFT_INLINE_FUNCTION T rotl_builtin(T x, int s) noexcept { return ::weft::rotl(x, s); }
template <class T>
requires ::weft::impl::StandardUnsigned<T>
[[nodiscard]] WEFT_INLINE_FUNCTION T rotr_builtin(T x, int s) noexcept { return ::weft::rotr(x, s); }
template <class T>
requires std::is_integral_v<T> WEFT_INLINE_FUNCTION T byteswap_builtin(T x)
noexcept { return ::weft::byteswap(x); }
template <class To, class From>
WEFT_INLINE_FUNCTION To bit_cast_builtin(const From& from) noexcept {
  return ::weft::bit_cast<To>(from);
}
using ::weft::bhalf_t;
using ::weft::half_t;
using ::weft::MinMaxLoc;
// Kokkos_UniqueToken.hpp and Kokkos_ScatterView.hpp (weft/containers/)
using ::weft::AcquireUniqueToken;
using ::weft::contribute;
using ::weft::create_scatter_view;
using ::weft::DynamicView;
using ::weft::is_dynamic_view;
using ::weft::is_dynamic_view_v;
using ::weft::is_offset_view;
using ::weft::OffsetView;
using ::weft::ScatterAtomic;
using ::weft::ScatterDuplicated;
using ::weft::ScatterMax;
using ::weft::ScatterMin;
using ::weft::ScatterNonAtomic;
using ::weft::ScatterNonDuplicated;
using ::weft::ScatterProd;
using ::weft::ScatterSum;
using ::weft::ScatterView;
using ::weft::subview;  // Kokkos::Experimental::subview of an OffsetView
using ::weft::UniqueToken;
using ::weft::UniqueTokenScope;
#if WEFT_COMPAT_HAS_ALGORITHMS
using namespace ::weft::experimental;  // Kokkos::Experimental::copy_if, inclusive_scan, min_element, ...
using ::weft::sort_by_key_team;        // the nested sorts (Kokkos_NestedSort.hpp)
using ::weft::sort_by_key_thread;
using ::weft::sort_team;
using ::weft::sort_thread;
/// Kokkos::Experimental::sort_by_key (Kokkos 4.2): weft::sort_by_key, except that keys and values of different
/// extents end the program as under Kokkos (its death test), where Weft's own API raises weft::Error.
template <class E, class K, class V, class... Comp>
requires(::weft::ExecutionSpace<E>&& ::weft::is_view_v<K>&& ::weft::is_view_v<V> &&
         sizeof...(Comp) <= 1) void sort_by_key(const E& exec, const K& keys, const V& values, const Comp&... comp) {
  if (keys.extent(0) != values.extent(0)) {
    const std::string m = "Kokkos::Experimental::sort_by_key: values and keys extents must be the same (keys \"" +
                          keys.label() + "\": " + std::to_string(keys.extent(0)) + ", values \"" + values.label() +
                          "\": " + std::to_string(values.extent(0)) + ")";
    ::Kokkos::abort(m.c_str());
  }
  ::weft::sort_by_key(exec, keys, values, comp...);
}
#endif
}  // namespace Experimental

/// Kokkos::Profiling / Kokkos::Tools regions, sections and metadata, on Weft's tools interface.
namespace Profiling {
inline void pushRegion(const std::string& name) { ::weft::profiling::push_region(name); }
inline void popRegion() { ::weft::profiling::pop_region(); }
inline bool profileLibraryLoaded() { return ::weft::profiling::is_enabled(); }
inline void createProfileSection(const std::string& name, std::uint32_t* id) {
  *id = ::weft::profiling::create_section(name);
}
inline void startSection(std::uint32_t id) { ::weft::profiling::start_section(id); }
inline void stopSection(std::uint32_t id) { ::weft::profiling::stop_section(id); }
inline void destroyProfileSection(std::uint32_t id) { ::weft::profiling::destroy_section(id); }
using ScopedRegion = ::weft::profiling::ScopedRegion;
inline void markEvent(const std::string& name) { ::weft::profiling::mark_event(name); }
using SpaceHandle = ::weft::profiling::SpaceHandle;
/// What the init callback gets per device (Kokkos_Profiling_DeviceInfo.hpp).
using KokkosPDeviceInfo = ::weft::profiling::DeviceInfo;
}  // namespace Profiling
namespace Tools {
using namespace Profiling;
inline void declareMetadata(const std::string& key, const std::string& value) {
  ::weft::profiling::declare_metadata(key, value);
}
/// The Kokkos Tools interface inside the program: set_<event>_callback(fn) makes fn (a plain function or a lambda
/// without captures) listen to that event beside the tool libraries (weft::profiling::set_callbacks);
/// pause_tools() removes every listener the program set, resume_tools() brings them back.
namespace Experimental {
using initFunction = decltype(::weft::profiling::Callbacks::init);
using finalizeFunction = decltype(::weft::profiling::Callbacks::finalize);
using beginFunction = decltype(::weft::profiling::Callbacks::begin_parallel_for);
using endFunction = decltype(::weft::profiling::Callbacks::end_parallel_for);
using beginFenceFunction = decltype(::weft::profiling::Callbacks::begin_fence);
using endFenceFunction = decltype(::weft::profiling::Callbacks::end_fence);
using pushFunction = decltype(::weft::profiling::Callbacks::push_region);
using popFunction = decltype(::weft::profiling::Callbacks::pop_region);
using allocateDataFunction = decltype(::weft::profiling::Callbacks::allocate_data);
using deallocateDataFunction = decltype(::weft::profiling::Callbacks::deallocate_data);
using beginDeepCopyFunction = decltype(::weft::profiling::Callbacks::begin_deep_copy);
using endDeepCopyFunction = decltype(::weft::profiling::Callbacks::end_deep_copy);
using createProfileSectionFunction = decltype(::weft::profiling::Callbacks::create_profile_section);
using startProfileSectionFunction = decltype(::weft::profiling::Callbacks::start_profile_section);
using stopProfileSectionFunction = decltype(::weft::profiling::Callbacks::stop_profile_section);
using destroyProfileSectionFunction = decltype(::weft::profiling::Callbacks::destroy_profile_section);
using profileEventFunction = decltype(::weft::profiling::Callbacks::profile_event);
using declareMetadataFunction = decltype(::weft::profiling::Callbacks::declare_metadata);
#define WEFT_KOKKOS_TOOLS_SETTER(NAME, FIELD, TYPE) \
  inline void NAME(TYPE f) {                        \
    auto c = ::weft::profiling::callbacks();        \
    c.FIELD = f;                                    \
    ::weft::profiling::set_callbacks(c);            \
  }
WEFT_KOKKOS_TOOLS_SETTER(set_init_callback, init, initFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_finalize_callback, finalize, finalizeFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_begin_parallel_for_callback, begin_parallel_for, beginFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_begin_parallel_reduce_callback, begin_parallel_reduce, beginFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_begin_parallel_scan_callback, begin_parallel_scan, beginFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_end_parallel_for_callback, end_parallel_for, endFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_end_parallel_reduce_callback, end_parallel_reduce, endFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_end_parallel_scan_callback, end_parallel_scan, endFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_begin_fence_callback, begin_fence, beginFenceFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_end_fence_callback, end_fence, endFenceFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_push_region_callback, push_region, pushFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_pop_region_callback, pop_region, popFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_allocate_data_callback, allocate_data, allocateDataFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_deallocate_data_callback, deallocate_data, deallocateDataFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_begin_deep_copy_callback, begin_deep_copy, beginDeepCopyFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_end_deep_copy_callback, end_deep_copy, endDeepCopyFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_create_profile_section_callback, create_profile_section, createProfileSectionFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_start_profile_section_callback, start_profile_section, startProfileSectionFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_stop_profile_section_callback, stop_profile_section, stopProfileSectionFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_destroy_profile_section_callback, destroy_profile_section, destroyProfileSectionFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_profile_event_callback, profile_event, profileEventFunction)
WEFT_KOKKOS_TOOLS_SETTER(set_declare_metadata_callback, declare_metadata, declareMetadataFunction)
#undef WEFT_KOKKOS_TOOLS_SETTER

/// The tuning and tool-settings parts of the interface: the types, and setters that take the callbacks. Weft asks
/// tools for no tuning values and no settings and declares no tuning variables, so these events never happen (the
/// program's listeners are kept all the same); DualView sync/modify events are not emitted either (docs/kokkos.md).
struct ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};
struct ToolProgrammingInterface {
  void (*fence)(std::uint32_t);
  void (*padding[31])();
};
enum class ValueType { kokkos_value_double, kokkos_value_int64, kokkos_value_string };
enum class StatisticalCategory {
  kokkos_value_categorical,
  kokkos_value_ordinal,
  kokkos_value_interval,
  kokkos_value_ratio
};
enum class CandidateValueType { kokkos_value_set, kokkos_value_range, kokkos_value_unbounded };
struct VariableInfo {
  ValueType type;
  StatisticalCategory category;
  CandidateValueType valueQuantity;
  void* candidates;
  void* toolProvidedInfo;
};
struct VariableValue {
  std::size_t type_id;
  union {
    double double_value;
    std::int64_t int_value;
    const char* string_value;
  } value;
  void* metadata;
};
enum class OptimizationType { minimize, maximize };
struct OptimizationGoal {
  std::size_t type_id;
  OptimizationType goal;
};
using dualViewSyncFunction = void (*)(const char*, const void* const, bool);
using dualViewModifyFunction = void (*)(const char*, const void* const, bool);
using requestToolSettingsFunction = void (*)(const std::uint32_t, ToolSettings*);
using provideToolProgrammingInterfaceFunction = void (*)(const std::uint32_t, ToolProgrammingInterface);
using outputTypeDeclarationFunction = void (*)(const char*, const std::size_t, VariableInfo* info);
using inputTypeDeclarationFunction = void (*)(const char*, const std::size_t, VariableInfo* info);
using requestValueFunction = void (*)(const std::size_t, const std::size_t, const VariableValue*, const std::size_t,
                                      VariableValue*);
using contextBeginFunction = void (*)(const std::size_t);
using contextEndFunction = void (*)(const std::size_t, VariableValue);
using optimizationGoalDeclarationFunction = void (*)(const std::size_t, const OptimizationGoal goal);
}  // namespace Experimental
}  // namespace Tools
namespace impl_compat {
/// The listeners of the events Weft never raises (tuning, tool settings, DualView sync/modify), kept as set.
struct ToolsNeverCalled {
  Tools::Experimental::dualViewSyncFunction dual_view_sync = nullptr;
  Tools::Experimental::dualViewModifyFunction dual_view_modify = nullptr;
  Tools::Experimental::requestToolSettingsFunction request_tool_settings = nullptr;
  Tools::Experimental::provideToolProgrammingInterfaceFunction provide_tool_programming_interface = nullptr;
  Tools::Experimental::outputTypeDeclarationFunction declare_output_type = nullptr;
  Tools::Experimental::inputTypeDeclarationFunction declare_input_type = nullptr;
  Tools::Experimental::requestValueFunction request_output_values = nullptr;
  Tools::Experimental::contextBeginFunction begin_context = nullptr;
  Tools::Experimental::contextEndFunction end_context = nullptr;
  Tools::Experimental::optimizationGoalDeclarationFunction declare_optimization_goal = nullptr;
};
inline ToolsNeverCalled tools_never_called{};
inline ::weft::profiling::Callbacks tools_paused{};
}  // namespace impl_compat
namespace Tools {
namespace Experimental {
#define WEFT_KOKKOS_TOOLS_KEPT(NAME, FIELD, TYPE) \
  inline void NAME(TYPE f) { ::Kokkos::impl_compat::tools_never_called.FIELD = f; }
WEFT_KOKKOS_TOOLS_KEPT(set_dual_view_sync_callback, dual_view_sync, dualViewSyncFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_dual_view_modify_callback, dual_view_modify, dualViewModifyFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_request_tool_settings_callback, request_tool_settings, requestToolSettingsFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_provide_tool_programming_interface_callback, provide_tool_programming_interface,
                       provideToolProgrammingInterfaceFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_declare_output_type_callback, declare_output_type, outputTypeDeclarationFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_declare_input_type_callback, declare_input_type, inputTypeDeclarationFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_request_output_values_callback, request_output_values, requestValueFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_begin_context_callback, begin_context, contextBeginFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_end_context_callback, end_context, contextEndFunction)
WEFT_KOKKOS_TOOLS_KEPT(set_declare_optimization_goal_callback, declare_optimization_goal,
                       optimizationGoalDeclarationFunction)
#undef WEFT_KOKKOS_TOOLS_KEPT
/// Removes the program's listeners (the tool libraries keep listening), keeping them for resume_tools().
inline void pause_tools() {
  ::Kokkos::impl_compat::tools_paused = ::weft::profiling::callbacks();
  ::weft::profiling::set_callbacks({});
}
inline void resume_tools() { ::weft::profiling::set_callbacks(::Kokkos::impl_compat::tools_paused); }
}  // namespace Experimental
}  // namespace Tools
}  // namespace Kokkos

namespace weft {
namespace impl_compat {
template <class T>
concept kokkos_identity_is_primary = requires {
  typename ::Kokkos::reduction_identity<T>::impl_weft_primary_for;
}
&&std::is_same_v<typename ::Kokkos::reduction_identity<T>::impl_weft_primary_for, T>;
}  // namespace impl_compat
/// A program's specialization of Kokkos::reduction_identity<T> is weft::reduction_identity<T>, so every reducer,
/// team and vector reduction and ScatterView of Weft uses it (an explicit specialization of
/// weft::reduction_identity<T> still takes precedence).
template <class T>
requires(!impl_compat::kokkos_identity_is_primary<T>) struct reduction_identity<T> : ::Kokkos::reduction_identity<T> {
};
}  // namespace weft

// After namespace Kokkos: these use Kokkos::abort.
#include <weft/compat/kokkos/team_utils.hpp>  // IWYU pragma: export
