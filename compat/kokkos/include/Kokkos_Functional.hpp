// Kokkos_Functional.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Functional.hpp: Kokkos::pod_hash and pod_equal_to is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
