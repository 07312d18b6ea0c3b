// Kokkos_OffsetView.hpp of Weft's Kokkos drop-in: Kokkos::Experimental::OffsetView (weft::OffsetView).
#pragma once
#include <weft/compat/kokkos.hpp>
