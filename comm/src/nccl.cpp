// comm/: collectives on device memory with NCCL, enqueued on the execution-space instance's stream (so they
// order with Weft kernels on it and can be captured in a CUDA graph). The ncclUniqueId travels over MPI; each
// rank uses the GPU Weft selected (--weft-device-id, or --weft-map-device-id-by=mpi_rank).
#include <mpi.h>
#include <nccl.h>

#include <cuda_runtime.h>

#include <string>

#include <weft/comm.hpp>

#include "internal.hpp"

namespace weft::comm::impl {
namespace {
void check_nccl(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess)
    throw Error(
        std::string("weft::comm: ") + call + " failed: " + ncclGetErrorString(rc) +
        (rc == ncclUnhandledCudaError || rc == ncclSystemError ? " (check that each rank has its own GPU)" : ""));
}

/// NCCL's element type for d and how many of them one element is (complex: two reals; int16: two bytes).
bool nccl_type(Dtype d, ncclDataType_t& t, std::size_t& mult) {
  mult = 1;
  switch (d) {
    case Dtype::byte:
    case Dtype::u8:
    case Dtype::boolean:
      t = ncclUint8;
      return true;
    case Dtype::i8:
      t = ncclInt8;
      return true;
    case Dtype::i16:
    case Dtype::u16:
      t = ncclUint8;
      mult = 2;
      return true;
    case Dtype::i32:
      t = ncclInt32;
      return true;
    case Dtype::u32:
      t = ncclUint32;
      return true;
    case Dtype::i64:
      t = ncclInt64;
      return true;
    case Dtype::u64:
      t = ncclUint64;
      return true;
    case Dtype::f32:
      t = ncclFloat32;
      return true;
    case Dtype::f64:
      t = ncclFloat64;
      return true;
    case Dtype::c32:
      t = ncclFloat32;
      mult = 2;
      return true;
    case Dtype::c64:
      t = ncclFloat64;
      mult = 2;
      return true;
  }
  return false;
}

class NcclComm final : public DeviceComm {
 public:
  NcclComm(MPI_Comm comm, int rank, int size) : size_(size) {
    ncclUniqueId id{};
    if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    if (MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm) != MPI_SUCCESS)
      throw Error("weft::comm: broadcasting the ncclUniqueId over MPI failed");
    check_nccl(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
  }
  ~NcclComm() override { release(); }
  void release() noexcept override {
    if (comm_) ncclCommDestroy(comm_);
    comm_ = nullptr;
  }
  bool supports(Dtype d, OpKind op) const noexcept override {
    switch (op) {
      case OpKind::none:
        return true;
      case OpKind::sum:
        return d != Dtype::boolean && d != Dtype::i16 && d != Dtype::u16;
      case OpKind::prod:
      case OpKind::min:
      case OpKind::max:
        return d != Dtype::boolean && d != Dtype::i16 && d != Dtype::u16 && d != Dtype::c32 && d != Dtype::c64;
      case OpKind::land:
      case OpKind::lor:
        return d == Dtype::boolean;  // min / max of 0 and 1
      case OpKind::band:
      case OpKind::bor:
        return false;
    }
    return false;
  }
  void allreduce(const void* s, void* r, std::size_t n, Dtype d, OpKind op, void* stream) override {
    auto [t, m] = type(d);
    check_nccl(ncclAllReduce(s, r, n * m, t, nccl_op(op), live(), cuda(stream)), "ncclAllReduce");
  }
  void reduce(const void* s, void* r, std::size_t n, Dtype d, OpKind op, int root, void* stream) override {
    auto [t, m] = type(d);
    check_nccl(ncclReduce(s, r, n * m, t, nccl_op(op), root, live(), cuda(stream)), "ncclReduce");
  }
  void broadcast(void* b, std::size_t n, Dtype d, int root, void* stream) override {
    auto [t, m] = type(d);
    check_nccl(ncclBroadcast(b, b, n * m, t, root, live(), cuda(stream)), "ncclBroadcast");
  }
  void allgather(const void* s, void* r, std::size_t n, Dtype d, void* stream) override {
    auto [t, m] = type(d);
    check_nccl(ncclAllGather(s, r, n * m, t, live(), cuda(stream)), "ncclAllGather");
  }
  void reduce_scatter(const void* s, void* r, std::size_t n, Dtype d, OpKind op, void* stream) override {
    auto [t, m] = type(d);
    check_nccl(ncclReduceScatter(s, r, n * m, t, nccl_op(op), live(), cuda(stream)), "ncclReduceScatter");
  }
  void alltoall(const void* s, void* r, std::size_t n, Dtype d, void* stream) override {
    auto [t, m] = type(d);
    const std::size_t bytes = n * dtype_size(d);
    auto* sc = static_cast<const char*>(s);
    auto* rc = static_cast<char*>(r);
    ncclComm_t c = live();
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < size_; ++peer) {
      check_nccl(ncclSend(sc + peer * bytes, n * m, t, peer, c, cuda(stream)), "ncclSend");
      check_nccl(ncclRecv(rc + peer * bytes, n * m, t, peer, c, cuda(stream)), "ncclRecv");
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  ncclComm_t comm_ = nullptr;
  int size_;

  ncclComm_t live() const {
    if (!comm_) throw Error("weft::comm: the NCCL communicator was released at weft::finalize");
    return comm_;
  }
  static cudaStream_t cuda(void* s) { return static_cast<cudaStream_t>(s); }
  static std::pair<ncclDataType_t, std::size_t> type(Dtype d) {
    ncclDataType_t t{};
    std::size_t m = 1;
    if (!nccl_type(d, t, m)) throw Error(std::string("weft::comm: NCCL has no type for ") + dtype_name(d));
    return {t, m};
  }
  static ncclRedOp_t nccl_op(OpKind op) {
    switch (op) {
      case OpKind::sum:
        return ncclSum;
      case OpKind::prod:
        return ncclProd;
      case OpKind::min:
      case OpKind::land:
        return ncclMin;
      case OpKind::max:
      case OpKind::lor:
        return ncclMax;
      default:
        break;
    }
    throw Error(std::string("weft::comm: NCCL has no operator ") + op_name(op));
  }
};
}  // namespace

std::shared_ptr<DeviceComm> make_nccl_comm(MPI_Comm comm, int rank, int size) {
  return std::make_shared<NcclComm>(comm, rank, size);
}
}  // namespace weft::comm::impl
