// Kokkos_DynamicView.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_DynamicView.hpp: Kokkos::Experimental::DynamicView is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
