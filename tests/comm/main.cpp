// The MPI test harness: every rank runs the doctest session; the ranks' results are combined so that all of
// them fail together. Rank 0 reports in full, the others only their failures. After weft::finalize, a
// Communicator must refuse to work.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include <weft/comm.hpp>
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::initialize(argc, argv);
  int rc = 0;
  weft::comm::Communicator world;
  {
    world = weft::comm::world();
    doctest::Context context(argc, argv);
    if (world.rank() != 0) {
      context.setOption("minimal", true);
      context.setOption("no-colors", true);
    }
    rc = context.run();
    if (context.shouldExit()) {
      weft::finalize();
      return rc;
    }
    rc = world.allreduce(rc, weft::comm::Max{});
  }
  weft::finalize();
  try {
    world.barrier();
    std::fprintf(stderr, "rank %d: a Communicator worked after weft::finalize\n", world.rank());
    rc = 1;
  } catch (const weft::Error& e) {
    if (world.rank() == 0) std::printf("after finalize: %s\n", e.what());
  }
  return rc;
}
