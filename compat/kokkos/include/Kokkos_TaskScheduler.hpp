// Kokkos_TaskScheduler.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_TaskScheduler.hpp: Kokkos::TaskScheduler is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
