// Kokkos_NumericTraits.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_NumericTraits.hpp: Kokkos::Experimental's numeric traits (finite_max, epsilon, ...) is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
