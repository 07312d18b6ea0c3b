// Kokkos compatibility: Kokkos:: names and KOKKOS_* macros resolve to Weft, so a Kokkos program using
// the core subset compiles unchanged (add `-include weft/compat/kokkos.hpp`, or include it instead of
// Kokkos_Core.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <weft/weft.hpp>
// Kokkos::sort, the random pools and Kokkos::Experimental's std algorithms, when weft's algorithms are on the
// include path (link Weft::algorithms).
#if __has_include(<weft/algorithms.hpp>)
#include <weft/algorithms.hpp>
#define WEFT_COMPAT_HAS_ALGORITHMS 1
#else
#define WEFT_COMPAT_HAS_ALGORITHMS 0
#endif

#define KOKKOS_LAMBDA WEFT_LAMBDA
#define KOKKOS_CLASS_LAMBDA WEFT_CLASS_LAMBDA
#define KOKKOS_FUNCTION WEFT_FUNCTION
#define KOKKOS_INLINE_FUNCTION WEFT_INLINE_FUNCTION
#define KOKKOS_FORCEINLINE_FUNCTION WEFT_FORCEINLINE_FUNCTION
#define KOKKOS_DEFAULTED_FUNCTION
#if WEFT_HAS_OPENMP
#define KOKKOS_ENABLE_OPENMP
#endif
#if WEFT_HAS_SERIAL
#define KOKKOS_ENABLE_SERIAL
#endif
#if WEFT_HAS_CUDA
#define KOKKOS_ENABLE_CUDA
#endif
#if WEFT_HAS_HIP
#define KOKKOS_ENABLE_HIP
#endif

namespace Kokkos {
using namespace ::weft;  // qualified lookup of Kokkos::X finds weft::X

using ::weft::ALL;
using ::weft::AUTO;
using ::weft::WithoutInitializing;

namespace Experimental {
using ::weft::bhalf_t;
using ::weft::half_t;
using ::weft::MinMaxLoc;
#if WEFT_COMPAT_HAS_ALGORITHMS
using namespace ::weft::experimental;  // Kokkos::Experimental::copy_if, inclusive_scan, min_element, ...
using ::weft::sort_by_key;             // Kokkos::Experimental::sort_by_key (Kokkos 4.2)
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
}  // namespace Profiling
namespace Tools {
using namespace Profiling;
inline void declareMetadata(const std::string& key, const std::string& value) {
  ::weft::profiling::declare_metadata(key, value);
}
}  // namespace Tools
}  // namespace Kokkos
