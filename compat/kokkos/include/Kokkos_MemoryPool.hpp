// Kokkos_MemoryPool.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_MemoryPool.hpp: Kokkos::MemoryPool is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
