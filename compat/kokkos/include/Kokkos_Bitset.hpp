// Kokkos_Bitset.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Bitset.hpp: Kokkos::Bitset is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
