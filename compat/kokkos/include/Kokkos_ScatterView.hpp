// Kokkos_ScatterView.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_ScatterView.hpp: Kokkos::Experimental::ScatterView is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
