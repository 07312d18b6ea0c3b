// One source per compile-time probe, compiled against Weft (default) or against Kokkos (-DCT_KOKKOS), so
// that both libraries compile the same program. Only the namespace and the lambda macro differ.
#pragma once
#if defined(CT_KOKKOS)
#include <Kokkos_Core.hpp>
namespace ct = Kokkos;
#define CT_LAMBDA KOKKOS_LAMBDA
#else
#include <weft/weft.hpp>
namespace ct = weft;
#define CT_LAMBDA WEFT_LAMBDA
#endif
