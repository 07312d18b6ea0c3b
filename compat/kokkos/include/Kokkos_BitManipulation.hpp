// Kokkos_BitManipulation.hpp of Weft's Kokkos drop-in: the Kokkos names of this header (and the rest of the covered
// subset).
#pragma once
#include <weft/compat/kokkos.hpp>
