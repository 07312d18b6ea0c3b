// Kokkos_Bitset.hpp of Weft's Kokkos drop-in: Kokkos::Bitset and Kokkos::ConstBitset (weft::Bitset, ConstBitset).
#pragma once
#include <weft/compat/kokkos.hpp>
