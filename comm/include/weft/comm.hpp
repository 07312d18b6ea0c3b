// weft::comm: communication between ranks on Views (MPI, or the one-rank Self), Cartesian decompositions
// and halo exchange. <weft/comm/mpi.hpp> adds MPI_Comm interoperation.
#pragma once

#include <weft/comm/cartesian.hpp>
#include <weft/comm/communicator.hpp>
#include <weft/comm/halo.hpp>
#include <weft/comm/types.hpp>
