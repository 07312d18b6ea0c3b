// Kokkos_StaticCrsGraph.hpp of Weft's Kokkos drop-in: Kokkos::StaticCrsGraph, GraphRowViewConst,
// create_staticcrsgraph, create_mirror(_view) of a graph, maximum_entry (weft/containers/static_crs_graph.hpp).
#pragma once
#include <weft/compat/kokkos.hpp>
#include <weft/containers/static_crs_graph.hpp>
