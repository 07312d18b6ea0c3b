// partition_space: split an execution space into independent instances (own lock, own threads).
#pragma once

#include <cmath>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <weft/error.hpp>
#include <weft/spaces.hpp>

namespace weft::experimental {

namespace impl {
/// Checks the weights (positive, finite) and returns their sum.
inline double partition_weights_total(const double* w, std::size_t n) {
  if (n == 0)
    ::weft::impl::throw_error("weft::experimental::partition_space: no weights; give one weight per instance wanted");
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(w[i] > 0) || !std::isfinite(w[i]))
      ::weft::impl::throw_error("weft::experimental::partition_space: weight " + std::to_string(w[i]) +
                                " is not a positive finite number; give weights > 0 (their ratios split the threads)");
    total += w[i];
  }
  return total;
}
/// Instance i of a partition: its share of exec's threads (at least one).
template <ExecutionSpace E>
E partition_instance(const E& exec, double weight, double total) {
  const int n = static_cast<int>(exec.concurrency() * weight / total);
  return E::impl_create_instance(n > 0 ? n : 1);
}
}  // namespace impl

/// Returns one new instance per weight, in a std::vector (as Kokkos); each gets a share of exec's threads
/// proportional to its weight (at least one). Work on different instances may run concurrently from different host
/// threads, and fencing one does not wait for the others.
template <ExecutionSpace E, class... W>
requires(sizeof...(W) >= 1 && (std::is_arithmetic_v<W> && ...)) std::vector<E> partition_space(const E& exec,
                                                                                               W... weights) {
  const double w[] = {static_cast<double>(weights)...};
  const double total = impl::partition_weights_total(w, sizeof...(W));
  std::vector<E> parts;
  parts.reserve(sizeof...(W));
  for (double x : w) parts.push_back(impl::partition_instance(exec, x, total));
  return parts;
}

/// The same from a container of weights (std::vector, std::array, ...): one instance per element, in a
/// std::vector (Kokkos's partition_space(space, std::vector<T> weights)).
template <ExecutionSpace E, class Weights>
requires requires(const Weights& ws) {
  std::begin(ws);
  std::end(ws);
  requires std::is_arithmetic_v<std::remove_cvref_t<decltype(*std::begin(ws))>>;
}
std::vector<E> partition_space(const E& exec, const Weights& weights) {
  std::vector<double> w;
  for (const auto& x : weights) w.push_back(static_cast<double>(x));
  const double total = impl::partition_weights_total(w.data(), w.size());
  std::vector<E> parts;
  parts.reserve(w.size());
  for (double x : w) parts.push_back(impl::partition_instance(exec, x, total));
  return parts;
}

}  // namespace weft::experimental
