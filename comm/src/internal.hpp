// Declarations shared by comm's own sources (not installed): the self communicator (comm.cpp), MPI's world
// and configuration (mpi.cpp), the NCCL device path (nccl.cpp).
#pragma once

#include <iosfwd>
#include <memory>

#include <weft/comm.hpp>

#if WEFT_HAS_MPI
#include <mpi.h>
#endif

namespace weft::comm::impl {
std::shared_ptr<CommImpl> make_self_comm();
#if WEFT_HAS_MPI
std::shared_ptr<CommImpl> mpi_world();
void mpi_print_configuration(std::ostream& os);
int mpi_job_size() noexcept;  // MPI_COMM_WORLD's size while MPI runs, else 1
[[noreturn]] void mpi_abort(int status) noexcept;
#endif
#if WEFT_HAS_NCCL
std::shared_ptr<DeviceComm> make_nccl_comm(MPI_Comm comm, int rank, int size);
#endif
}  // namespace weft::comm::impl
