// partition_space: split an execution space into independent instances (own lock, own threads).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/error.hpp>
#include <weft/spaces.hpp>

namespace weft::experimental {

/// Returns one new instance per weight; each gets a share of exec's threads proportional to its weight
/// (at least one). Work on different instances may run concurrently from different host threads, and
/// fencing one does not wait for the others.
template <ExecutionSpace E, class... W>
std::array<E, sizeof...(W)> partition_space(const E& exec, W... weights) {
  static_assert(sizeof...(W) >= 1, "weft::experimental::partition_space needs at least one weight");
  static_assert((std::is_arithmetic_v<W> && ...), "weft::experimental::partition_space: weights are numbers");
  const double w[] = {static_cast<double>(weights)...};
  double total = 0;
  for (double x : w) {
    if (!(x > 0) || !std::isfinite(x))
      impl::throw_error("weft::experimental::partition_space: weight " + std::to_string(x) +
                        " is not a positive finite number; give weights > 0 (their ratios split the threads)");
    total += x;
  }
  auto make = [&](std::size_t i) {
    const int n = static_cast<int>(exec.concurrency() * w[i] / total);
    return E::impl_create_instance(n > 0 ? n : 1);
  };
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return std::array<E, sizeof...(W)>{make(I)...}; }
  (std::index_sequence_for<W...>{});
}

}  // namespace weft::experimental
