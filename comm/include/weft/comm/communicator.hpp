// weft::comm::Communicator: collectives and point-to-point messages on Views, over MPI or one rank (Self).
//
// Stream ordering (the contract every call keeps; see comm/README.md):
//  - A call that reads a View first fences only the execution-space instance it was given, so the View
//    holds what earlier work on that instance wrote. No global fence, no other instance.
//  - A blocking call that writes a View returns with host-memory Views complete; device-memory Views are
//    written by a copy enqueued on the given instance, so later work on that instance sees the result and
//    host code reads it after exec.fence() (or a deep_copy, which fences).
//  - A nonblocking call (isend/irecv) returns a Request; the View must stay unmodified (isend) or
//    untouched (irecv) until wait()/test() says it completed. Completion of an irecv into device memory
//    enqueues its copy on the instance given to irecv.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <weft/comm/types.hpp>
#include <weft/weft.hpp>

namespace weft::comm {

class Communicator;

/// A weft::Error raised on every rank of a communicator at the same call (the cross-rank agreement of a
/// collective, a Halo whose faces differ between neighbours): no rank of that communicator is left waiting, so
/// a program may handle it like any local error. `ranks()` is the size of that communicator; compare it with
/// job_size() to know whether the whole job raised it.
class CollectiveError : public Error {
 public:
  CollectiveError(const std::string& message, int ranks) : Error(message), ranks_(ranks) {}
  int ranks() const noexcept { return ranks_; }

 private:
  int ranks_;
};

/// The ranks of the job: MPI_COMM_WORLD's size while MPI runs (between MPI_Init and MPI_Finalize), else 1.
int job_size() noexcept;
/// Ends the whole job after an error that not every rank raised (a failed receive, a local check, a caught
/// exception of one rank): the other ranks may be waiting for this one, and MPI_Finalize would then wait for
/// them. Prints `message` (when not empty) as one line on stderr, flushes stdout and stderr, and calls
/// MPI_Abort(MPI_COMM_WORLD, status) when job_size() > 1 (the launcher then ends every rank, non-zero);
/// otherwise it exits with `status` at once (no weft::finalize, no static destructors).
[[noreturn]] void abort_job(int status, const std::string& message = {}) noexcept;

namespace impl {
using weft::impl::HostAccessibleSpace;

/// One outstanding nonblocking operation. `finish` runs once, after the transfer completed: it checks the
/// received size and copies a staged receive into device memory.
struct RequestState {
  virtual ~RequestState() = default;
  virtual bool impl_test() = 0;  // true once complete
  virtual void impl_wait() = 0;
  /// Elements (in the message's Dtype) that arrived; only meaningful for receives, after completion.
  virtual std::size_t impl_received() const = 0;
  std::string what;  // "irecv \"label\" from rank 1 (tag 3)"
  std::size_t expected = 0;
  bool is_recv = false;
  bool done = false;
  std::function<void()> on_complete;
  void complete();
};

/// Collectives on device memory enqueued on a stream (NCCL). A backend that has one hands it out from
/// CommImpl::device(); `supports` says which element types and operators it can do (the rest go through MPI).
class DeviceComm {
 public:
  virtual ~DeviceComm() = default;
  virtual bool supports(Dtype d, OpKind op) const noexcept = 0;
  virtual void allreduce(const void* send, void* recv, std::size_t n, Dtype d, OpKind op, void* stream) = 0;
  virtual void reduce(const void* send, void* recv, std::size_t n, Dtype d, OpKind op, int root, void* stream) = 0;
  virtual void broadcast(void* buf, std::size_t n, Dtype d, int root, void* stream) = 0;
  virtual void allgather(const void* send, void* recv, std::size_t n_per_rank, Dtype d, void* stream) = 0;
  virtual void reduce_scatter(const void* send, void* recv, std::size_t n_per_rank, Dtype d, OpKind op,
                              void* stream) = 0;
  virtual void alltoall(const void* send, void* recv, std::size_t n_per_rank, Dtype d, void* stream) = 0;
  /// Frees the device communicator (weft::finalize does, before the GPU runtime goes); later calls raise.
  virtual void release() noexcept {}
};

/// The type-erased layer a backend implements: contiguous host buffers (or device buffers where the path
/// allows), counts in elements of `Dtype`. The View templates above it handle staging and checks.
class CommImpl {
 public:
  virtual ~CommImpl() = default;
  virtual Backend backend() const noexcept = 0;
  int rank = 0, size = 1, local_rank = 0, local_size = 1;
  /// Whether MPI accepts CUDA device pointers (MPIX_Query_cuda_support at run time).
  bool cuda_aware = false;

  virtual void barrier() = 0;
  virtual std::shared_ptr<CommImpl> split(int color, int key) = 0;
  /// send == recv means in place.
  virtual void allreduce(const void* send, void* recv, std::size_t n, Dtype d, OpKind op) = 0;
  virtual void reduce(const void* send, void* recv, std::size_t n, Dtype d, OpKind op, int root) = 0;
  virtual void broadcast(void* buf, std::size_t n, Dtype d, int root) = 0;
  virtual void allgather(const void* send, void* recv, std::size_t n_per_rank, Dtype d) = 0;
  virtual void reduce_scatter(const void* send, void* recv, std::size_t n_per_rank, Dtype d, OpKind op) = 0;
  virtual void alltoall(const void* send, void* recv, std::size_t n_per_rank, Dtype d) = 0;
  virtual std::shared_ptr<RequestState> isend(const void* buf, std::size_t n, Dtype d, int dest, int tag) = 0;
  /// A receive whose message is matched and its size checked before any byte lands (MPI: probe first, in
  /// posting order per source and tag); a longer message is drained and raises at the wait.
  virtual std::shared_ptr<RequestState> irecv(void* buf, std::size_t n, Dtype d, int source, int tag) = 0;
  /// A receive whose size both sides agreed on beforehand (Halo's handshake): may be posted at once. Default: irecv.
  virtual std::shared_ptr<RequestState> irecv_agreed(void* buf, std::size_t n, Dtype d, int source, int tag) {
    return irecv(buf, n, d, source, tag);
  }
  /// A blocking receive that learns the message's size before any byte lands (MPI: MPI_Mprobe, MPI_Get_count,
  /// MPI_Mrecv); a longer message than n is drained and raises, naming `what`, the peer and both sizes. Returns
  /// the completed request (its size is checked by RequestState::complete). Default: irecv.
  virtual std::shared_ptr<RequestState> recv(void* buf, std::size_t n, Dtype d, int source, int tag,
                                             const std::string& what) {
    (void)what;
    return irecv(buf, n, d, source, tag);
  }
  /// Collective: raises weft::Error on every rank unless all ranks passed the same values (element counts,
  /// types, roots). `names[i]` says what values[i] is.
  virtual void agree(const std::string& what, const long* values, const char* const* names, int n) = 0;
  /// MPI_Dims_create.
  virtual void dims_create(int nnodes, int ndims, int* dims) = 0;
  /// The device-memory collectives (NCCL), created on first use (collectively); null when there are none.
  virtual DeviceComm* device() { return nullptr; }
  /// Whether device() would give one, without creating it.
  virtual bool has_device() const noexcept { return false; }
};

/// Raises unless the runtime is up (a Communicator used after weft::finalize or MPI_Finalize).
void check_usable(const CommImpl* c, const char* call, const std::string& label);
bool checks_enabled() noexcept;  // WEFT_COMM_CHECKS=0 turns the cross-rank agreement checks off
[[noreturn]] void throw_comm_error(const std::string& message);
/// Raises a CollectiveError: every rank of `c` raises it at this call.
[[noreturn]] void throw_collective_error(const std::string& message, const CommImpl* c);
std::string describe(const char* call, const std::string& label);

template <class V>
using host_buffer_t = View<typename V::non_const_value_type*, HostSpace>;

template <class V>
constexpr bool host_view_v = HostAccessibleSpace<typename V::memory_space>;

template <class V>
bool packed(const V& v) {
  return v.span_is_contiguous() && v.span() == v.size();
}

/// A LayoutRight host View of v's shape over `p` (unmanaged).
template <class V>
auto host_alias(typename V::non_const_value_type* p, const V& v) {
  using HV = View<typename V::non_const_data_type, LayoutRight, HostSpace, MemoryUnmanaged>;
  LayoutRight shape;
  for (int k = 0; k < V::R; ++k) shape.dimension[k] = v.extent(k);
  return HV(p, shape);
}

/// Where MPI may read v's elements: v itself when it is packed host memory (or device memory MPI accepts),
/// else a host buffer filled from it. Fences `exec` first, so the View holds what earlier work wrote.
template <class E, class V>
std::pair<const typename V::non_const_value_type*, host_buffer_t<V>> readable(const E& exec, const V& v,
                                                                              const CommImpl* c) {
  exec.fence("weft::comm: data ready");
  using T = typename V::non_const_value_type;
  if (v.size() == 0) return {nullptr, {}};
  if constexpr (host_view_v<V>) {
    if (packed(v)) return {v.data(), {}};
  } else {
    if (c->cuda_aware && packed(v)) return {v.data(), {}};
  }
  host_buffer_t<V> buf(view_alloc(WithoutInitializing, v.label() + " (comm staging)"), v.size());
  auto alias = host_alias(buf.data(), v);
  if constexpr (host_view_v<V>)
    deep_copy(DefaultHostExecutionSpace(), alias, v);
  else
    deep_copy(alias, v);
  return {static_cast<const T*>(buf.data()), buf};
}

/// Where MPI may write v's elements, and how they reach v afterwards (`commit`).
template <class E, class V>
struct Writable {
  using T = typename V::non_const_value_type;
  T* ptr = nullptr;
  host_buffer_t<V> buf;
  E exec;
  V view;
  void commit() const {
    if (!buf.data()) return;
    auto alias = host_alias(buf.data(), view);
    if constexpr (host_view_v<V>)
      deep_copy(DefaultHostExecutionSpace(), view, alias);
    else {
      deep_copy(exec, view, alias);  // enqueued on exec: later work on exec sees the result
      // The copy reads the host buffer, which goes with this Writable: it must be done first (a copy from
      // pageable memory may be asynchronous on a GPU; GpuEmu's stream-order checker found the free).
      exec.fence("weft::comm: the staging buffer goes");
    }
  }
};
template <class E, class V>
Writable<E, V> writable(const E& exec, const V& v, const CommImpl* c, bool fence = true) {
  if (fence) exec.fence("weft::comm: buffer free");
  Writable<E, V> w{nullptr, {}, exec, v};
  if (v.size() == 0) return w;
  if constexpr (host_view_v<V>) {
    if (packed(v)) {
      w.ptr = v.data();
      return w;
    }
  } else {
    if (c->cuda_aware && packed(v)) {
      w.ptr = v.data();
      return w;
    }
  }
  w.buf = host_buffer_t<V>(view_alloc(WithoutInitializing, v.label() + " (comm staging)"), v.size());
  w.ptr = w.buf.data();
  return w;
}

/// The stream of an execution-space instance that has one (CUDA), else null.
template <class E>
void* stream_of(const E& exec) {
  if constexpr (requires { exec.cuda_stream(); })
    return static_cast<void*>(exec.cuda_stream());
  else
    return nullptr;
}
/// Whether a collective on these Views goes to the device path: the instance has a stream, every View lives in
/// device memory and is packed, and the device layer supports the type and operator.
template <class E, class... V>
bool device_path(const CommImpl* c, Dtype d, OpKind op, const V&... v) {
  if constexpr (requires(const E& e) { e.cuda_stream(); } && (!HostAccessibleSpace<typename V::memory_space> && ...)) {
    if (!c->has_device()) return false;
    // supports() is a property of the type only, so every rank decides alike (the agreement check compares
    // the path too).
    auto* self = const_cast<CommImpl*>(c);
    return (packed(v) && ...) && self->device()->supports(d, op);
  } else {
    (void)c, (void)d, (void)op, ((void)v, ...);
    return false;
  }
}

template <class V>
constexpr void check_view_type() {
  static_assert(is_view_v<V>, "weft::comm: pass a weft::View");
  static_assert(std::is_trivially_copyable_v<typename V::non_const_value_type>,
                "weft::comm: View elements must be trivially copyable to travel between ranks");
}
template <class V>
constexpr void check_writable_type() {
  check_view_type<V>();
  static_assert(!std::is_const_v<typename V::value_type>, "weft::comm: the destination View is const");
}
template <class T, class Op>
constexpr void check_reduction() {
  static_assert(op_of<Op>() != OpKind::none,
                "weft::comm: the operator must be weft::comm::Sum, Prod, Min, Max, LogicalAnd, LogicalOr, BitAnd or "
                "BitOr");
  static_assert(reducible<T, Op>(),
                "weft::comm: MPI defines no such reduction on this element type (Min/Max need "
                "real numbers, bitwise ops integers, logical ops integers or bool)");
}
}  // namespace impl

/// A nonblocking operation in flight; wait() or test() completes it (raising weft::Error on a size mismatch).
class Request {
 public:
  Request() = default;
  explicit Request(std::shared_ptr<impl::RequestState> s) : s_(std::move(s)) {}
  /// Blocks until the operation completed.
  void wait();
  /// Completes the operation if it can without blocking; true when it has.
  bool test();
  bool valid() const noexcept { return s_ != nullptr; }

 private:
  std::shared_ptr<impl::RequestState> s_;
};
/// Waits for every request (all complete even when one raises; the first error is raised afterwards).
void wait_all(std::span<Request> requests);
inline void wait_all(std::vector<Request>& requests) { wait_all(std::span<Request>(requests)); }

/// A group of ranks. Copies share one underlying communicator (an MPI_Comm that Weft duplicated from the one
/// it was made from, so that Weft's messages never match the application's).
class Communicator {
 public:
  /// Every rank of the job: MPI_COMM_WORLD when Weft was built with MPI (initialising MPI if the
  /// application has not; then weft::finalize finalizes it), else the one-rank Self communicator.
  static Communicator world();
  /// The calling rank alone (Backend::self), always available.
  static Communicator self();

  Communicator() = default;
  explicit Communicator(std::shared_ptr<impl::CommImpl> impl) : impl_(std::move(impl)) {}

  int rank() const { return get().rank; }
  int size() const { return get().size; }
  /// Rank among the ranks on the same node (MPI_Comm_split_type MPI_COMM_TYPE_SHARED) and their number.
  int local_rank() const { return get().local_rank; }
  int local_size() const { return get().local_size; }
  Backend backend() const { return get().backend(); }
  bool valid() const noexcept { return impl_ != nullptr; }
  /// Ranks passing the same color form one new communicator, ordered by key (then by rank).
  Communicator split(int color, int key) const;
  void barrier() const;

  // ---- collectives on Views -------------------------------------------------------------------------
  /// recv = op over all ranks of send, element-wise; send and recv have the same number of elements.
  template <ExecutionSpace E, class SV, class RV, class Op>
  void allreduce(const E& exec, const SV& send, const RV& recv, Op) const {
    impl::check_view_type<SV>();
    impl::check_writable_type<RV>();
    using T = typename RV::non_const_value_type;
    static_assert(std::is_same_v<typename SV::non_const_value_type, T>,
                  "weft::comm::allreduce: send and recv Views have different element types");
    impl::check_reduction<T, Op>();
    const std::string what = impl::describe("allreduce", recv.label());
    impl::check_usable(impl_.get(), "allreduce", recv.label());
    if (send.size() != recv.size())
      impl::throw_comm_error(what + ": send \"" + send.label() + "\" has " + std::to_string(send.size()) +
                             " elements but recv has " + std::to_string(recv.size()) + "; give them the same size");
    const bool dev = impl::device_path<E>(impl_.get(), impl::dtype_of<T>(), impl::op_of<Op>(), send, recv);
    agree(what, send.size(), impl::dtype_of<T>(), impl::op_of<Op>(), -1, dev);
    if (recv.size() == 0) return;
    if (dev) {
      impl_->device()->allreduce(send.data(), recv.data(), recv.size(), impl::dtype_of<T>(), impl::op_of<Op>(),
                                 impl::stream_of(exec));
      return;
    }
    auto [sp, sbuf] = impl::readable(exec, send, impl_.get());
    auto w = impl::writable(exec, recv, impl_.get(), false);
    impl_->allreduce(sp, w.ptr, recv.size(), impl::dtype_of<T>(), impl::op_of<Op>());
    w.commit();
  }
  /// In place: v = op over all ranks of v.
  template <ExecutionSpace E, class V, class Op>
  void allreduce(const E& exec, const V& v, Op) const {
    impl::check_writable_type<V>();
    using T = typename V::non_const_value_type;
    impl::check_reduction<T, Op>();
    const std::string what = impl::describe("allreduce", v.label());
    impl::check_usable(impl_.get(), "allreduce", v.label());
    const bool dev = impl::device_path<E>(impl_.get(), impl::dtype_of<T>(), impl::op_of<Op>(), v);
    agree(what, v.size(), impl::dtype_of<T>(), impl::op_of<Op>(), -1, dev);
    if (v.size() == 0) return;
    if (dev) {
      impl_->device()->allreduce(v.data(), v.data(), v.size(), impl::dtype_of<T>(), impl::op_of<Op>(),
                                 impl::stream_of(exec));
      return;
    }
    auto w = impl::writable(exec, v, impl_.get());
    if (w.buf.data()) deep_copy(host_view_alias(w), v);
    impl_->allreduce(w.ptr, w.ptr, v.size(), impl::dtype_of<T>(), impl::op_of<Op>());
    w.commit();
  }
  /// A value reduced over all ranks (a dot product's partial sums, a residual).
  template <class T, class Op>
  requires(std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
           std::is_same_v<T, std::complex<double>>) T allreduce(T value, Op)
  const {
    impl::check_reduction<T, Op>();
    impl::check_usable(impl_.get(), "allreduce", "(value)");
    T out{};
    impl_->allreduce(&value, &out, 1, impl::dtype_of<T>(), impl::op_of<Op>());
    return out;
  }

  /// On `root`, recv = op over all ranks of send; recv is not touched elsewhere (it may be empty there).
  template <ExecutionSpace E, class SV, class RV, class Op>
  void reduce(const E& exec, const SV& send, const RV& recv, Op, int root) const {
    impl::check_view_type<SV>();
    impl::check_writable_type<RV>();
    using T = typename RV::non_const_value_type;
    static_assert(std::is_same_v<typename SV::non_const_value_type, T>,
                  "weft::comm::reduce: send and recv Views have different element types");
    impl::check_reduction<T, Op>();
    const std::string what = impl::describe("reduce", send.label());
    impl::check_usable(impl_.get(), "reduce", send.label());
    check_root(what, root);
    if (rank() == root && send.size() != recv.size())
      impl::throw_comm_error(what + ": on the root (rank " + std::to_string(root) + ") recv \"" + recv.label() +
                             "\" has " + std::to_string(recv.size()) + " elements but send has " +
                             std::to_string(send.size()) + "; give them the same size");
    const bool dev = impl::device_path<E>(impl_.get(), impl::dtype_of<T>(), impl::op_of<Op>(), send, recv);
    agree(what, send.size(), impl::dtype_of<T>(), impl::op_of<Op>(), root, dev);
    if (send.size() == 0) return;
    if (dev) {
      impl_->device()->reduce(send.data(), rank() == root ? recv.data() : nullptr, send.size(), impl::dtype_of<T>(),
                              impl::op_of<Op>(), root, impl::stream_of(exec));
      return;
    }
    auto [sp, sbuf] = impl::readable(exec, send, impl_.get());
    if (rank() == root) {
      auto w = impl::writable(exec, recv, impl_.get(), false);
      impl_->reduce(sp, w.ptr, send.size(), impl::dtype_of<T>(), impl::op_of<Op>(), root);
      w.commit();
    } else {
      impl_->reduce(sp, nullptr, send.size(), impl::dtype_of<T>(), impl::op_of<Op>(), root);
    }
  }

  /// Every rank's v = root's v.
  template <ExecutionSpace E, class V>
  void broadcast(const E& exec, const V& v, int root) const {
    impl::check_writable_type<V>();
    using T = typename V::non_const_value_type;
    const std::string what = impl::describe("broadcast", v.label());
    impl::check_usable(impl_.get(), "broadcast", v.label());
    check_root(what, root);
    const bool dev = impl::device_path<E>(impl_.get(), dtype_for<T>(), impl::OpKind::none, v);
    agree(what, v.size(), dtype_for<T>(), impl::OpKind::none, root, dev);
    if (v.size() == 0) return;
    if (dev) {
      impl_->device()->broadcast(v.data(), count_for<T>(v.size()), dtype_for<T>(), root, impl::stream_of(exec));
      return;
    }
    auto w = impl::writable(exec, v, impl_.get());
    if (rank() == root && w.buf.data()) deep_copy(host_view_alias(w), v);
    impl_->broadcast(w.ptr, count_for<T>(v.size()), dtype_for<T>(), root);
    if (rank() != root) w.commit();
  }

  /// recv holds every rank's send, rank 0's first: recv.size() == size() * send.size().
  template <ExecutionSpace E, class SV, class RV>
  void allgather(const E& exec, const SV& send, const RV& recv) const {
    impl::check_view_type<SV>();
    impl::check_writable_type<RV>();
    using T = typename RV::non_const_value_type;
    static_assert(std::is_same_v<typename SV::non_const_value_type, T>,
                  "weft::comm::allgather: send and recv Views have different element types");
    const std::string what = impl::describe("allgather", recv.label());
    impl::check_usable(impl_.get(), "allgather", recv.label());
    check_multiple(what, "recv", recv.size(), "send", send.size());
    const bool dev = impl::device_path<E>(impl_.get(), dtype_for<T>(), impl::OpKind::none, send, recv);
    agree(what, send.size(), dtype_for<T>(), impl::OpKind::none, -1, dev);
    if (send.size() == 0) return;
    if (dev) {
      impl_->device()->allgather(send.data(), recv.data(), count_for<T>(send.size()), dtype_for<T>(),
                                 impl::stream_of(exec));
      return;
    }
    auto [sp, sbuf] = impl::readable(exec, send, impl_.get());
    auto w = impl::writable(exec, recv, impl_.get(), false);
    impl_->allgather(sp, w.ptr, count_for<T>(send.size()), dtype_for<T>());
    w.commit();
  }

  /// Reduces send over all ranks and scatters it: rank r gets elements [r*n, (r+1)*n) of the result in recv,
  /// where n = recv.size() and send.size() == size() * n.
  template <ExecutionSpace E, class SV, class RV, class Op>
  void reduce_scatter(const E& exec, const SV& send, const RV& recv, Op) const {
    impl::check_view_type<SV>();
    impl::check_writable_type<RV>();
    using T = typename RV::non_const_value_type;
    static_assert(std::is_same_v<typename SV::non_const_value_type, T>,
                  "weft::comm::reduce_scatter: send and recv Views have different element types");
    impl::check_reduction<T, Op>();
    const std::string what = impl::describe("reduce_scatter", send.label());
    impl::check_usable(impl_.get(), "reduce_scatter", send.label());
    check_multiple(what, "send", send.size(), "recv", recv.size());
    const bool dev = impl::device_path<E>(impl_.get(), impl::dtype_of<T>(), impl::op_of<Op>(), send, recv);
    agree(what, recv.size(), impl::dtype_of<T>(), impl::op_of<Op>(), -1, dev);
    if (recv.size() == 0) return;
    if (dev) {
      impl_->device()->reduce_scatter(send.data(), recv.data(), recv.size(), impl::dtype_of<T>(), impl::op_of<Op>(),
                                      impl::stream_of(exec));
      return;
    }
    auto [sp, sbuf] = impl::readable(exec, send, impl_.get());
    auto w = impl::writable(exec, recv, impl_.get(), false);
    impl_->reduce_scatter(sp, w.ptr, recv.size(), impl::dtype_of<T>(), impl::op_of<Op>());
    w.commit();
  }

  /// Rank r sends elements [q*n, (q+1)*n) of send to rank q, which stores them at [r*n, (r+1)*n) of recv;
  /// send.size() == recv.size() == size() * n.
  template <ExecutionSpace E, class SV, class RV>
  void alltoall(const E& exec, const SV& send, const RV& recv) const {
    impl::check_view_type<SV>();
    impl::check_writable_type<RV>();
    using T = typename RV::non_const_value_type;
    static_assert(std::is_same_v<typename SV::non_const_value_type, T>,
                  "weft::comm::alltoall: send and recv Views have different element types");
    const std::string what = impl::describe("alltoall", send.label());
    impl::check_usable(impl_.get(), "alltoall", send.label());
    if (send.size() != recv.size())
      impl::throw_comm_error(what + ": send has " + std::to_string(send.size()) + " elements but recv \"" +
                             recv.label() + "\" has " + std::to_string(recv.size()) + "; give them the same size");
    check_multiple(what, "send", send.size(), "a block", send.size() / static_cast<std::size_t>(size()));
    const std::size_t n = send.size() / static_cast<std::size_t>(size());
    const bool dev = impl::device_path<E>(impl_.get(), dtype_for<T>(), impl::OpKind::none, send, recv);
    agree(what, n, dtype_for<T>(), impl::OpKind::none, -1, dev);
    if (n == 0) return;
    if (dev) {
      impl_->device()->alltoall(send.data(), recv.data(), count_for<T>(n), dtype_for<T>(), impl::stream_of(exec));
      return;
    }
    auto [sp, sbuf] = impl::readable(exec, send, impl_.get());
    auto w = impl::writable(exec, recv, impl_.get(), false);
    impl_->alltoall(sp, w.ptr, count_for<T>(n), dtype_for<T>());
    w.commit();
  }

  // ---- point to point -------------------------------------------------------------------------------
  /// Starts sending v to rank `dest`; v must not change until the Request completes.
  template <ExecutionSpace E, class V>
  Request isend(const E& exec, const V& v, int dest, int tag = 0) const {
    impl::check_view_type<V>();
    using T = typename V::non_const_value_type;
    const std::string what = impl::describe("isend", v.label());
    impl::check_usable(impl_.get(), "isend", v.label());
    check_peer(what, dest, "destination");
    auto [sp, sbuf] = impl::readable(exec, v, impl_.get());
    auto st = impl_->isend(sp, count_for<T>(v.size()), dtype_for<T>(), dest, tag);
    st->what = what + " to rank " + std::to_string(dest) + " (tag " + std::to_string(tag) + ")";
    st->on_complete = [keep = sbuf] {};  // the staging buffer lives until the send completed
    return Request(std::move(st));
  }
  /// Starts receiving into v from rank `source`; the message must have exactly v.size() elements.
  template <ExecutionSpace E, class V>
  Request irecv(const E& exec, const V& v, int source, int tag = 0) const {
    impl::check_writable_type<V>();
    using T = typename V::non_const_value_type;
    const std::string what = impl::describe("irecv", v.label());
    impl::check_usable(impl_.get(), "irecv", v.label());
    check_peer(what, source, "source");
    auto w = impl::writable(exec, v, impl_.get());
    auto st = impl_->irecv(w.ptr, count_for<T>(v.size()), dtype_for<T>(), source, tag);
    st->what = what + " from rank " + std::to_string(source) + " (tag " + std::to_string(tag) + ")";
    st->expected = count_for<T>(v.size());
    st->is_recv = true;
    st->on_complete = [w] { w.commit(); };
    return Request(std::move(st));
  }
  template <ExecutionSpace E, class V>
  void send(const E& exec, const V& v, int dest, int tag = 0) const {
    isend(exec, v, dest, tag).wait();
  }
  /// Receives into v from rank `source`; the message must have exactly v.size() elements. The size is known
  /// before data lands: a longer message raises and never writes past v.
  template <ExecutionSpace E, class V>
  void recv(const E& exec, const V& v, int source, int tag = 0) const {
    impl::check_writable_type<V>();
    using T = typename V::non_const_value_type;
    const std::string what = impl::describe("recv", v.label()) + " from rank " + std::to_string(source) + " (tag " +
                             std::to_string(tag) + ")";
    impl::check_usable(impl_.get(), "recv", v.label());
    check_peer(what, source, "source");
    auto w = impl::writable(exec, v, impl_.get());
    auto st = impl_->recv(w.ptr, count_for<T>(v.size()), dtype_for<T>(), source, tag, what);
    st->what = what;
    st->expected = count_for<T>(v.size());
    st->is_recv = true;
    st->on_complete = [w] { w.commit(); };
    Request(std::move(st)).wait();
  }

  /// The backend object (for weft/comm/mpi.hpp and the NCCL layer).
  impl::CommImpl* impl_get() const noexcept { return impl_.get(); }

 private:
  std::shared_ptr<impl::CommImpl> impl_;

  impl::CommImpl& get() const {
    if (!impl_)
      impl::throw_comm_error(
          "weft::comm: this Communicator is empty (default-constructed); "
          "use Communicator::world(), self() or split()");
    return *impl_;
  }
  template <class T>
  static constexpr impl::Dtype dtype_for() {
    return impl::dtype_of<T>();
  }
  template <class T>
  static constexpr std::size_t count_for(std::size_t n) {
    return impl::dtype_of<T>() == impl::Dtype::byte ? n * sizeof(T) : n;
  }
  template <class W>
  static auto host_view_alias(const W& w) {
    return impl::host_alias(w.buf.data(), w.view);
  }
  void check_root(const std::string& what, int root) const;
  void check_peer(const std::string& what, int peer, const char* role) const;
  void check_multiple(const std::string& what, const char* big_name, std::size_t big, const char* small_name,
                      std::size_t small) const;
  void agree(const std::string& what, std::size_t count, impl::Dtype d, impl::OpKind op, int root = -1,
             bool device = false) const;
};

/// The path a collective on v takes with communicator c (for print-outs and tests): NCCL for packed device
/// Views when Weft has it (element types and operators NCCL lacks, and messages, take the MPI path).
template <class V>
Path path_of(const V& v, const Communicator& c = Communicator::world()) {
  if (c.backend() == Backend::self) return Path::self;
  if constexpr (impl::host_view_v<V>) {
    return Path::mpi_host;
  } else {
    if (c.impl_get()->has_device() && impl::packed(v)) return Path::nccl;
    return c.impl_get()->cuda_aware ? Path::mpi_cuda_aware : Path::mpi_staged;
  }
}

/// Communicator::world(), the usual entry point.
inline Communicator world() { return Communicator::world(); }
}  // namespace weft::comm
