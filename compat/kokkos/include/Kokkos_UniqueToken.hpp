// Kokkos_UniqueToken.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_UniqueToken.hpp: Kokkos::Experimental::UniqueToken is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
