// Kokkos_Profiling_ProfileSection.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Profiling_ProfileSection.hpp: Kokkos::Profiling::ProfilingSection is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
