// impl/Kokkos_QuadPrecisionMath.hpp of Weft's Kokkos drop-in. Kokkos installs it among its public headers and gives
// it content only with KOKKOS_ENABLE_LIBQUADMATH (Kokkos's traits for __float128), which Weft does not define: as
// in such a Kokkos build, it brings Kokkos_Core.hpp's names and nothing more (Kokkos Kernels includes it).
#pragma once
#include <weft/compat/kokkos.hpp>
