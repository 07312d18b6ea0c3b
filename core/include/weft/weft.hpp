// The whole of Weft's core: include this one header.
#pragma once

#include <weft/array.hpp>
#include <weft/atomics.hpp>
#include <weft/backend_patterns.hpp>  // generated from backends/backend_patterns.hpp.in
#include <weft/backend_spaces.hpp>    // generated from backends/backend_spaces.hpp.in
#include <weft/config.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/half.hpp>
#include <weft/host.hpp>
#include <weft/initialize.hpp>
#include <weft/macros.hpp>
#include <weft/parallel.hpp>
#include <weft/partition_space.hpp>
#include <weft/policies.hpp>
#include <weft/profiling.hpp>
#include <weft/reducers.hpp>
#include <weft/team.hpp>
#include <weft/view.hpp>
