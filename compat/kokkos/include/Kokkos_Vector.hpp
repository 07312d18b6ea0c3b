// Kokkos_Vector.hpp of Weft's Kokkos drop-in: Kokkos::vector (weft::DualVector).
#pragma once
#include <weft/compat/kokkos.hpp>
