// Kokkos_Future.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Future.hpp: Kokkos::BasicFuture is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
