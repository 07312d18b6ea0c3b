// weft::comm::Halo / halo_exchange: fill the ghost layers of a block-decomposed grid from the neighbours.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <weft/comm/cartesian.hpp>

namespace weft::comm {

/// faces: each ghost face comes from the neighbour across it (enough for 5- and 7-point stencils; all
/// messages in flight at once). full: edges and corners too (9- and 27-point stencils), by exchanging one
/// dimension after another, each including the ghost layers the previous dimensions filled.
enum class HaloShape : int { faces, full };

namespace impl {
struct HaloMessage {
  int dim = 0, side = 0, peer = CartesianDecomposition::no_neighbor;
  std::array<long, 3> send_lo{}, recv_lo{}, ext{};  // boxes in View indices; ext is the same for both
  std::size_t count = 0;
};
/// The messages of dimension d (at most two: towards the lower and the upper neighbour).
std::vector<HaloMessage> halo_messages(const CartesianDecomposition& dec, const long* view_extents, int rank, int width,
                                       HaloShape shape, int d, const std::string& label);
int halo_tag(int d, int side) noexcept;

/// The element copies of halo_copy, as named functors (nvcc's extended lambdas cannot capture inside
/// `if constexpr`).
template <bool Pack, class V, class B>
struct HaloCopy1 {
  V v;
  B buf;
  long l0;
  WEFT_INLINE_FUNCTION void operator()(long i) const {
    if constexpr (Pack)
      buf(i - l0) = v(i);
    else
      v(i) = buf(i - l0);
  }
};
template <bool Pack, class V, class B>
struct HaloCopy2 {
  V v;
  B buf;
  long l0, l1, e1;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j) const {
    const long b = (i - l0) * e1 + (j - l1);
    if constexpr (Pack)
      buf(b) = v(i, j);
    else
      v(i, j) = buf(b);
  }
};
template <bool Pack, class V, class B>
struct HaloCopy3 {
  V v;
  B buf;
  long l0, l1, l2, e1, e2;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    const long b = ((i - l0) * e1 + (j - l1)) * e2 + (k - l2);
    if constexpr (Pack)
      buf(b) = v(i, j, k);
    else
      v(i, j, k) = buf(b);
  }
  /// One row of the box (host threads: a division per row, the row copied by an inner loop).
  WEFT_INLINE_FUNCTION void operator()(long row) const {
    const long a = row / e1, bb = row - a * e1, base = row * e2;
    for (long c = 0; c < e2; ++c) {
      if constexpr (Pack)
        buf(base + c) = v(l0 + a, l1 + bb, l2 + c);
      else
        v(l0 + a, l1 + bb, l2 + c) = buf(base + c);
    }
  }
};

/// Copies the box [lo, lo+ext) of v into buf (pack) or back (unpack), row-major, with a kernel on exec.
template <bool Pack, class E, class V, class B>
void halo_copy(const E& exec, const V& v, const B& buf, const HaloMessage& m, const std::array<long, 3>& lo) {
  if (m.count == 0) return;
  const long l0 = lo[0], l1 = lo[1], l2 = lo[2], e1 = m.ext[1], e2 = m.ext[2];
  const char* label = Pack ? "weft::comm::halo_pack" : "weft::comm::halo_unpack";
  constexpr int R = V::R;
  if constexpr (R == 1) {
    parallel_for(label, RangePolicy<E, IndexType<long>>(exec, l0, l0 + m.ext[0]), HaloCopy1<Pack, V, B>{v, buf, l0});
  } else if constexpr (R == 2) {
    parallel_for(label, MDRangePolicy<E, Rank<2>>(exec, {l0, l1}, {l0 + m.ext[0], l1 + e1}),
                 HaloCopy2<Pack, V, B>{v, buf, l0, l1, e1});
  } else if constexpr (E::impl_is_host_space) {
    parallel_for(label, RangePolicy<E, IndexType<long>>(exec, 0, m.ext[0] * e1),
                 HaloCopy3<Pack, V, B>{v, buf, l0, l1, l2, e1, e2});
  } else {
    parallel_for(label, MDRangePolicy<E, Rank<3>>(exec, {l0, l1, l2}, {l0 + m.ext[0], l1 + e1, l2 + e2}),
                 HaloCopy3<Pack, V, B>{v, buf, l0, l1, l2, e1, e2});
  }
}
}  // namespace impl

/// A reusable halo exchange for one View (rank 1 to 3, the decomposition's ndims): extent(d) of the View is
/// local_extent(d) + 2 * width, with the rank's own cells at [width, width + local_extent(d)). Buffers are
/// allocated once; begin() packs and posts, finish() waits and unpacks, and work on interior cells can run
/// in between. Pack and unpack run as kernels on the instance given, so the View may live in device memory.
template <class V>
class Halo {
 public:
  using value_type = typename V::non_const_value_type;
  using buffer_type = View<value_type*, typename V::memory_space>;
  using host_buffer_type = View<value_type*, HostSpace>;

  Halo(const CartesianDecomposition& decomp, const V& view, int width, HaloShape shape = HaloShape::full)
      : dec_(decomp), view_(view), width_(width), shape_(shape) {
    static_assert(V::R >= 1 && V::R <= 3, "weft::comm::Halo: the View must have rank 1, 2 or 3");
    static_assert(!std::is_const_v<typename V::value_type>, "weft::comm::Halo: the View is const");
    if (V::R != decomp.ndims())
      impl::throw_comm_error("weft::comm::Halo on View \"" + view.label() + "\": the View has rank " +
                             std::to_string(V::R) + " but the decomposition has " + std::to_string(decomp.ndims()) +
                             " dimensions; they must match");
    long ext[3] = {1, 1, 1};
    for (int d = 0; d < V::R; ++d) ext[d] = static_cast<long>(view.extent(d));
    for (int d = 0; d < V::R; ++d) {
      for (auto& m : impl::halo_messages(decomp, ext, V::R, width, shape, d, view.label())) {
        Slot s{m, {}, {}, {}, {}, {}, {}};
        const std::string base = view.label() + " (halo d" + std::to_string(d) + (m.side < 0 ? "-)" : "+)");
        s.send = buffer_type(view_alloc(WithoutInitializing, base + " send"), m.count);
        s.recv = buffer_type(view_alloc(WithoutInitializing, base + " recv"), m.count);
        if constexpr (!impl::host_view_v<V>) {
          if (!decomp.comm().impl_get()->cuda_aware) {
            s.host_send = host_buffer_type(view_alloc(WithoutInitializing, base + " send (host)"), m.count);
            s.host_recv = host_buffer_type(view_alloc(WithoutInitializing, base + " recv (host)"), m.count);
          }
        }
        slots_.push_back(std::move(s));
      }
    }
    agree_sizes();
  }

  /// Packs the faces (all of them for HaloShape::faces, the first dimension's for full) and starts the
  /// messages. The View's own cells must not change until finish().
  template <ExecutionSpace E>
  void begin(const E& exec) {
    if (active_)
      impl::throw_comm_error("weft::comm::Halo::begin on View \"" + view_.label() +
                             "\": the previous exchange was not finished; call finish() first");
    impl::check_usable(dec_.comm().impl_get(), "halo_exchange", view_.label());
    active_ = true;
    next_dim_ = 0;
    if (shape_ == HaloShape::faces) {
      for (int d = 0; d < V::R; ++d) post(exec, d);
    } else {
      post(exec, 0);
    }
  }
  /// Waits for the messages and fills the ghost layers (enqueued on exec for device memory).
  template <ExecutionSpace E>
  void finish(const E& exec) {
    if (!active_)
      impl::throw_comm_error("weft::comm::Halo::finish on View \"" + view_.label() + "\": begin() was not called");
    active_ = false;
    if (shape_ == HaloShape::faces) {
      complete(exec, -1);
    } else {
      for (int d = 0; d < V::R; ++d) {
        if (d > 0) post(exec, d);
        complete(exec, d);
      }
    }
  }
  template <ExecutionSpace E>
  void exchange(const E& exec) {
    begin(exec);
    finish(exec);
  }
  const V& view() const noexcept { return view_; }

 private:
  struct Slot {
    impl::HaloMessage m;
    buffer_type send, recv;
    host_buffer_type host_send, host_recv;
    std::shared_ptr<impl::RequestState> sreq, rreq;
  };
  CartesianDecomposition dec_;
  V view_;
  int width_;
  HaloShape shape_;
  std::vector<Slot> slots_;
  bool active_ = false;
  int next_dim_ = 0;

  /// Every pair of neighbours agrees on each face's size before any face moves (one 8-byte message per face and
  /// one allreduce, at construction): a rank whose View or width differs would otherwise be sent more than its
  /// receive buffer holds, which MPI does not always catch (Open MPI's shared-memory single-copy path writes the
  /// whole message). Every rank raises; the ranks involved name the peer and both sizes.
  void agree_sizes() {
    auto* c = dec_.comm().impl_get();
    constexpr int handshake_tags = 100;  // above the faces' own tags (halo_tag)
    const std::size_t n = slots_.size();
    std::vector<long> mine(n), theirs(n, -1);
    std::vector<std::shared_ptr<impl::RequestState>> reqs;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& m = slots_[k].m;
      mine[k] = static_cast<long>(m.count);
      reqs.push_back(
          c->irecv(&theirs[k], 1, impl::Dtype::i64, m.peer, impl::halo_tag(m.dim, -m.side) + handshake_tags));
    }
    for (std::size_t k = 0; k < n; ++k) {
      const auto& m = slots_[k].m;
      reqs.push_back(c->isend(&mine[k], 1, impl::Dtype::i64, m.peer, impl::halo_tag(m.dim, m.side) + handshake_tags));
    }
    for (auto& r : reqs) r->impl_wait();
    std::string mismatch;
    for (std::size_t k = 0; k < n && mismatch.empty(); ++k)
      if (theirs[k] != mine[k]) {
        const auto& m = slots_[k].m;
        mismatch = "rank " + std::to_string(m.peer) + " would send " + std::to_string(theirs[k]) +
                   " elements for the face of dimension " + std::to_string(m.dim) +
                   (m.side < 0 ? " (lower)" : " (upper)") + " where rank " + std::to_string(c->rank) + " expects " +
                   std::to_string(mine[k]);
      }
    long bad = mismatch.empty() ? 0 : 1, any = 0;
    c->allreduce(&bad, &any, 1, impl::Dtype::i64, impl::OpKind::max);
    if (any)
      impl::throw_collective_error(
          "weft::comm::Halo on View \"" + view_.label() +
              "\": " + (mismatch.empty() ? std::string("the halo faces of other ranks differ in size") : mismatch) +
              "; every rank must exchange the same View shape and width (nothing was exchanged)",
          c);
  }

  template <class E>
  void post(const E& exec, int d) {
    auto* c = dec_.comm().impl_get();
    constexpr auto dt = impl::dtype_of<value_type>();
    constexpr std::size_t mult = dt == impl::Dtype::byte ? sizeof(value_type) : 1;
    bool any = false;
    for (auto& s : slots_) {  // receives first, so that messages can land while this rank packs
      if (s.m.dim != d) continue;
      value_type* rp = s.host_recv.data() ? s.host_recv.data() : s.recv.data();
      s.rreq = c->irecv_agreed(rp, s.m.count * mult, dt, s.m.peer, impl::halo_tag(d, -s.m.side));
      any = true;
    }
    if (!any) return;
    for (auto& s : slots_)
      if (s.m.dim == d) impl::halo_copy<true>(exec, view_, s.send, s.m, s.m.send_lo);
    exec.fence("weft::comm::halo_exchange: faces packed");
    for (auto& s : slots_) {
      if (s.m.dim != d) continue;
      if (s.host_send.data()) deep_copy(s.host_send, s.send);
      const value_type* sp = s.host_send.data() ? s.host_send.data() : s.send.data();
      s.sreq = c->isend(sp, s.m.count * mult, dt, s.m.peer, impl::halo_tag(d, s.m.side));
    }
  }
  template <class E>
  void complete(const E& exec, int d) {
    for (auto& s : slots_) {
      if (d >= 0 && s.m.dim != d) continue;
      s.rreq->impl_wait();
      constexpr std::size_t mult = impl::dtype_of<value_type>() == impl::Dtype::byte ? sizeof(value_type) : 1;
      if (s.rreq->impl_received() != s.m.count * mult)
        impl::throw_comm_error("weft::comm::Halo on View \"" + view_.label() + "\": rank " + std::to_string(s.m.peer) +
                               " sent " + std::to_string(s.rreq->impl_received() / mult) + " elements for a face of " +
                               std::to_string(s.m.count) + "; every rank must exchange the same View shape and width");
      if (s.host_recv.data()) deep_copy(exec, s.recv, s.host_recv);
      impl::halo_copy<false>(exec, view_, s.recv, s.m, s.m.recv_lo);
    }
    for (auto& s : slots_) {
      if (d >= 0 && s.m.dim != d) continue;
      s.sreq->impl_wait();
      s.sreq.reset();
      s.rreq.reset();
    }
  }
};

/// One blocking exchange with freshly allocated buffers; keep a Halo to reuse them across steps.
template <ExecutionSpace E, class V>
void halo_exchange(const E& exec, const V& view, const CartesianDecomposition& decomp, int width,
                   HaloShape shape = HaloShape::full) {
  Halo<V> h(decomp, view, width, shape);
  h.exchange(exec);
}
}  // namespace weft::comm
