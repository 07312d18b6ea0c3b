// Kokkos_Vector.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Vector.hpp: Kokkos::vector is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
