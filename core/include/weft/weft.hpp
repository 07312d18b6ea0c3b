// The whole of Weft's core: include this one header.
#pragma once

#include <weft/config.hpp>
#include <weft/macros.hpp>
#include <weft/error.hpp>
#include <weft/initialize.hpp>
#include <weft/backend_spaces.hpp>
#include <weft/atomics.hpp>
#include <weft/view.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>
#include <weft/parallel.hpp>
#include <weft/team.hpp>
#include <weft/backend_patterns.hpp>
#include <weft/deep_copy.hpp>
