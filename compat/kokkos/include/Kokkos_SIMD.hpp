// Kokkos_SIMD.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_SIMD.hpp: Kokkos::Experimental::simd is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
