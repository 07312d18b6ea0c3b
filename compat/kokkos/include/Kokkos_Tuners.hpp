// Kokkos_Tuners.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_Tuners.hpp: Kokkos::Tools::Experimental's tuners is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
