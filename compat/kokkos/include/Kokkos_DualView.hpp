// Kokkos_DualView.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_DualView.hpp: Kokkos::DualView is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
