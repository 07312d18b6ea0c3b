// Kokkos_StaticCrsGraph.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_StaticCrsGraph.hpp: Kokkos::StaticCrsGraph is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
