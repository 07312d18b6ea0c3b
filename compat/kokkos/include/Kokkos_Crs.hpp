// Kokkos_Crs.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error "Kokkos_Crs.hpp: Kokkos::Crs is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
