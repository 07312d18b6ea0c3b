// comm/: the MPI backend. Every MPI_Comm Weft uses is its own duplicate, with MPI_ERRORS_RETURN, so that an MPI
// error becomes a weft::Error carrying MPI's error string.
#include <mpi.h>

#include <sched.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <weft/comm.hpp>
#include <weft/comm/mpi.hpp>
#include <weft/impl/checked_size.hpp>

#include "internal.hpp"

namespace weft::comm::impl {
namespace {

std::string mpi_error_string(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<std::size_t>(len));
}
void check_mpi(int rc, const char* call, const std::string& what) {
  if (rc != MPI_SUCCESS)
    throw Error("weft::comm: " + std::string(call) + " failed" + (what.empty() ? "" : " in " + what) + ": " +
                mpi_error_string(rc));
}
int as_int_count(std::size_t n, const char* call) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw Error(std::string("weft::comm: ") + call + " of " + std::to_string(n) + " elements exceeds MPI's int count " +
                "limit (" + std::to_string(INT_MAX) +
                ") of MPI 3 (this MPI has no MPI 4 large-count calls); split "
                "the View into parts of at most that size");
  return static_cast<int>(n);
}

MPI_Datatype mpi_type(Dtype d) {
  switch (d) {
    case Dtype::byte:
      return MPI_BYTE;
    case Dtype::i8:
      return MPI_INT8_T;
    case Dtype::u8:
      return MPI_UINT8_T;
    case Dtype::i16:
      return MPI_INT16_T;
    case Dtype::u16:
      return MPI_UINT16_T;
    case Dtype::i32:
      return MPI_INT32_T;
    case Dtype::u32:
      return MPI_UINT32_T;
    case Dtype::i64:
      return MPI_INT64_T;
    case Dtype::u64:
      return MPI_UINT64_T;
    case Dtype::f32:
      return MPI_FLOAT;
    case Dtype::f64:
      return MPI_DOUBLE;
    case Dtype::c32:
      return MPI_C_FLOAT_COMPLEX;
    case Dtype::c64:
      return MPI_C_DOUBLE_COMPLEX;
    case Dtype::boolean:
      return MPI_C_BOOL;
  }
  return MPI_BYTE;
}
MPI_Op mpi_op(OpKind o) {
  switch (o) {
    case OpKind::sum:
      return MPI_SUM;
    case OpKind::prod:
      return MPI_PROD;
    case OpKind::min:
      return MPI_MIN;
    case OpKind::max:
      return MPI_MAX;
    case OpKind::land:
      return MPI_LAND;
    case OpKind::lor:
      return MPI_LOR;
    case OpKind::band:
      return MPI_BAND;
    case OpKind::bor:
      return MPI_BOR;
    case OpKind::none:
      break;
  }
  return MPI_OP_NULL;
}

bool mpi_finalized() {
  int f = 0;
  MPI_Finalized(&f);
  return f != 0;
}
void check_mpi_alive(const char* call) {
  if (mpi_finalized())
    throw Error(std::string("weft::comm::") + call + ": MPI is finalized; communicate before MPI_Finalize " +
                "(and before weft::finalize)");
}

bool query_cuda_aware() {
#if WEFT_HAS_CUDA && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

struct MpiRequest;

/// Receives wait here, per (source, tag) in the order they were posted, until a message is matched to them: a
/// message is probed first (MPI_Improbe), its size checked against the View, and only then received
/// (MPI_Imrecv) -- above the eager limit Open MPI's shared-memory single-copy path would write a longer message
/// past the buffer before reporting MPI_ERR_TRUNCATE. Messages of one (source, tag) match receives in posting
/// order, as MPI's own matching does. Every wait and test advances all queues, so that a rank waiting on a send
/// still matches the receives its peer's send needs.
struct Matcher {
  /// The receives of one source and tag not yet matched, oldest first. (A vector, not a std::map: hip-clang 15's
  /// device pass crashes instantiating that map in a HIP build.)
  struct Queue {
    int source, tag;
    std::deque<MpiRequest*> waiting;
  };
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<Queue> queues;
  void progress();
  void add(MpiRequest* r, int source, int tag) {
    for (Queue& q : queues)
      if (q.source == source && q.tag == tag) {
        q.waiting.push_back(r);
        return;
      }
    queues.push_back({source, tag, {r}});
  }
  void remove(MpiRequest* r) {
    for (auto it = queues.begin(); it != queues.end(); ++it)
      if (auto f = std::find(it->waiting.begin(), it->waiting.end(), r); f != it->waiting.end()) {
        it->waiting.erase(f);
        if (it->waiting.empty()) queues.erase(it);
        return;
      }
  }
};

/// Spins, then yields the core (ranks may outnumber cores).
void poll_pause(int& spins) {
  if (++spins > 64) sched_yield();
}

struct MpiRequest final : RequestState {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Status status{};
  MPI_Datatype type = MPI_BYTE;
  bool finished = false;  // completed without a request (a drained message): `error` says why
  std::shared_ptr<Matcher> matcher;
  // A receive not yet matched to a message.
  bool pending = false;
  void* buf = nullptr;
  int want = 0, source = 0, tag = 0;
  std::string error;

  ~MpiRequest() override {
    if (pending) {
      matcher->remove(this);  // never matched: MPI holds nothing of it
    } else if (req != MPI_REQUEST_NULL && !mpi_finalized()) {
      // Dropped before completion (an error unwinds past it): a matched receive lands before its buffer can go;
      // a send is left to MPI (MPI_Request_free), as a receiver that never comes would make a wait hang.
      if (is_recv)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      else
        MPI_Request_free(&req);
    }
  }
  bool impl_test() override {
    matcher->progress();
    if (pending) return false;
    if (!error.empty()) throw Error(error);
    if (finished) return true;
    int flag = 0;
    check_mpi(MPI_Test(&req, &flag, &status), "MPI_Test", what);
    return flag != 0;
  }
  void impl_wait() override {
    int spins = 0;
    for (matcher->progress(); pending; matcher->progress()) poll_pause(spins);
    if (!error.empty()) throw Error(error);
    if (finished) return;
    while (true) {
      int flag = 0;
      check_mpi(MPI_Test(&req, &flag, &status), "MPI_Test", what);
      if (flag) return;
      matcher->progress();
      poll_pause(spins);
    }
  }
  std::size_t impl_received() const override {
    int n = 0;
    MPI_Get_count(&status, type, &n);
    return n == MPI_UNDEFINED ? 0 : static_cast<std::size_t>(n);
  }
  /// The matched message, probed as `probed`: received when it fits, drained and an error when it is longer.
  void match(MPI_Message msg, const MPI_Status& probed) {
    pending = false;
    int got = 0;
    check_mpi(MPI_Get_count(&probed, type, &got), "MPI_Get_count", what);
    if (got == MPI_UNDEFINED || got > want) {
      int bytes = 0;
      MPI_Get_count(&probed, MPI_BYTE, &bytes);
      std::vector<char> sink(static_cast<std::size_t>(bytes > 0 ? bytes : 1));  // drained: MPI keeps nothing of ours
      check_mpi(MPI_Mrecv(sink.data(), bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv", what);
      finished = true;
      error = "weft::comm::" + what + ": rank " + std::to_string(source) + " sent " +
              (got == MPI_UNDEFINED ? std::to_string(bytes) + " bytes" : std::to_string(got) + " elements") +
              " but the View holds " + std::to_string(want) + "; send and receive Views of the same size";
      return;
    }
    check_mpi(MPI_Imrecv(buf, want, type, &msg, &req), "MPI_Imrecv", what);
  }
};

void Matcher::progress() {
  for (std::size_t k = 0; k < queues.size();) {
    Queue& q = queues[k];
    while (!q.waiting.empty()) {
      int flag = 0;
      MPI_Message msg;
      MPI_Status probed;
      check_mpi(MPI_Improbe(q.source, q.tag, comm, &flag, &msg, &probed), "MPI_Improbe", q.waiting.front()->what);
      if (!flag) break;
      MpiRequest* r = q.waiting.front();
      q.waiting.pop_front();
      r->match(msg, probed);
    }
    if (q.waiting.empty())
      queues.erase(queues.begin() + static_cast<std::ptrdiff_t>(k));
    else
      ++k;
  }
}

class MpiComm final : public CommImpl {
 public:
  /// Takes ownership of `c` (a communicator Weft created).
  explicit MpiComm(MPI_Comm c) : comm_(c) {
    check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", "");
    matcher_->comm = comm_;
    MPI_Comm_rank(comm_, &rank);
    MPI_Comm_size(comm_, &size);
    MPI_Comm node;
    check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type", "");
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_free(&node);
    cuda_aware = query_cuda_aware();
  }
  ~MpiComm() override {
    if (!mpi_finalized()) MPI_Comm_free(&comm_);
  }
  MPI_Comm handle() const noexcept { return comm_; }
  Backend backend() const noexcept override { return Backend::mpi; }

  void barrier() override {
    check_mpi_alive("barrier");
    check_mpi(MPI_Barrier(comm_), "MPI_Barrier", "");
  }
  std::shared_ptr<CommImpl> split(int color, int key) override {
    check_mpi_alive("split");
    if (color < 0)
      throw Error("weft::comm::Communicator::split: color " + std::to_string(color) + "; give a color >= 0");
    MPI_Comm c;
    check_mpi(MPI_Comm_split(comm_, color, key, &c), "MPI_Comm_split", "");
    return std::make_shared<MpiComm>(c);
  }
  void allreduce(const void* s, void* r, std::size_t n, Dtype d, OpKind op) override {
    check_mpi_alive("allreduce");
    check_mpi(MPI_Allreduce(s == r ? MPI_IN_PLACE : s, r, as_int_count(n, "allreduce"), mpi_type(d), mpi_op(op), comm_),
              "MPI_Allreduce", "");
  }
  void reduce(const void* s, void* r, std::size_t n, Dtype d, OpKind op, int root) override {
    check_mpi_alive("reduce");
    check_mpi(MPI_Reduce(s, r, as_int_count(n, "reduce"), mpi_type(d), mpi_op(op), root, comm_), "MPI_Reduce", "");
  }
  void broadcast(void* b, std::size_t n, Dtype d, int root) override {
    check_mpi_alive("broadcast");
    check_mpi(MPI_Bcast(b, as_int_count(n, "broadcast"), mpi_type(d), root, comm_), "MPI_Bcast", "");
  }
  void allgather(const void* s, void* r, std::size_t n, Dtype d) override {
    check_mpi_alive("allgather");
    as_int_count(weft::impl::size_mul(n, static_cast<std::size_t>(size)), "allgather");
    const int c = as_int_count(n, "allgather");
    check_mpi(MPI_Allgather(s, c, mpi_type(d), r, c, mpi_type(d), comm_), "MPI_Allgather", "");
  }
  void reduce_scatter(const void* s, void* r, std::size_t n, Dtype d, OpKind op) override {
    check_mpi_alive("reduce_scatter");
    as_int_count(weft::impl::size_mul(n, static_cast<std::size_t>(size)), "reduce_scatter");
    check_mpi(MPI_Reduce_scatter_block(s, r, as_int_count(n, "reduce_scatter"), mpi_type(d), mpi_op(op), comm_),
              "MPI_Reduce_scatter_block", "");
  }
  void alltoall(const void* s, void* r, std::size_t n, Dtype d) override {
    check_mpi_alive("alltoall");
    as_int_count(weft::impl::size_mul(n, static_cast<std::size_t>(size)), "alltoall");
    const int c = as_int_count(n, "alltoall");
    check_mpi(MPI_Alltoall(s, c, mpi_type(d), r, c, mpi_type(d), comm_), "MPI_Alltoall", "");
  }
  // Messages to this rank itself are copied through a local queue: Open MPI's self path truncates a message
  // longer than the receive buffer without an error, and a copy is cheaper anyway.
  std::shared_ptr<RequestState> isend(const void* buf, std::size_t n, Dtype d, int dest, int tag) override {
    check_mpi_alive("isend");
    if (dest == rank) return loopback_->isend(buf, n, d, 0, tag);
    auto req = std::make_shared<MpiRequest>();
    req->type = mpi_type(d);
    req->matcher = matcher_;
    check_mpi(MPI_Isend(buf, as_int_count(n, "isend"), req->type, dest, tag, comm_, &req->req), "MPI_Isend", "");
    return req;
  }
  /// Probe first (see Matcher): the receive is matched to a message, and its size checked, before any byte lands.
  std::shared_ptr<RequestState> irecv(void* buf, std::size_t n, Dtype d, int source, int tag) override {
    check_mpi_alive("irecv");
    if (source == rank) return loopback_->irecv(buf, n, d, 0, tag);
    auto req = std::make_shared<MpiRequest>();
    req->type = mpi_type(d);
    req->matcher = matcher_;
    req->buf = buf;
    req->want = as_int_count(n, "irecv");
    req->source = source;
    req->tag = tag;
    req->pending = true;
    req->is_recv = true;
    matcher_->add(req.get(), source, tag);
    return req;
  }
  /// Halo's receives, whose sizes both sides agreed on at construction: posted at once (MPI_Irecv), so that
  /// the transfer overlaps the interior work. Their tags are Halo's own, never shared with irecv's queues.
  std::shared_ptr<RequestState> irecv_agreed(void* buf, std::size_t n, Dtype d, int source, int tag) override {
    check_mpi_alive("irecv");
    if (source == rank) return loopback_->irecv(buf, n, d, 0, tag);
    auto req = std::make_shared<MpiRequest>();
    req->type = mpi_type(d);
    req->matcher = matcher_;
    req->is_recv = true;
    check_mpi(MPI_Irecv(buf, as_int_count(n, "irecv"), req->type, source, tag, comm_, &req->req), "MPI_Irecv", "");
    return req;
  }
  /// A blocking receive is a probe-first receive waited for: in posting order with the irecvs before it.
  std::shared_ptr<RequestState> recv(void* buf, std::size_t n, Dtype d, int source, int tag,
                                     const std::string& what) override {
    auto req = irecv(buf, n, d, source, tag);
    req->what = what;
    return req;
  }
  void agree(const std::string& what, const long* v, const char* const* names, int n) override {
    check_mpi_alive("agree");
    long buf[16];
    for (int i = 0; i < n; ++i) {
      buf[i] = v[i];
      buf[n + i] = -v[i];
    }
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, buf, 2 * n, MPI_LONG, MPI_MAX, comm_), "MPI_Allreduce", what);
    for (int i = 0; i < n; ++i)
      if (buf[i] != -buf[n + i]) {
        std::string mine = std::to_string(v[i]), lo = std::to_string(-buf[n + i]), hi = std::to_string(buf[i]);
        if (i == 1) {  // the element type: print names
          mine = dtype_name(static_cast<Dtype>(v[i]));
          lo = dtype_name(static_cast<Dtype>(-buf[n + i]));
          hi = dtype_name(static_cast<Dtype>(buf[i]));
        }
        throw CollectiveError(what + ": the ranks disagree on " + names[i] + ": rank " + std::to_string(rank) +
                                  " has " + mine + ", the ranks range from " + lo + " to " + hi +
                                  "; every rank must pass the same",
                              size);
      }
  }
  void dims_create(int nnodes, int ndims, int* dims) override {
    check_mpi(MPI_Dims_create(nnodes, ndims, dims), "MPI_Dims_create", "");
  }
  bool has_device() const noexcept override { return WEFT_HAS_NCCL != 0; }
  DeviceComm* device() override {
#if WEFT_HAS_NCCL
    if (!device_) {
      check_mpi_alive("NCCL initialisation");
      device_ = make_nccl_comm(comm_, rank, size);
      // NCCL communicators must go before the CUDA runtime does at weft::finalize.
      weft::push_finalize_hook([w = std::weak_ptr<DeviceComm>(device_)] {
        if (auto d = w.lock()) d->release();
      });
    }
#endif
    return device_.get();
  }

 private:
  MPI_Comm comm_;
  std::shared_ptr<Matcher> matcher_ = std::make_shared<Matcher>();
  std::shared_ptr<CommImpl> loopback_ = make_self_comm();
  std::shared_ptr<DeviceComm> device_;
};

bool g_weft_initialized_mpi = false;
}  // namespace

std::shared_ptr<CommImpl> mpi_world() {
  static std::shared_ptr<CommImpl> world;
  if (world) {
    check_mpi_alive("Communicator::world");
    return world;
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    check_mpi_alive("Communicator::world");
    int provided = 0;
    check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread", "");
    g_weft_initialized_mpi = true;
    weft::push_finalize_hook([] {
      if (!mpi_finalized()) {
        world.reset();
        MPI_Finalize();
      }
    });
  }
  MPI_Comm c;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &c), "MPI_Comm_dup", "Communicator::world");
  world = std::make_shared<MpiComm>(c);
  return world;
}

int mpi_job_size() noexcept {
  int initialized = 0, size = 1;
  MPI_Initialized(&initialized);
  if (!initialized || mpi_finalized()) return 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}
void mpi_abort(int status) noexcept {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);  // MPI_Abort does not return; should it, this rank still ends
}

void mpi_print_configuration(std::ostream& os) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::string v(version, static_cast<std::size_t>(len));
  if (auto nl = v.find('\n'); nl != std::string::npos) v.resize(nl);
  while (!v.empty() && (v.back() == ',' || v.back() == ' ')) v.pop_back();
  os << "    MPI: " << v << (g_weft_initialized_mpi ? " (initialised by Weft)" : "") << "\n"
     << "    paths: host memory -> " << to_string(Path::mpi_host) << "; device memory -> "
     << (WEFT_HAS_NCCL ? "NCCL for collectives on packed Views, else " : "")
     << (query_cuda_aware() ? to_string(Path::mpi_cuda_aware) : to_string(Path::mpi_staged)) << "\n";
}
}  // namespace weft::comm::impl

namespace weft::comm {
Communicator from_mpi(MPI_Comm c) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized || impl::mpi_finalized())
    throw Error("weft::comm::from_mpi: MPI is not running; call it between MPI_Init and MPI_Finalize");
  MPI_Comm dup;
  impl::check_mpi(MPI_Comm_dup(c, &dup), "MPI_Comm_dup", "from_mpi");
  return Communicator(std::make_shared<impl::MpiComm>(dup));
}
MPI_Comm mpi_comm(const Communicator& c) {
  if (auto* m = dynamic_cast<impl::MpiComm*>(c.impl_get())) return m->handle();
  throw Error("weft::comm::mpi_comm: the Communicator is not an MPI one (backend " +
              std::string(c.valid() ? to_string(c.backend()) : "empty") + ")");
}
}  // namespace weft::comm
