// Kokkos_UnorderedMap.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_UnorderedMap.hpp: Kokkos::UnorderedMap is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
