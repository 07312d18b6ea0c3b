// comm/: every collective, message and halo exchange, checked element by element against what each rank
// computes on its own; run under mpiexec with 1 to 4 ranks (and as one process on the Self communicator).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <weft/comm.hpp>
#if WEFT_HAS_MPI
#include <weft/comm/mpi.hpp>
#endif

#include "test_common.hpp"

namespace comm = weft::comm;

namespace {
/// The value rank r contributes at element i under seed s: an integer (exact in double), never zero.
std::int64_t value_of(std::uint64_t s, int r, std::size_t i) {
  std::uint64_t x =
      s * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(r) * 0xBF58476D1CE4E5B9ull + i * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 29;
  return static_cast<std::int64_t>(x % 2001) - 1000 + (x % 2001 == 1000 ? 1 : 0);
}
template <class V>
void fill(const V& v, std::uint64_t seed, int rank) {
  auto h = weft::create_mirror_view(v);
  for (std::size_t i = 0; i < v.size(); ++i)
    h(i) = static_cast<typename V::non_const_value_type>(value_of(seed, rank, i));
  weft::deep_copy(v, h);
}
const std::size_t sizes[] = {0, 1, 17, 4099};
}  // namespace

TEST_CASE_TEMPLATE("allreduce: Sum, Min, Max, Prod, in place and as a value", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  for (std::size_t n : sizes) {
    INFO("n = ", n, ", ranks = ", p);
    weft::View<double*, M> s("send", n), r("recv", n);
    weft::View<long*, M> si("send_i", n), ri("recv_i", n);
    fill(s, 11, me);
    fill(si, 12, me);
    c.allreduce(E(), s, r, comm::Sum{});
    c.allreduce(E(), si, ri, comm::Max{});
    auto hr = weft_test::on_host(r);
    auto hri = weft_test::on_host(ri);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0;
      long mx = -100000;
      for (int q = 0; q < p; ++q) {
        sum += static_cast<double>(value_of(11, q, i));
        mx = std::max<long>(mx, value_of(12, q, i));
      }
      REQUIRE(hr(i) == sum);
      REQUIRE(hri(i) == mx);
    }
    c.allreduce(E(), si, comm::Min{});  // in place
    c.allreduce(E(), s, r, comm::Prod{});
    auto hsi = weft_test::on_host(si);
    hr = weft_test::on_host(r);
    for (std::size_t i = 0; i < n; ++i) {
      long mn = 100000;
      double prod = 1;
      for (int q = 0; q < p; ++q) {
        mn = std::min<long>(mn, value_of(12, q, i));
        prod *= static_cast<double>(value_of(11, q, i));
      }
      REQUIRE(hsi(i) == mn);
      REQUIRE(hr(i) == prod);
    }
  }
  CHECK(c.allreduce(me + 1, comm::Sum{}) == p * (p + 1) / 2);
  CHECK(c.allreduce(static_cast<double>(me), comm::Max{}) == p - 1);
  CHECK(c.allreduce(me != 0 || p == 1, comm::LogicalOr{}) == true);
}

TEST_CASE_TEMPLATE("allreduce and broadcast on non-contiguous subviews and LayoutLeft", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  const std::size_t rows = 37, cols = 5;
  weft::View<double**, weft::LayoutRight, M> a("a", rows, cols), b("b", rows, cols);
  weft::deep_copy(b, -7.0);
  {
    auto h = weft::create_mirror_view(a);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) h(i, j) = static_cast<double>(value_of(21, me, i * cols + j));
    weft::deep_copy(a, h);
  }
  auto col_a = weft::subview(a, weft::ALL, 3);  // stride cols: staged through a packed buffer
  auto col_b = weft::subview(b, weft::ALL, 1);
  CHECK_FALSE(col_a.span_is_contiguous());
  c.allreduce(E(), col_a, col_b, comm::Sum{});
  auto hb = weft_test::on_host(b);
  for (std::size_t i = 0; i < rows; ++i) {
    double sum = 0;
    for (int q = 0; q < p; ++q) sum += static_cast<double>(value_of(21, q, i * cols + 3));
    REQUIRE(hb(i, 1) == sum);
    for (std::size_t j = 0; j < cols; ++j)
      if (j != 1) REQUIRE(hb(i, j) == -7.0);  // nothing outside the subview was touched
  }
  for (int root = 0; root < p; ++root) {
    weft::View<int**, weft::LayoutLeft, M> l("left", 6, 7);
    auto h = weft::create_mirror_view(l);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 7; ++j)
        h(i, j) = static_cast<int>(value_of(31 + root, me, static_cast<std::size_t>(i * 7 + j)));
    weft::deep_copy(l, h);
    auto inner = weft::subview(l, weft::pair<int, int>(1, 5), weft::pair<int, int>(2, 6));
    c.broadcast(E(), inner, root);
    auto hl = weft_test::on_host(l);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 7; ++j) {
        const bool in = i >= 1 && i < 5 && j >= 2 && j < 6;
        REQUIRE(hl(i, j) == value_of(31 + root, in ? root : me, static_cast<std::size_t>(i * 7 + j)));
      }
  }
}

TEST_CASE_TEMPLATE("reduce, allgather, reduce_scatter, alltoall", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto c = comm::world();
  const std::size_t p = static_cast<std::size_t>(c.size());
  const int me = c.rank();
  for (std::size_t n : sizes) {
    INFO("n = ", n, ", ranks = ", p);
    for (int root = 0; root < c.size(); ++root) {
      weft::View<float*, M> s("rs", n), r("rr", me == root ? n : 0);
      fill(s, 41, me);
      c.reduce(E(), s, r, comm::Sum{}, root);
      if (me == root) {
        auto h = weft_test::on_host(r);
        for (std::size_t i = 0; i < n; ++i) {
          float sum = 0;
          for (std::size_t q = 0; q < p; ++q) sum += static_cast<float>(value_of(41, static_cast<int>(q), i));
          REQUIRE(h(i) == sum);
        }
      }
    }
    weft::View<std::int32_t*, M> g("gs", n), all("gr", n * p);
    fill(g, 51, me);
    c.allgather(E(), g, all);
    auto ha = weft_test::on_host(all);
    for (std::size_t q = 0; q < p; ++q)
      for (std::size_t i = 0; i < n; ++i) REQUIRE(ha(q * n + i) == value_of(51, static_cast<int>(q), i));

    weft::View<double*, M> big("rss", n * p), part("rsr", n);
    fill(big, 61, me);
    c.reduce_scatter(E(), big, part, comm::Sum{});
    auto hp = weft_test::on_host(part);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0;
      for (std::size_t q = 0; q < p; ++q) sum += static_cast<double>(value_of(61, static_cast<int>(q), me * n + i));
      REQUIRE(hp(i) == sum);
    }

    weft::View<long*, M> ts("ats", n * p), tr("atr", n * p);
    fill(ts, 71, me);
    c.alltoall(E(), ts, tr);
    auto ht = weft_test::on_host(tr);
    for (std::size_t q = 0; q < p; ++q)
      for (std::size_t i = 0; i < n; ++i) REQUIRE(ht(q * n + i) == value_of(71, static_cast<int>(q), me * n + i));
  }
}

TEST_CASE_TEMPLATE("isend/irecv around a ring, to self, send/recv, test()", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  for (std::size_t n : sizes) {
    weft::View<double*, M> out("ring_out", n), in("ring_in", n), self_out("self_out", n), self_in("self_in", n);
    fill(out, 81, me);
    fill(self_out, 82, me);
    std::vector<comm::Request> reqs;
    reqs.push_back(c.irecv(E(), in, left, 5));
    reqs.push_back(c.irecv(E(), self_in, me, 6));
    reqs.push_back(c.isend(E(), out, right, 5));
    reqs.push_back(c.isend(E(), self_out, me, 6));
    comm::wait_all(reqs);
    E().fence();
    auto hi = weft_test::on_host(in);
    auto hs = weft_test::on_host(self_in);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(hi(i) == value_of(81, left, i));
      REQUIRE(hs(i) == value_of(82, me, i));
    }
  }
  // Blocking send/recv in an order that cannot deadlock: even ranks send first.
  weft::View<int*, M> a("pp_a", 9), b("pp_b", 9);
  fill(a, 91, me);
  if (p > 1 && me < p - (p % 2)) {
    const int peer = me ^ 1;
    if (me % 2 == 0) {
      c.send(E(), a, peer, 1);
      c.recv(E(), b, peer, 2);
    } else {
      c.recv(E(), b, peer, 1);
      c.send(E(), a, peer, 2);
    }
    auto hb = weft_test::on_host(b);
    for (std::size_t i = 0; i < 9; ++i) REQUIRE(hb(i) == value_of(91, peer, i));
  }
  weft::View<int*, M> t("test_in", 3);
  auto r = c.irecv(E(), t, me, 9);
  c.send(E(), a, me, 10);  // a different tag: buffered on Self, matched later under MPI
  weft::View<int*, M> u("test_in2", 9);
  c.recv(E(), u, me, 10);
  CHECK_FALSE(r.test());
  weft::View<int*, M> three("three", 3);
  fill(three, 92, me);
  c.send(E(), three, me, 9);
  r.wait();
  CHECK(r.test());
  auto ht = weft_test::on_host(t);
  for (std::size_t i = 0; i < 3; ++i) REQUIRE(ht(i) == value_of(92, me, i));
}

TEST_CASE("errors: roots, peers, sizes that differ between ranks, short and long messages") {
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  weft::View<double*, weft::HostSpace> v("errv", 4), w("errw", 5);
  const std::string bad_root = "root " + std::to_string(p) + " is not a rank";
  CHECK_THROWS_WITH_AS(c.broadcast(weft::DefaultHostExecutionSpace(), v, p), doctest::Contains(bad_root.c_str()),
                       weft::Error);
  CHECK_THROWS_WITH_AS(c.isend(weft::DefaultHostExecutionSpace(), v, -1), doctest::Contains("destination rank -1"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(c.allreduce(weft::DefaultHostExecutionSpace(), v, w, comm::Sum{}),
                       doctest::Contains("send \"errv\" has 4 elements but recv has 5"), weft::Error);
  weft::View<double*, weft::HostSpace> big("big", 4 * static_cast<std::size_t>(p) + 1);
  CHECK_THROWS_WITH_AS(c.allgather(weft::DefaultHostExecutionSpace(), v, big), doctest::Contains("must have size()"),
                       weft::Error);
  if (p > 1) {
    // Every rank sees the disagreement and raises: no rank is left waiting in the collective.
    weft::View<double*, weft::HostSpace> odd("odd", me == 0 ? 3 : 4);
    CHECK_THROWS_WITH_AS(c.allreduce(weft::DefaultHostExecutionSpace(), odd, comm::Sum{}),
                         doctest::Contains("the ranks disagree on the element count"), weft::Error);
    CHECK_THROWS_WITH_AS(c.broadcast(weft::DefaultHostExecutionSpace(), v, me == 0 ? 1 : 0),
                         doctest::Contains("disagree on the root"), weft::Error);
  }
  // A message shorter than the receiving View is an error, not a partial fill.
  weft::View<double*, weft::HostSpace> three("three_el", 3), five("five_el", 5);
  auto r = c.irecv(weft::DefaultHostExecutionSpace(), five, me, 3);
  c.send(weft::DefaultHostExecutionSpace(), three, me, 3);
  CHECK_THROWS_WITH_AS(r.wait(), doctest::Contains("the message has 3 elements but the View holds 5"), weft::Error);
  // A longer one is refused (MPI_ERR_TRUNCATE, or Self's own check), never truncated silently.
  auto r2 = c.irecv(weft::DefaultHostExecutionSpace(), three, me, 4);
  CHECK_THROWS_AS(
      {
        c.send(weft::DefaultHostExecutionSpace(), five, me, 4);
        r2.wait();
      },
      weft::Error);
  if (p > 1 && me < 2) {
    // A blocking recv learns the size before data lands: 100000 doubles (far above the eager limit, where Open
    // MPI's single-copy path would write past a smaller buffer) into a View of 1000 raise on the receiver, and
    // the sender's send completes (the message is drained).
    weft::View<double*, weft::HostSpace> large("large_msg", 100000), small("small_view", 1000);
    if (me == 0) {
      c.send(weft::DefaultHostExecutionSpace(), large, 1, 9);
    } else {
      CHECK_THROWS_WITH_AS(c.recv(weft::DefaultHostExecutionSpace(), small, 0, 9),
                           doctest::Contains("rank 0 sent 100000 elements but the View holds 1000"), weft::Error);
    }
    // and the right size still arrives whole
    if (me == 0) {
      weft::parallel_for(weft::RangePolicy<weft::DefaultHostExecutionSpace>(0, 1000),
                         [=](int i) { small(i) = 0.5 * i; });
      c.send(weft::DefaultHostExecutionSpace(), small, 1, 10);
    } else {
      c.recv(weft::DefaultHostExecutionSpace(), small, 0, 10);
      CHECK(small(999) == 0.5 * 999);
    }
  }
  c.barrier();
  comm::Communicator empty;
  CHECK_THROWS_WITH_AS(empty.barrier(), doctest::Contains("empty"), weft::Error);
}

// Nonblocking receives learn the size before data lands too: the message is probed, checked, then received.
TEST_CASE("irecv: probe first (long messages raise, nothing past the View), posting order, any wait order") {
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  using H = weft::DefaultHostExecutionSpace;
  if (p < 2 || me > 1) {  // the two barriers ranks 0 and 1 take below
    c.barrier();
    c.barrier();
    return;
  }
  const int peer = 1 - me;
  // 100000 doubles (800 KB, far above the eager limit) into the first 1000 of a View of 2000: the error names
  // both sizes, and the 1000 after the window keep their values (the single-copy path would overwrite them).
  weft::View<double*, weft::HostSpace> large("irecv_large", 100000), guarded("irecv_guarded", 2000);
  weft::deep_copy(guarded, 7.0);
  if (me == 0) {
    c.send(H(), large, 1, 21);
  } else {
    auto window = weft::subview(guarded, weft::pair<long, long>(0, 1000));
    auto r = c.irecv(H(), window, 0, 21);
    CHECK_THROWS_WITH_AS(r.wait(), doctest::Contains("rank 0 sent 100000 elements but the View holds 1000"),
                         weft::Error);
    int changed = 0;
    for (int i = 0; i < 2000; ++i) changed += guarded(i) != 7.0;
    CHECK(changed == 0);
  }
  // Two receives of one source and tag match the messages in posting order, whichever is waited for first.
  weft::View<std::int64_t*, weft::HostSpace> a("irecv_first", 10), b("irecv_second", 20);
  if (me == 0) {
    fill(a, 31, 0);
    fill(b, 32, 0);
    c.send(H(), a, 1, 22);
    c.send(H(), b, 1, 22);
  } else {
    auto ra = c.irecv(H(), a, 0, 22);
    auto rb = c.irecv(H(), b, 0, 22);
    rb.wait();
    ra.wait();
    int wrong = 0;
    for (std::size_t i = 0; i < a.size(); ++i) wrong += a(i) != value_of(31, 0, i);
    for (std::size_t i = 0; i < b.size(); ++i) wrong += b(i) != value_of(32, 0, i);
    CHECK(wrong == 0);
  }
  // Both ranks post a large receive and send, then wait for the send first: no deadlock (every wait advances
  // the receives a peer's send needs).
  weft::View<double*, weft::HostSpace> out("irecv_out", 300000), in("irecv_in", 300000);
  fill(out, 33, me);
  auto rr = c.irecv(H(), in, peer, 23);
  auto rs = c.isend(H(), out, peer, 23);
  rs.wait();
  rr.wait();
  CHECK(in(299999) == double(value_of(33, peer, 299999)));
  // A receive dropped before it matched a message is gone: the next receive of that source and tag gets it.
  weft::View<std::int64_t*, weft::HostSpace> one("irecv_one", 5);
  if (me == 0) {
    fill(one, 34, 0);
    c.barrier();
    c.send(H(), one, 1, 24);
  } else {
    { auto dropped = c.irecv(H(), one, 0, 24); }
    c.barrier();
    c.recv(H(), one, 0, 24);
    CHECK(one(4) == value_of(34, 0, 4));
  }
  c.barrier();
}

// Pairs of ranks (0 -> 1, 2 -> 3) that disagree on a message size, below and above the eager limit: 1 KiB
// into 1 KiB minus one element, 8 MiB into 1 KiB, 1 KiB into 8 MiB. The receiver raises naming the View, the peer
// and both sizes (a longer message never lands past the View); the sender's send completes; nothing hangs.
TEST_CASE("messages of sizes the ranks disagree on, 1 KiB and 8 MiB, through recv and irecv") {
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  using H = weft::DefaultHostExecutionSpace;
  const std::size_t kib = 1024 / sizeof(double), mib8 = (std::size_t(8) << 20) / sizeof(double);
  struct Case {
    std::size_t sent, held;
    const char* expect;
  };
  const Case cases[] = {{kib, kib - 1, "rank %d sent 128 elements but the View holds 127"},
                        {mib8, kib, "rank %d sent 1048576 elements but the View holds 128"},
                        {kib, mib8, "the message has 128 elements but the View holds 1048576"}};
  for (int k = 0; k < 3; ++k) {
    const Case& cs = cases[k];
    const int pair = me / 2;
    if (pair * 2 + 1 < p) {
      if (me % 2 == 0) {
        weft::View<double*, weft::HostSpace> out("disagree_out", cs.sent);
        c.send(H(), out, me + 1, 40 + k);
      } else {
        weft::View<double*, weft::HostSpace> in("disagree_in", cs.held + 16);
        weft::deep_copy(in, 3.0);
        auto window = weft::subview(in, weft::pair<long, long>(0, long(cs.held)));
        char msg[128];
        std::snprintf(msg, sizeof msg, cs.expect, me - 1);
        INFO("case " << k << " on rank " << me);
        if ((k + pair) % 2 == 0) {
          CHECK_THROWS_WITH_AS(c.recv(H(), window, me - 1, 40 + k), doctest::Contains(msg), weft::Error);
        } else {
          auto r = c.irecv(H(), window, me - 1, 40 + k);
          CHECK_THROWS_WITH_AS(r.wait(), doctest::Contains(msg), weft::Error);
        }
        int changed = 0;
        for (std::size_t i = cs.held; i < cs.held + 16; ++i) changed += in(i) != 3.0;
        CHECK(changed == 0);
      }
    }
    c.barrier();
  }
}

TEST_CASE("split, local ranks, paths, MPI interoperation") {
  auto c = comm::world();
  const int p = c.size(), me = c.rank();
  auto half = c.split(me % 2, -me);  // reversed order inside each half
  const int n_same = (p - me % 2 + 1) / 2;
  CHECK(half.size() == n_same);
  CHECK(half.rank() == (n_same - 1 - me / 2));
  CHECK(half.allreduce(me, comm::Sum{}) == [&] {
    int s = 0;
    for (int q = me % 2; q < p; q += 2) s += q;
    return s;
  }());
  CHECK(c.local_size() == p);  // one node
  CHECK(c.local_rank() == me);
  weft::View<double*, weft::HostSpace> h("h", 2);
#if WEFT_HAS_MPI
  CHECK(c.backend() == comm::Backend::mpi);
  CHECK(comm::path_of(h, c) == comm::Path::mpi_host);
#if WEFT_HAS_GPU_EMU
  weft::View<double*, weft::GpuEmuSpace> d("d", 2);
  CHECK(comm::path_of(d, c) == comm::Path::mpi_staged);
#endif
  auto mine = comm::from_mpi(MPI_COMM_WORLD);
  CHECK(mine.size() == p);
  CHECK(mine.rank() == me);
  CHECK(comm::mpi_comm(mine) != MPI_COMM_WORLD);  // Weft's duplicate
  CHECK_THROWS_AS(comm::mpi_comm(comm::Communicator::self()), weft::Error);
#else
  CHECK(c.backend() == comm::Backend::self);
#endif
  CHECK(comm::path_of(h, comm::Communicator::self()) == comm::Path::self);
}

TEST_CASE("CartesianDecomposition: uneven splits, neighbours, too many ranks") {
  auto c = comm::world();
  const int p = c.size();
  for (long n : {7L, 10L, 13L}) {
    comm::CartesianDecomposition dec(c, {n, n + 1, n + 3}, {true, false, true});
    long cells = dec.local_extent(0) * dec.local_extent(1) * dec.local_extent(2);
    CHECK(c.allreduce(cells, comm::Sum{}) == n * (n + 1) * (n + 3));
    long dims = 1;
    for (int d = 0; d < 3; ++d) {
      dims *= dec.dims(d);
      const long base = dec.global_extent(d) / dec.dims(d), extra = dec.global_extent(d) % dec.dims(d);
      CHECK(dec.offset(d) == dec.coord(d) * base + std::min<long>(dec.coord(d), extra));
      // The neighbour across a face agrees that this rank is its neighbour the other way.
      const int up = dec.neighbor(d, 1);
      if (!dec.periodic(d) && dec.coord(d) == dec.dims(d) - 1) CHECK(up == comm::CartesianDecomposition::no_neighbor);
      if (up != comm::CartesianDecomposition::no_neighbor) {
        auto cc = std::array<int, 3>{dec.coord(0), dec.coord(1), dec.coord(2)};
        cc[d] = (cc[d] + 1) % dec.dims(d);
        CHECK(up == dec.rank_of(cc));
      }
    }
    CHECK(dims == p);
  }
  if (p > 1) {
    CHECK_THROWS_WITH_AS(comm::CartesianDecomposition(c, {1L}), doctest::Contains("only 1 cells"), weft::Error);
  }
  CHECK_THROWS_WITH_AS(comm::CartesianDecomposition(c, {4L, 0L}), doctest::Contains("at least 1"), weft::Error);
}

namespace {
double global_value(long gx, long gy, long gz) { return static_cast<double>((gx * 1000 + gy) * 1000 + gz + 1); }

template <class E, int R, class Layout>
void check_halo(const comm::CartesianDecomposition& dec, int w, comm::HaloShape shape) {
  using M = typename E::memory_space;
  using DataType = std::conditional_t<R == 1, double*, std::conditional_t<R == 2, double**, double***>>;
  std::array<long, 3> n{1, 1, 1}, ext{1, 1, 1};
  for (int d = 0; d < R; ++d) {
    n[d] = dec.local_extent(d);
    ext[d] = n[d] + 2 * w;
  }
  weft::View<DataType, Layout, M> v;
  if constexpr (R == 1) v = decltype(v)("halo1", ext[0]);
  if constexpr (R == 2) v = decltype(v)("halo2", ext[0], ext[1]);
  if constexpr (R == 3) v = decltype(v)("halo3", ext[0], ext[1], ext[2]);
  auto h = weft::create_mirror_view(v);
  auto at = [&](auto& view, long i, long j, long k) -> double& {
    if constexpr (R == 1)
      return view(i);
    else if constexpr (R == 2)
      return view(i, j);
    else
      return view(i, j, k);
  };
  for (long i = 0; i < ext[0]; ++i)
    for (long j = 0; j < ext[1]; ++j)
      for (long k = 0; k < ext[2]; ++k) {
        const long ijk[3] = {i, j, k};
        bool inside = true;
        for (int d = 0; d < R; ++d) inside = inside && ijk[d] >= w && ijk[d] < w + n[d];
        at(h, i, j, k) = inside ? global_value(dec.offset(0) + i - w, R > 1 ? dec.offset(1) + j - w : 0,
                                               R > 2 ? dec.offset(2) + k - w : 0)
                                : -1.0;
      }
  weft::deep_copy(v, h);
  comm::Halo<decltype(v)> halo(dec, v, w, shape);
  for (int rep = 0; rep < 2; ++rep) {  // reused buffers
    halo.begin(E());
    halo.finish(E());
  }
  E().fence();
  weft::deep_copy(h, v);
  long checked = 0;
  for (long i = 0; i < ext[0]; ++i)
    for (long j = 0; j < ext[1]; ++j)
      for (long k = 0; k < ext[2]; ++k) {
        const long ijk[3] = {i, j, k};
        int outside = 0;
        bool known = true;
        long g[3] = {0, 0, 0};
        for (int d = 0; d < R; ++d) {
          const bool out = ijk[d] < w || ijk[d] >= w + n[d];
          outside += out;
          g[d] = dec.offset(d) + ijk[d] - w;
          if (g[d] < 0 || g[d] >= dec.global_extent(d)) {
            if (dec.periodic(d))
              g[d] = (g[d] + dec.global_extent(d)) % dec.global_extent(d);
            else
              known = false;  // outside a non-periodic boundary: the application's to set
          }
        }
        double want = known ? global_value(g[0], g[1], g[2]) : -1.0;
        if (shape == comm::HaloShape::faces && outside > 1) want = -1.0;  // edges and corners untouched
        INFO("rank ", dec.comm().rank(), " cell (", i, ",", j, ",", k, ") width ", w);
        REQUIRE(at(h, i, j, k) == want);
        ++checked;
      }
  CHECK(checked == ext[0] * ext[1] * ext[2]);
}
}  // namespace

TEST_CASE("Halo: ranks that disagree on the face sizes all raise at construction, before any face moves") {
  auto c = comm::world();
  if (c.size() < 2) return;
  comm::CartesianDecomposition d(c, {10L * c.size()}, {false});
  const int w = c.rank() == 0 ? 2 : 1;  // rank 0's faces hold 2 elements, the others' 1
  weft::View<double*, weft::HostSpace> v("mismatched_halo", static_cast<std::size_t>(d.local_extent(0) + 2 * w));
  const char* want = c.rank() == 1 ? "rank 0 would send 2 elements" : "every rank must exchange the same View shape";
  CHECK_THROWS_WITH_AS((comm::Halo<decltype(v)>(d, v, w)), doctest::Contains(want), weft::Error);
  c.barrier();  // every rank got here: none is left waiting
}

TEST_CASE_TEMPLATE("halo_exchange: 1-, 2-, 3-D, widths 1 and 2, periodic or not, faces or full", E,
                   WEFT_TEST_EXEC_SPACES) {
  auto c = comm::world();
  for (int w : {1, 2}) {
    comm::CartesianDecomposition d1(c, {11L * c.size() + 1}, {true});
    check_halo<E, 1, weft::LayoutRight>(d1, w, comm::HaloShape::full);
    comm::CartesianDecomposition d2(c, {9L, 14L}, {false, true});
    check_halo<E, 2, weft::LayoutRight>(d2, w, comm::HaloShape::full);
    check_halo<E, 2, weft::LayoutLeft>(d2, w, comm::HaloShape::faces);
    comm::CartesianDecomposition d3(c, {7L, 8L, 9L}, {true, false, true});
    check_halo<E, 3, weft::LayoutRight>(d3, w, comm::HaloShape::full);
    check_halo<E, 3, weft::LayoutLeft>(d3, w, comm::HaloShape::faces);
    comm::CartesianDecomposition d3n(c, {6L, 5L, 7L}, {false, false, false});
    check_halo<E, 3, weft::LayoutRight>(d3n, w, comm::HaloShape::full);
  }
  comm::CartesianDecomposition d2(c, {9L, 14L});
  weft::View<double**, typename E::memory_space> wrong("wrong_shape", 3, 3);
  CHECK_THROWS_WITH_AS(comm::halo_exchange(E(), wrong, d2, 1), doctest::Contains("extent(0) is 3"), weft::Error);
}
