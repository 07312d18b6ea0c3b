// The spin-then-yield barrier that the threads of one host team share.
#pragma once

namespace weft::impl {

struct HostTeamBarrier {
  int arrived = 0;
  int generation = 0;
};
/// Waits for the team; throws HostRegionAborted when the region failed (a teammate threw and will not come).
void host_team_barrier_wait(HostTeamBarrier* b, int team_size);

}  // namespace weft::impl
