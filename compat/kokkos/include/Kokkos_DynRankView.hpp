// Kokkos_DynRankView.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_DynRankView.hpp: Kokkos::DynRankView is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
