// Fault injection on two ranks (ctest label `faults`): rank 1 fails mid-run while rank 0 waits for it in a
// receive. Each case must end the whole job within seconds with a non-zero exit and a message, never hang:
//   faults kill     rank 1 kills itself (SIGKILL): the launcher ends the job and names the rank and signal;
//   faults throw    rank 1 raises a weft::Error no one catches: the C++ runtime prints it and aborts the rank,
//                   and the launcher ends the job, so rank 0 does not wait forever;
//   faults exit     rank 1 exits with an error code without finalizing: the launcher ends the job;
//   faults partial  in the MPI apps' main (weft_app::main + app_mpi.hpp), rank 1 raises a weft::Error that the
//                   app reports: it is not an error of every rank, so the rank calls MPI_Abort (returning
//                   through MPI_Finalize would wait for rank 0, which waits for rank 1: a hang);
//   faults every    in the same main, the ranks disagree on a collective's size: every rank raises a
//                   CollectiveError, reports it and exits 2 through MPI_Finalize, with no MPI_Abort.
// What ends the job is Open MPI's launcher (mpiexec aborts a job when a rank dies or exits non-zero); the
// messages matched are Debian 12's Open MPI 4.1. Weft's part is that nothing hangs on the way: rank 0's receive
// is an MPI call the launcher can interrupt.
#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <weft/comm.hpp>
#include <weft/weft.hpp>

#include "app_mpi.hpp"

namespace {
int app_case(int argc, char* argv[]) {
  return weft_app::main(argc, argv, "faults", "usage: faults partial|every\n", [](weft_app::Args&) {
    auto c = weft::comm::world();
    weft::View<double*, weft::HostSpace> v("fault_buffer", 1000 + (c.rank() == 1 ? 1 : 0));
    c.barrier();
    if (std::strcmp(getenv("WEFT_FAULTS_MODE"), "every") == 0) {
      c.allreduce(weft::DefaultHostExecutionSpace(), v, weft::comm::Sum{});  // sizes differ: raises everywhere
    } else {
      if (c.rank() == 1) {
        usleep(200000);
        throw weft::Error("faults: rank 1 failed on purpose");
      }
      c.recv(weft::DefaultHostExecutionSpace(), v, 1, 5);  // rank 1 never sends
    }
    std::printf("faults: rank %d went on, which it should not have\n", c.rank());
    return 0;
  });
}
}  // namespace

int main(int argc, char* argv[]) {
  const char* mode = argc > 1 ? argv[1] : "kill";
  if (std::strcmp(mode, "partial-without-policy") == 0) {  // what the policy prevents: a hang (the test times out)
    weft_app::g_end_job_on_error = nullptr;
    mode = "partial";
  }
  if (std::strcmp(mode, "partial") == 0 || std::strcmp(mode, "every") == 0) {
    setenv("WEFT_FAULTS_MODE", mode, 1);
    int one = 1;
    return app_case(one, argv);
  }
  weft::ScopeGuard guard(argc, argv);
  auto c = weft::comm::world();
  if (c.size() != 2) {
    std::fprintf(stderr, "faults: run on 2 ranks\n");
    return 2;
  }
  weft::View<double*, weft::HostSpace> v("fault_buffer", 1000);
  c.barrier();  // both ranks are up and talking: the fault comes mid-run
  if (c.rank() == 1) {
    usleep(200000);
    if (std::strcmp(mode, "kill") == 0) raise(SIGKILL);
    if (std::strcmp(mode, "throw") == 0) throw weft::Error("faults: rank 1 failed on purpose");
    if (std::strcmp(mode, "exit") == 0) {
      std::fprintf(stderr, "faults: rank 1 exits with 3\n");
      std::_Exit(3);
    }
  }
  c.recv(weft::DefaultHostExecutionSpace(), v, 1, 5);  // rank 1 never sends
  std::printf("faults: rank 0 received, which it should not have\n");
  return 0;
}
