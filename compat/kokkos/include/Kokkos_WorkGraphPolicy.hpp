// Kokkos_WorkGraphPolicy.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_WorkGraphPolicy.hpp: Kokkos::WorkGraphPolicy is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
