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
      throw UsageError(app + ": " + params[k].first + " differs between ranks: rank " + std::to_string(world.rank()) +
                           " has " + text(params[k].second) + ", the ranks range from " + text(-v(n + k)) + " to " +
                           text(v(k)) + "; give every rank the same options (try --help)",
                       world.size() == weft::comm::job_size());
    }
}

/// weft_app::main's start-up agreement on --help / --weft-help (g_agree_on_help): one allreduce of the flag's
/// largest and smallest value over the job. A rank that printed its help and exited 0 alone would leave the other
/// ranks waiting for it in MPI's start-up; now every rank stops with a usage error instead.
inline void agree_on_help(const std::string& app, bool help) {
  const auto world = weft::comm::world();
  if (world.size() == 1) return;
  weft::View<double*, weft::HostSpace> v("weft_app help", 2);
  v(0) = help ? 1 : 0;
  v(1) = help ? -1 : 0;
  world.allreduce(weft::DefaultHostExecutionSpace(), v, weft::comm::Max{});
  if (v(0) != -v(1))
    throw UsageError(app + ": --help or --weft-help was given to some ranks only (rank " +
                         std::to_string(world.rank()) + (help ? " has it" : " has not") +
                         "); give it to every rank or to none",
                     world.size() == weft::comm::job_size());
}
inline const bool g_agree_on_help_installed = (g_agree_on_help = &agree_on_help, true);

/// The MPI apps' error policy (docs in apps/README.md, "Errors on some ranks"): an error raised on every rank
/// at once (the parameter agreement above, a comm::CollectiveError of the whole job) is reported by each rank,
/// which then finalizes and exits 2; any other error, seen by some ranks only while others may be waiting for
/// them, ends the whole job: the rank prints its line and calls MPI_Abort (weft::comm::abort_job), and the
/// launcher ends every rank with a non-zero status.
inline void end_job_on_error(const std::exception& error, bool every_rank) {
  const int ranks = weft::comm::job_size();
  if (auto* c = dynamic_cast<const weft::comm::CollectiveError*>(&error)) every_rank = c->ranks() == ranks;
  if (!every_rank && ranks > 1) weft::comm::abort_job(2);
}
inline const bool g_end_job_on_error_installed = (g_end_job_on_error = &end_job_on_error, true);

}  // namespace weft_app
