// comm/: what every backend shares (requests, checks, the Cartesian decomposition, halo geometry) and the
// one-rank Self backend.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>

#include <weft/comm.hpp>
#include <weft/impl/settings.hpp>

#include "internal.hpp"

namespace weft::comm {

const char* to_string(Backend b) noexcept {
  switch (b) {
    case Backend::self:
      return "Self";
    case Backend::mpi:
      return "MPI";
    case Backend::nccl:
      return "NCCL";
  }
  return "?";
}
const char* to_string(Path p) noexcept {
  switch (p) {
    case Path::self:
      return "self (one rank, local copies)";
    case Path::mpi_host:
      return "MPI on host memory";
    case Path::mpi_cuda_aware:
      return "CUDA-aware MPI on device memory";
    case Path::mpi_staged:
      return "MPI through host staging buffers";
    case Path::nccl:
      return "NCCL on device memory";
  }
  return "?";
}

namespace impl {
std::size_t dtype_size(Dtype d) noexcept {
  switch (d) {
    case Dtype::byte:
    case Dtype::i8:
    case Dtype::u8:
    case Dtype::boolean:
      return 1;
    case Dtype::i16:
    case Dtype::u16:
      return 2;
    case Dtype::i32:
    case Dtype::u32:
    case Dtype::f32:
      return 4;
    case Dtype::i64:
    case Dtype::u64:
    case Dtype::f64:
    case Dtype::c32:
      return 8;
    case Dtype::c64:
      return 16;
  }
  return 1;
}
const char* dtype_name(Dtype d) noexcept {
  static const char* names[] = {"bytes", "int8",   "uint8", "int16",  "uint16",         "int32",           "uint32",
                                "int64", "uint64", "float", "double", "complex<float>", "complex<double>", "bool"};
  return names[static_cast<int>(d)];
}
const char* op_name(OpKind o) noexcept {
  static const char* names[] = {"none", "Sum", "Prod", "Min", "Max", "LogicalAnd", "LogicalOr", "BitAnd", "BitOr"};
  return names[static_cast<int>(o)];
}

void throw_comm_error(const std::string& message) { throw Error(message); }
void throw_collective_error(const std::string& message, const CommImpl* c) {
  throw CollectiveError(message, c ? c->size : 1);
}
std::string describe(const char* call, const std::string& label) {
  return std::string("weft::comm::") + call + " on View \"" + label + "\"";
}
bool checks_enabled() noexcept {
  static const bool on = weft::impl::env_flag("WEFT_COMM_CHECKS", true);
  return on;
}
void check_usable(const CommImpl* c, const char* call, const std::string& label) {
  if (!c)
    throw Error(describe(call, label) +
                ": the Communicator is empty (default-constructed); use "
                "Communicator::world(), self() or split()");
  if (!weft::is_initialized())
    throw Error(describe(call, label) + ": Weft is " + (weft::is_finalized() ? "finalized" : "not initialized") +
                "; communicate between weft::initialize and weft::finalize");
}

void RequestState::complete() {
  if (done) return;
  done = true;
  if (is_recv) {
    const std::size_t got = impl_received();
    if (got != expected)
      throw Error("weft::comm::" + what + ": the message has " + std::to_string(got) + " elements but the View " +
                  "holds " + std::to_string(expected) + "; send and receive Views of the same size");
  }
  if (on_complete) {
    auto f = std::move(on_complete);
    on_complete = nullptr;
    f();
  }
}

namespace {
// ---- Self: one rank; messages to itself are matched by tag through a queue ------------------------------
struct SelfRequest final : RequestState {
  bool matched = false;
  std::size_t received = 0;
  bool impl_test() override { return matched; }
  void impl_wait() override {
    if (!matched)
      throw Error("weft::comm::" + what +
                  ": no matching message on the one-rank Self communicator, so this would "
                  "wait forever; post the matching isend/irecv first");
  }
  std::size_t impl_received() const override { return received; }
};

class SelfComm final : public CommImpl {
 public:
  Backend backend() const noexcept override { return Backend::self; }
  void barrier() override {}
  std::shared_ptr<CommImpl> split(int, int) override { return std::make_shared<SelfComm>(); }
  void allreduce(const void* s, void* r, std::size_t n, Dtype d, OpKind) override { copy(s, r, n, d); }
  void reduce(const void* s, void* r, std::size_t n, Dtype d, OpKind, int) override { copy(s, r, n, d); }
  void broadcast(void*, std::size_t, Dtype, int) override {}
  void allgather(const void* s, void* r, std::size_t n, Dtype d) override { copy(s, r, n, d); }
  void reduce_scatter(const void* s, void* r, std::size_t n, Dtype d, OpKind) override { copy(s, r, n, d); }
  void alltoall(const void* s, void* r, std::size_t n, Dtype d) override { copy(s, r, n, d); }

  std::shared_ptr<RequestState> isend(const void* buf, std::size_t n, Dtype d, int, int tag) override {
    auto req = std::make_shared<SelfRequest>();
    const std::size_t bytes = n * dtype_size(d);
    std::lock_guard lock(mutex_);
    for (auto it = recvs_.begin(); it != recvs_.end(); ++it)
      if (it->tag == tag) {
        Posted posted = *it;
        recvs_.erase(it);
        req->matched = true;
        deliver(posted, buf, n, d);
        return req;
      }
    Message m{tag, n, d, std::vector<char>(bytes)};
    if (bytes) std::memcpy(m.data.data(), buf, bytes);
    sends_.push_back(std::move(m));
    req->matched = true;  // buffered: the send buffer is free at once
    return req;
  }
  std::shared_ptr<RequestState> irecv(void* buf, std::size_t n, Dtype d, int, int tag) override {
    auto req = std::make_shared<SelfRequest>();
    std::lock_guard lock(mutex_);
    Posted p{tag, buf, n, d, req};
    for (auto it = sends_.begin(); it != sends_.end(); ++it)
      if (it->tag == tag) {
        deliver(p, it->data.data(), it->n, it->d);
        sends_.erase(it);
        return req;
      }
    recvs_.push_back(p);
    return req;
  }
  void agree(const std::string&, const long*, const char* const*, int) override {}
  void dims_create(int, int ndims, int* dims) override {
    for (int i = 0; i < ndims; ++i)
      if (dims[i] == 0) dims[i] = 1;
  }

 private:
  struct Message {
    int tag;
    std::size_t n;
    Dtype d;
    std::vector<char> data;
  };
  struct Posted {
    int tag;
    void* buf;
    std::size_t n;
    Dtype d;
    std::shared_ptr<SelfRequest> req;
  };
  std::mutex mutex_;
  std::deque<Message> sends_;
  std::deque<Posted> recvs_;

  static void copy(const void* s, void* r, std::size_t n, Dtype d) {
    if (s != r && n) std::memmove(r, s, n * dtype_size(d));
  }
  static void deliver(Posted& p, const void* data, std::size_t n, Dtype d) {
    const std::size_t bytes = n * dtype_size(d), room = p.n * dtype_size(p.d);
    if (bytes > room)
      throw Error("weft::comm::" + p.req->what + ": a message of " + std::to_string(n) +
                  " elements does not fit "
                  "the " +
                  std::to_string(p.n) + " of the receiving View (nothing is truncated); make them equal");
    if (bytes) std::memcpy(p.buf, data, bytes);
    p.req->received = bytes / dtype_size(p.d);
    p.req->matched = true;
  }
};

}  // namespace
std::shared_ptr<CommImpl> make_self_comm() { return std::make_shared<SelfComm>(); }
namespace {
void print_configuration(std::ostream& os) {
  os << "  comm: backends Self";
#if WEFT_HAS_MPI
  os << " MPI";
#endif
  os << "\n";
#if WEFT_HAS_MPI
  mpi_print_configuration(os);
#else
  os << "    MPI: not built (configure with -DWEFT_ENABLE_MPI=ON); world() is the one-rank Self communicator\n";
#endif
}
[[maybe_unused]] const bool registered = [] {
  weft::impl::add_configuration_printer(&print_configuration);
  return true;
}();
}  // namespace
}  // namespace impl

// ---- the job ---------------------------------------------------------------------------------------------
int job_size() noexcept {
#if WEFT_HAS_MPI
  return impl::mpi_job_size();
#else
  return 1;
#endif
}
void abort_job(int status, const std::string& message) noexcept {
  if (!message.empty()) std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stdout);
  std::fflush(stderr);
#if WEFT_HAS_MPI
  if (impl::mpi_job_size() > 1) impl::mpi_abort(status);
#endif
  std::_Exit(status);
}

// ---- Request, Communicator ------------------------------------------------------------------------------
void Request::wait() {
  if (!s_) throw Error("weft::comm::Request::wait: the Request is empty (default-constructed)");
  if (!s_->done) s_->impl_wait();
  s_->complete();
}
bool Request::test() {
  if (!s_) throw Error("weft::comm::Request::test: the Request is empty (default-constructed)");
  if (s_->done) return true;
  if (!s_->impl_test()) return false;
  s_->complete();
  return true;
}
void wait_all(std::span<Request> requests) {
  std::exception_ptr first;
  for (auto& r : requests) {
    try {
      if (r.valid()) r.wait();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

Communicator Communicator::self() { return Communicator(impl::make_self_comm()); }
Communicator Communicator::world() {
#if WEFT_HAS_MPI
  return Communicator(impl::mpi_world());
#else
  static auto w = impl::make_self_comm();
  return Communicator(w);
#endif
}
Communicator Communicator::split(int color, int key) const {
  impl::check_usable(impl_.get(), "split", "(communicator)");
  return Communicator(impl_->split(color, key));
}
void Communicator::barrier() const {
  impl::check_usable(impl_.get(), "barrier", "(communicator)");
  impl_->barrier();
}
void Communicator::check_root(const std::string& what, int root) const {
  if (root < 0 || root >= size())
    throw Error(what + ": root " + std::to_string(root) + " is not a rank of this communicator (size " +
                std::to_string(size()) + "); give a root in [0, " + std::to_string(size() - 1) + "]");
}
void Communicator::check_peer(const std::string& what, int peer, const char* role) const {
  if (peer < 0 || peer >= size())
    throw Error(what + ": " + role + " rank " + std::to_string(peer) + " is not a rank of this communicator (size " +
                std::to_string(size()) + ")");
}
void Communicator::check_multiple(const std::string& what, const char* big_name, std::size_t big,
                                  const char* small_name, std::size_t small) const {
  const std::size_t p = static_cast<std::size_t>(size());
  if (big != p * small)
    throw Error(what + ": " + big_name + " has " + std::to_string(big) + " elements but must have size() * (" +
                small_name + "'s " + std::to_string(small) + ") = " + std::to_string(p * small) + " with " +
                std::to_string(p) + " ranks");
}
void Communicator::agree(const std::string& what, std::size_t count, impl::Dtype d, impl::OpKind op, int root,
                         bool device) const {
  if (!impl::checks_enabled() || size() == 1) return;
  const long v[5] = {static_cast<long>(count), static_cast<long>(d), static_cast<long>(op), root, device ? 1 : 0};
  static const char* const names[5] = {"the element count", "the element type", "the operator", "the root",
                                       "the path (1: NCCL on packed device memory, 0: MPI; pass packed device Views "
                                       "on every rank or on none)"};
  impl_->agree(what, v, names, 5);
}

// ---- CartesianDecomposition ---------------------------------------------------------------------------
CartesianDecomposition::CartesianDecomposition(const Communicator& comm, std::vector<long> global,
                                               std::vector<bool> periodic, std::vector<int> dims)
    : comm_(comm) {
  const std::string what = "weft::comm::CartesianDecomposition";
  impl::check_usable(comm.impl_get(), "CartesianDecomposition", "(grid)");
  ndims_ = static_cast<int>(global.size());
  if (ndims_ < 1 || ndims_ > 3)
    throw Error(what + ": " + std::to_string(ndims_) + " global extents given; give 1, 2 or 3");
  if (!periodic.empty() && static_cast<int>(periodic.size()) != ndims_)
    throw Error(what + ": " + std::to_string(periodic.size()) + " periodic flags for " + std::to_string(ndims_) +
                " dimensions; give one per dimension (or none)");
  if (!dims.empty() && static_cast<int>(dims.size()) != ndims_)
    throw Error(what + ": " + std::to_string(dims.size()) + " rank counts for " + std::to_string(ndims_) +
                " dimensions; give one per dimension (0 = let MPI_Dims_create choose), or none");
  int d_in[3] = {0, 0, 0};
  long fixed = 1;
  for (int d = 0; d < ndims_; ++d) {
    if (global[d] < 1)
      throw Error(what + ": global extent " + std::to_string(global[d]) + " along dimension " + std::to_string(d) +
                  "; every extent must be at least 1");
    global_[d] = global[d];
    periodic_[d] = periodic.empty() ? false : bool(periodic[d]);
    d_in[d] = dims.empty() ? 0 : dims[d];
    if (d_in[d] < 0) throw Error(what + ": negative rank count along dimension " + std::to_string(d));
    if (d_in[d] > 0) fixed *= d_in[d];
  }
  const int p = comm.size();
  if (fixed > p || p % fixed != 0)
    throw Error(what + ": the fixed rank counts multiply to " + std::to_string(fixed) + ", which does not divide " +
                std::to_string(p) + " ranks");
  comm.impl_get()->dims_create(p, ndims_, d_in);
  long prod = 1;
  for (int d = 0; d < ndims_; ++d) prod *= d_in[d];
  if (prod != p)
    throw Error(what + ": rank counts multiply to " + std::to_string(prod) + " but the communicator has " +
                std::to_string(p) + " ranks");
  int r = comm.rank();
  for (int d = ndims_ - 1; d >= 0; --d) {
    dims_[d] = d_in[d];
    coords_[d] = r % d_in[d];
    r /= d_in[d];
  }
  for (int d = 0; d < ndims_; ++d) {
    if (dims_[d] > global_[d])
      throw Error(what + ": " + std::to_string(dims_[d]) + " ranks along dimension " + std::to_string(d) +
                  " but only " + std::to_string(global_[d]) + " cells; use fewer ranks or a larger grid");
    const long base = global_[d] / dims_[d], extra = global_[d] % dims_[d], c = coords_[d];
    local_[d] = base + (c < extra ? 1 : 0);
    offset_[d] = c * base + std::min(c, extra);
  }
}
int CartesianDecomposition::check(int d) const {
  if (d < 0 || d >= ndims_)
    throw Error("weft::comm::CartesianDecomposition: dimension " + std::to_string(d) + " of a " +
                std::to_string(ndims_) + "-dimensional decomposition");
  return d;
}
int CartesianDecomposition::rank_of(const std::array<int, 3>& c) const {
  int r = 0;
  for (int d = 0; d < ndims_; ++d) r = r * dims_[d] + c[d];
  return r;
}
int CartesianDecomposition::neighbor(int d, int side) const {
  check(d);
  if (side != -1 && side != 1)
    throw Error("weft::comm::CartesianDecomposition::neighbor: side " + std::to_string(side) + "; give -1 or +1");
  auto c = coords_;
  c[d] += side;
  if (c[d] < 0 || c[d] >= dims_[d]) {
    if (!periodic_[d]) return no_neighbor;
    c[d] = (c[d] + dims_[d]) % dims_[d];
  }
  return rank_of(c);
}

// ---- halo geometry ----------------------------------------------------------------------------------
namespace impl {
int halo_tag(int d, int side) noexcept { return 7100 + 2 * d + (side > 0 ? 1 : 0); }

std::vector<HaloMessage> halo_messages(const CartesianDecomposition& dec, const long* ext, int rank, int width,
                                       HaloShape shape, int d, const std::string& label) {
  const std::string what = "weft::comm::Halo on View \"" + label + "\"";
  if (width < 1) throw Error(what + ": width " + std::to_string(width) + "; give a ghost width of at least 1");
  for (int e = 0; e < rank; ++e) {
    const long want = dec.local_extent(e) + 2L * width;
    if (ext[e] != want)
      throw Error(what + ": extent(" + std::to_string(e) + ") is " + std::to_string(ext[e]) + " but this rank owns " +
                  std::to_string(dec.local_extent(e)) + " cells along dimension " + std::to_string(e) + ", so with " +
                  "width " + std::to_string(width) + " it must be " + std::to_string(want));
    if (dec.local_extent(e) < width && (dec.dims(e) > 1 || dec.periodic(e)))
      throw Error(what + ": this rank owns " + std::to_string(dec.local_extent(e)) + " cells along dimension " +
                  std::to_string(e) + ", fewer than the ghost width " + std::to_string(width) +
                  "; use fewer ranks or a larger grid");
  }
  std::vector<HaloMessage> out;
  for (int side : {-1, 1}) {
    HaloMessage m;
    m.dim = d;
    m.side = side;
    m.peer = dec.neighbor(d, side);
    if (m.peer == CartesianDecomposition::no_neighbor) continue;
    std::size_t count = 1;
    for (int e = 0; e < 3; ++e) {
      if (e >= rank) {
        m.ext[e] = 1;
        continue;
      }
      const long n = dec.local_extent(e);
      if (e == d) {
        m.ext[e] = width;
        m.send_lo[e] = side < 0 ? width : n;
        m.recv_lo[e] = side < 0 ? 0 : n + width;
      } else if (shape == HaloShape::full && e < d) {
        m.ext[e] = n + 2L * width;  // includes the ghosts filled by the earlier dimensions: edges, corners
        m.send_lo[e] = m.recv_lo[e] = 0;
      } else {
        m.ext[e] = n;
        m.send_lo[e] = m.recv_lo[e] = width;
      }
      count *= static_cast<std::size_t>(m.ext[e]);
    }
    m.count = count;
    out.push_back(m);
  }
  return out;
}
}  // namespace impl
}  // namespace weft::comm
