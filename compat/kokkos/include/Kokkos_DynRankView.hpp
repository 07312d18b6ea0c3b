// Kokkos_DynRankView.hpp of Weft's Kokkos drop-in: Kokkos::DynRankView (weft::DynRankView), subdynrankview, rank(v).
#pragma once
#include <weft/compat/kokkos.hpp>
