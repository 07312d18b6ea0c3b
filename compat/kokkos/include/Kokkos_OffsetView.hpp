// Kokkos_OffsetView.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_OffsetView.hpp: Kokkos::Experimental::OffsetView is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
