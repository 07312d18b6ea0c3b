// weft algorithms: sort / sort_by_key, the nested sorts (sort_team, sort_thread, ...), BinSort, the std algorithms on
// Views (weft::experimental), random numbers.
#pragma once

#include <weft/algorithms/bin_sort.hpp>
#include <weft/algorithms/nested_sort.hpp>
#include <weft/algorithms/random.hpp>
#include <weft/algorithms/sort.hpp>
#include <weft/algorithms/std_algorithms.hpp>
