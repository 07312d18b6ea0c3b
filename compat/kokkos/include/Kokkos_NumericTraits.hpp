// Kokkos_NumericTraits.hpp of Weft's Kokkos drop-in: Kokkos::Experimental's numeric traits (epsilon, finite_max, ...).
#pragma once
#include <weft/compat/kokkos.hpp>
