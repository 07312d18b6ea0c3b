// Interoperation with an application that owns MPI: wrap its MPI_Comm, or get the one Weft uses.
#pragma once

#include <mpi.h>

#include <weft/comm/communicator.hpp>

namespace weft::comm {
/// A Communicator over the ranks of `c` (Weft duplicates it; the application keeps `c`). MPI must be running.
Communicator from_mpi(MPI_Comm c);
/// The MPI_Comm behind an MPI Communicator (Weft's duplicate: do not free it).
MPI_Comm mpi_comm(const Communicator& c);
}  // namespace weft::comm
