// What the MPI mini-apps share: every rank must run with the same parameters.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <weft/comm.hpp>

#include "app_common.hpp"

namespace weft_app {

/// One small collective at start-up (an allreduce of each parameter's largest and smallest value): a rank given
/// other options than the rest would otherwise deadlock later (a different step count) or fail far from the
/// cause. Every rank raises a usage error naming the parameter, its own value and the range over the ranks.
inline void agree_parameters(const weft::comm::Communicator& world, const std::string& app,
                             const std::vector<std::pair<std::string, double>>& params) {
  const std::size_t n = params.size();
  weft::View<double*, weft::HostSpace> v("weft_app parameters", 2 * n);
  for (std::size_t k = 0; k < n; ++k) {
    v(k) = params[k].second;
    v(n + k) = -params[k].second;  // the largest of -x is minus the smallest x
  }
  world.allreduce(weft::DefaultHostExecutionSpace(), v, weft::comm::Max{});
  for (std::size_t k = 0; k < n; ++k)
    if (v(k) != -v(n + k)) {
      auto text = [](double x) {
        char b[40];
        std::snprintf(b, sizeof b, "%.10g", x);
        return std::string(b);
      };
      usage_error(app, params[k].first + " differs between ranks: rank " + std::to_string(world.rank()) + " has " +
                           text(params[k].second) + ", the ranks range from " + text(-v(n + k)) + " to " + text(v(k)) +
                           "; give every rank the same options");
    }
}

}  // namespace weft_app
