// Kokkos_Complex.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Complex.hpp: Kokkos::complex is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
