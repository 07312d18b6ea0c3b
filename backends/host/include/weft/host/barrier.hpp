// The spin-then-yield barrier that the threads of one host team share.
#pragma once

namespace weft::impl {

struct HostTeamBarrier {
  int arrived = 0;
  int generation = 0;
};
void host_team_barrier_wait(HostTeamBarrier* b, int team_size) noexcept;

}  // namespace weft::impl
