// Kokkos_DynamicView.hpp of Weft's Kokkos drop-in: Kokkos::Experimental::DynamicView (weft::DynamicView).
#pragma once
#include <weft/compat/kokkos.hpp>
