// Kokkos_ErrorReporter.hpp of Weft's Kokkos drop-in: not provided.
#pragma once
#error \
    "Kokkos_ErrorReporter.hpp: Kokkos::Experimental::ErrorReporter is not provided by Weft's Kokkos compatibility layer (docs/kokkos.md lists what is)"
