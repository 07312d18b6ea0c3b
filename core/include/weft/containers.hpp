// Weft's containers: Bitset, DualView, DualVector, OffsetView, DynRankView, ScatterView, UniqueToken, UnorderedMap,
// complex, simd (Array is in the core: <weft/array.hpp>).
#pragma once

#include <weft/array.hpp>
#include <weft/containers/bitset.hpp>
#include <weft/containers/complex.hpp>
#include <weft/containers/dual_vector.hpp>
#include <weft/containers/dual_view.hpp>
#include <weft/containers/dyn_rank_view.hpp>
#include <weft/containers/dynamic_view.hpp>
#include <weft/containers/offset_view.hpp>
#include <weft/containers/scatter_view.hpp>
#include <weft/containers/simd.hpp>
#include <weft/containers/static_crs_graph.hpp>
#include <weft/containers/unique_token.hpp>
#include <weft/containers/unordered_map.hpp>
