// Kokkos names Weft's compatibility layer does not provide (yet): each is declared, so that a program using one
// stops at compile time with one line naming it, instead of a page of lookup errors or a silent fallback.
#pragma once

namespace Kokkos::impl_compat {
template <class... T>
inline constexpr bool not_provided = false;
}  // namespace Kokkos::impl_compat

#define WEFT_KOKKOS_NOT_PROVIDED(NAME, WHAT)                                                     \
  template <class... T>                                                                          \
  struct NAME {                                                                                  \
    static_assert(::Kokkos::impl_compat::not_provided<T...>, WHAT                                \
                  " is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists " \
                  "what is)");                                                                   \
    template <class... A>                                                                        \
    NAME(A&&...) {}                                                                              \
  };

namespace Kokkos {
WEFT_KOKKOS_NOT_PROVIDED(MemoryPool, "Kokkos::MemoryPool")
WEFT_KOKKOS_NOT_PROVIDED(TaskScheduler, "Kokkos::TaskScheduler")
WEFT_KOKKOS_NOT_PROVIDED(WorkGraphPolicy, "Kokkos::WorkGraphPolicy")
namespace Experimental {
WEFT_KOKKOS_NOT_PROVIDED(MasterLock, "Kokkos::Experimental::MasterLock")
}  // namespace Experimental
}  // namespace Kokkos
#undef WEFT_KOKKOS_NOT_PROVIDED
