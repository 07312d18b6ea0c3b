// Kokkos_Graph.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Graph.hpp: Kokkos::Experimental::Graph is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
