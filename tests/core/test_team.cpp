// TeamPolicy: league/team sizes, member API, scratch (levels 0/1, per team and per thread, at and over
// the limit), nested TeamThreadRange / ThreadVectorRange / TeamVectorRange patterns and single().
#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_common.hpp"

namespace {

/// The team size the tests use: every thread on the host; 8 on a GPU (whose maximum is 1024).
template <class E>
int max_team(const E& e) {
  const int m = weft::TeamPolicy<E>(e, 1, 1).team_size_max();
  return weft_test::is_host_space_v<E> ? m : (m < 8 ? m : 8);
}

TEST_CASE_TEMPLATE("every league rank runs once per team thread with the right ids", E, WEFT_TEST_EXEC_SPACES) {
  for (int ts = 1; ts <= max_team(E()); ts += (ts < 4 ? 1 : 4)) {
    const int league = 37;
    INFO("team size " << ts);
    weft::View<int**, E> seen("seen", league, ts);
    weft::View<int*, E> sizes("sizes", league);
    weft::parallel_for(
        "teams", weft::TeamPolicy<E>(league, ts), WEFT_LAMBDA(const typename weft::TeamPolicy<E>::member_type& m) {
          seen(m.league_rank(), m.team_rank()) += 1;
          if (m.team_rank() == 0) sizes(m.league_rank()) = m.league_size() * 100 + m.team_size();
        });
    int wrong = 0;
    auto hseen = weft_test::on_host(seen);
    auto hsizes = weft_test::on_host(sizes);
    for (int l = 0; l < league; ++l) {
      for (int t = 0; t < ts; ++t) wrong += hseen(l, t) != 1;
      wrong += hsizes(l) != league * 100 + ts;
    }
    CHECK(wrong == 0);
  }
  weft::View<int*, E> auto_seen("auto_seen", 5);
  weft::parallel_for(
      weft::TeamPolicy<E>(5, weft::AUTO), WEFT_LAMBDA(const typename weft::TeamPolicy<E>::member_type& m) {
        weft::single(weft::PerTeam(m), [&]() { auto_seen(m.league_rank()) = 1; });
      });
  CHECK(weft_test::on_host(auto_seen)(4) == 1);
  weft::parallel_for(weft::TeamPolicy<E>(0, 1), WEFT_LAMBDA(const typename weft::TeamPolicy<E>::member_type&){});
}

TEST_CASE_TEMPLATE("nested ranges, reductions, scans and broadcasts inside teams", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 13, n = 101, vec = 9;
  const int ts = max_team(E());
  weft::View<double**, E> a("a", league, n);
  weft::View<double*, E> row_sum("row_sum", league);
  weft::View<double**, E> prefix("prefix", league, n);
  weft::View<double*, E> totals("totals", league);
  weft::View<double**, E> vec_sums("vec_sums", league, n);
  weft::View<int*, E> bcast("bcast", league);
  weft::View<int*, E> team_scan_out("team_scan_out", league * ts);
  weft::View<int*, E> failures("failures", 1);
  weft::parallel_for(
      "fill", weft::TeamPolicy<E>(league, ts), WEFT_LAMBDA(const member& m) {
        const int l = m.league_rank();
        weft::parallel_for(weft::TeamThreadRange(m, n), [&](int i) { a(l, i) = l + 0.25 * i; });
      });
  weft::parallel_for(
      "nested", weft::TeamPolicy<E>(league, ts, 4), WEFT_LAMBDA(const member& m) {
        const int l = m.league_rank();
        double s = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, n), [&](int i, double& acc) { acc += a(l, i); }, s);
        weft::single(weft::PerTeam(m), [&]() { row_sum(l) = s; });
        double total = 0;
        weft::parallel_scan(
            weft::TeamThreadRange(m, 0, n),
            [&](int i, double& upd, bool final) {
              if (final) prefix(l, i) = upd;
              upd += a(l, i);
            },
            total);
        weft::single(weft::PerTeam(m), [&]() { totals(l) = total; });
        weft::parallel_for(weft::TeamThreadRange(m, n), [&](int i) {
          double vs = 0;
          weft::parallel_reduce(
              weft::ThreadVectorRange(m, vec), [&](int k, double& acc) { acc += i * k; }, vs);
          weft::single(weft::PerThread(m), [&]() { vec_sums(l, i) = vs; });
        });
        int value = m.team_rank() == m.team_size() - 1 ? 1000 + l : -1;
        m.team_broadcast(value, m.team_size() - 1);
        if (m.team_rank() == 0) bcast(l) = value;
        const int before = m.team_scan(m.team_rank() + 1);
        team_scan_out(l * m.team_size() + m.team_rank()) = before;
        int maxrank = m.team_rank();
        m.team_reduce(weft::Max<int>(maxrank));
        if (maxrank != m.team_size() - 1) weft::atomic_add(&failures(0), 1);  // team_reduce gave the wrong maximum
      });
  int wrong = weft_test::on_host(failures)(0);
  auto prefix_h = weft_test::on_host(prefix);
  auto vec_sums_h = weft_test::on_host(vec_sums);
  auto row_sum_h = weft_test::on_host(row_sum);
  auto totals_h = weft_test::on_host(totals);
  auto bcast_h = weft_test::on_host(bcast);
  auto team_scan_h = weft_test::on_host(team_scan_out);
  for (int l = 0; l < league; ++l) {
    double run = 0;
    for (int i = 0; i < n; ++i) {
      wrong += prefix_h(l, i) != run;
      run += l + 0.25 * i;
      wrong += vec_sums_h(l, i) != double(i) * vec * (vec - 1) / 2;
    }
    wrong += row_sum_h(l) != run;
    wrong += totals_h(l) != run;
    wrong += bcast_h(l) != 1000 + l;
    for (int t = 0; t < ts; ++t) wrong += team_scan_h(l * ts + t) != t * (t + 1) / 2;
  }
  CHECK(wrong == 0);
}

// Every nested level's scan and reduction against serial loops, for shapes whose blocks end in a partial warp
// (3 x 8 = 24, 5 x 4 = 20, 37 x 1 threads on a GPU) and ranges that are not multiples of the level's parts.
TEST_CASE_TEMPLATE("nested scans and reductions at every level keep index order, any shape", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 5, n = 203;
  const bool host = weft_test::is_host_space_v<E>;
  for (const auto& [ts_want, vl] : {std::pair<int, int>{3, 8}, {5, 4}, {37, 1}, {2, 32}}) {
    const int ts = host ? max_team(E()) : ts_want;
    const int v = host ? 1 : vl;
    INFO("team size " << ts << ", vector length " << v);
    weft::View<std::int64_t**, E> tt("tt", league, n), tv("tv", league, n), vv("vv", league * ts, n);
    weft::View<std::int64_t**, E> sums("sums", league * ts, 6);
    weft::parallel_for(
        "nested scans", weft::TeamPolicy<E>(league, ts, v), WEFT_LAMBDA(const member& m) {
          const int l = m.league_rank(), r = m.team_rank();
          auto val = [&](int i) { return std::int64_t((i * 7 + l * 3) % 11 + 1); };
          std::int64_t t1 = 0, t2 = 0, t3 = 0;
          weft::parallel_scan(
              weft::TeamThreadRange(m, n),
              [&](int i, std::int64_t& u, bool final) {
                if (final) tt(l, i) = u;
                u += val(i);
              },
              t1);
          weft::parallel_scan(
              weft::TeamVectorRange(m, n),
              [&](int i, std::int64_t& u, bool final) {
                if (final) tv(l, i) = u;
                u += val(i);
              },
              t2);
          weft::parallel_scan(
              weft::ThreadVectorRange(m, 1, n),  // each thread its own scan, from 1
              [&](int i, std::int64_t& u, bool final) {
                if (final) vv(l * m.team_size() + r, i) = u;
                u += val(i) * (r + 1);
              },
              t3);
          std::int64_t s1 = 0, s2 = 0, s3 = 0;
          weft::parallel_reduce(
              weft::TeamThreadRange(m, n), [&](int i, std::int64_t& a) { a += val(i); }, s1);
          weft::parallel_reduce(
              weft::TeamVectorRange(m, n), [&](int i, std::int64_t& a) { a += val(i); }, s2);
          weft::parallel_reduce(
              weft::ThreadVectorRange(m, n), [&](int i, std::int64_t& a) { a += val(i) * (r + 1); }, s3);
          weft::single(weft::PerThread(m), [&] {
            const int row = l * m.team_size() + r;
            sums(row, 0) = t1;
            sums(row, 1) = t2;
            sums(row, 2) = t3;
            sums(row, 3) = s1;
            sums(row, 4) = s2;
            sums(row, 5) = s3;
          });
        });
    auto tt_h = weft_test::on_host(tt);
    auto tv_h = weft_test::on_host(tv);
    auto vv_h = weft_test::on_host(vv);
    auto sums_h = weft_test::on_host(sums);
    int wrong = 0;
    for (int l = 0; l < league; ++l) {
      auto val = [&](int i) { return std::int64_t((i * 7 + l * 3) % 11 + 1); };
      std::int64_t run = 0;
      for (int i = 0; i < n; ++i) {
        wrong += tt_h(l, i) != run;
        wrong += tv_h(l, i) != run;
        run += val(i);
      }
      for (int r = 0; r < ts; ++r) {
        std::int64_t own = 0;
        for (int i = 1; i < n; ++i) {
          wrong += vv_h(l * ts + r, i) != own;
          own += val(i) * (r + 1);
        }
        const int row = l * ts + r;
        wrong += sums_h(row, 0) != run;
        wrong += sums_h(row, 1) != run;
        wrong += sums_h(row, 2) != own;
        wrong += sums_h(row, 3) != run;
        wrong += sums_h(row, 4) != run;
        wrong += sums_h(row, 5) != own + val(0) * (r + 1);
      }
    }
    CHECK(wrong == 0);
    if (host) break;
  }
}

TEST_CASE_TEMPLATE("team reductions over the league", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 1000, n = 50;
  const int ts = max_team(E());
  long total = 0;
  weft::parallel_reduce(
      "league_sum", weft::TeamPolicy<E>(league, ts),
      WEFT_LAMBDA(const member& m, long& acc) {
        long team_part = 0;
        weft::parallel_reduce(
            weft::TeamVectorRange(m, n), [&](int i, long& t) { t += long(m.league_rank()) * n + i; }, team_part);
        if (m.team_rank() == 0) acc += team_part;
      },
      total);
  const long all = long(league) * n;
  CHECK(total == all * (all - 1) / 2);
}

// A nested parallel_reduce with a functor that names the result's type and has init/join reduces with them (a
// product with init 1 here; Kokkos's TeamReductionScan), at each nesting level.
struct ProductFunctor {
  using value_type = long;
  WEFT_INLINE_FUNCTION void init(long& v) const { v = 1; }
  WEFT_INLINE_FUNCTION void join(long& d, const long& s) const { d *= s; }
  WEFT_INLINE_FUNCTION void operator()(int i, long& v) const { v *= (i % 3) + 1; }
};
TEST_CASE_TEMPLATE("nested parallel_reduce uses the functor's own init and join", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 5, n = 11;
  weft::View<long**, E> out("out", league, 3);
  weft::parallel_for(
      "functor_reduce", weft::TeamPolicy<E>(league, weft::AUTO), WEFT_LAMBDA(const member& m) {
        long a = 0, b = 0, c = 0;
        weft::parallel_reduce(weft::TeamThreadRange(m, n), ProductFunctor{}, a);
        weft::parallel_reduce(weft::ThreadVectorRange(m, n), ProductFunctor{}, b);
        weft::parallel_reduce(weft::TeamVectorRange(m, n), ProductFunctor{}, c);
        weft::single(weft::PerTeam(m), [&] {
          out(m.league_rank(), 0) = a;
          out(m.league_rank(), 1) = b;
          out(m.league_rank(), 2) = c;
        });
      });
  long expect = 1;
  for (int i = 0; i < n; ++i) expect *= (i % 3) + 1;
  auto h = weft_test::on_host(out);
  int wrong = 0;
  for (int l = 0; l < league; ++l)
    for (int k = 0; k < 3; ++k) wrong += h(l, k) != expect;
  CHECK(wrong == 0);
}

// TeamThreadMDRange / ThreadVectorMDRange / TeamVectorMDRange (Kokkos's TeamMDRange): every index tuple exactly once
// per team, both directions and the layout's default, ranks 2 to 4, and reductions over them against a serial sum.
TEST_CASE_TEMPLATE("nested MD ranges cover every index once and reduce", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 3, n0 = 5, n1 = 4, n2 = 3;
  weft::View<int****, E> hits("hits", league, n0, n1, n2);
  weft::View<long**, E> sums("sums", league, 4);
  weft::parallel_for(
      "md_nested", weft::TeamPolicy<E>(league, weft::AUTO, weft::TeamPolicy<E>::vector_length_max()),
      WEFT_LAMBDA(const member& m) {
        const int l = m.league_rank();
        // A TeamThread body runs in every vector lane of its thread (Kokkos's rule): count once per thread.
        weft::parallel_for(weft::TeamThreadMDRange<weft::Rank<3>, member>(m, n0, n1, n2), [&](auto i, auto j, auto k) {
          weft::single(weft::PerThread(m), [&] { weft::atomic_add(&hits(l, i, j, k), 1); });
        });
        weft::parallel_for(
            weft::TeamVectorMDRange<weft::Rank<3, weft::Iterate::Left, weft::Iterate::Left>, member>(m, n0, n1, n2),
            [&](auto i, auto j, auto k) { weft::atomic_add(&hits(l, i, j, k), 10); });
        weft::parallel_for(weft::TeamThreadRange(m, n0), [&](int i) {
          weft::parallel_for(weft::ThreadVectorMDRange(m, n1, n2),  // deduced Rank<2>
                             [&](auto j, auto k) { weft::atomic_add(&hits(l, i, j, k), 100); });
        });
        long a = 0, b = 0, c = 0;
        weft::parallel_reduce(
            weft::TeamThreadMDRange<weft::Rank<2, weft::Iterate::Right, weft::Iterate::Right>, member>(m, n0, n1),
            [&](auto i, auto j, long& acc) { acc += 1 + i * 7 + j; }, a);
        weft::parallel_reduce(
            weft::TeamVectorMDRange<weft::Rank<3>, member>(m, n0, n1, n2),
            [&](auto i, auto j, auto k, long& acc) { acc += (i + 1) * (j + 2) * (k + 3); }, b);
        weft::parallel_reduce(
            weft::TeamThreadMDRange<weft::Rank<4>, member>(m, 2, n0, n1, n2),
            [&](auto h, auto i, auto j, auto k, long& acc) { acc += h + i + j + k; }, c);
        weft::single(weft::PerTeam(m), [&] {
          sums(l, 0) = a;
          sums(l, 1) = b;
          sums(l, 2) = c;
        });
      });
  auto h = weft_test::on_host(hits);
  auto s = weft_test::on_host(sums);
  long ea = 0, eb = 0, ec = 0;
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j) {
      ea += 1 + i * 7 + j;
      for (int k = 0; k < n2; ++k) {
        eb += (i + 1) * (j + 2) * (k + 3);
        for (int g = 0; g < 2; ++g) ec += g + i + j + k;
      }
    }
  int wrong = 0;
  for (int l = 0; l < league; ++l) {
    for (int i = 0; i < n0; ++i)
      for (int j = 0; j < n1; ++j)
        for (int k = 0; k < n2; ++k) wrong += h(l, i, j, k) != 111;
    wrong += (s(l, 0) != ea) + (s(l, 1) != eb) + (s(l, 2) != ec);
  }
  CHECK(wrong == 0);
}

// team_scan(value, global): the teams' scans continue one another through the shared accumulator (Kokkos's
// TeamReductionScan): each team adds its sum to *global atomically and its threads' results start from the value
// before that add. Every thread's result is checked against its team's base and its rank; the bases, sorted, are the
// prefix sums of the team totals in some team order, and *global ends at the sum over every thread.
TEST_CASE_TEMPLATE("team_scan with a global accumulator chains the teams", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  const int league = 37;
  const int ts = max_team(E());
  weft::View<long, E> global("global");
  weft::deep_copy(global, 1000);  // a start value that is not 0: results continue from it
  weft::View<long**, E> got("got", league, ts);
  weft::parallel_for(
      "chained_scan", weft::TeamPolicy<E>(league, ts), WEFT_LAMBDA(const member& m) {
        const long v = 1 + m.league_rank() + m.team_rank();
        got(m.league_rank(), m.team_rank()) = m.team_scan(v, global.data());
      });
  auto g = weft_test::on_host(got);
  auto end = weft_test::on_host(global);
  long sum = 1000;
  std::vector<std::pair<long, long>> bases;  // (base, team total)
  int wrong = 0;
  for (int l = 0; l < league; ++l) {
    long team_total = 0, before = 0;
    for (int t = 0; t < ts; ++t) team_total += 1 + l + t;
    const long base = g(l, 0);
    for (int t = 0; t < ts; ++t) {
      wrong += g(l, t) != base + before;
      before += 1 + l + t;
    }
    bases.emplace_back(base, team_total);
    sum += team_total;
  }
  std::sort(bases.begin(), bases.end());
  long next = 1000;
  for (const auto& [base, total] : bases) {
    wrong += base != next;
    next += total;
  }
  CHECK(wrong == 0);
  CHECK(end() == sum);
}

TEST_CASE_TEMPLATE("team and thread scratch, levels 0 and 1, at and over the limit", E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  using scratch_view = weft::View<double*, typename E::scratch_memory_space, weft::MemoryUnmanaged>;
  const int league = 9, n = 64;
  const int ts = max_team(E());
  weft::View<double*, E> out("out", league);
  weft::View<int*, E> failures("failures", 1);
  const std::size_t team_bytes = scratch_view::shmem_size(n);
  const std::size_t thread_bytes = scratch_view::shmem_size(4);
  auto policy = weft::TeamPolicy<E>(league, ts)
                    .set_scratch_size(0, weft::PerTeam(team_bytes), weft::PerThread(thread_bytes))
                    .set_scratch_size(1, weft::PerTeam(team_bytes));
  weft::parallel_for(
      "scratch", policy, WEFT_LAMBDA(const member& m) {
        scratch_view shared(m.team_scratch(0), n);
        scratch_view mine(m.thread_scratch(0), 4);
        scratch_view big(m.team_scratch(1), n);
        weft::parallel_for(weft::TeamThreadRange(m, n), [&](int i) {
          shared(i) = m.league_rank() + i;
          big(i) = 1.0;
        });
        for (int k = 0; k < 4; ++k) mine(k) = m.team_rank();
        m.team_barrier();
        double s = 0;
        weft::parallel_reduce(
            weft::TeamThreadRange(m, n), [&](int i, double& acc) { acc += shared(n - 1 - i) * big(i); }, s);
        for (int k = 0; k < 4; ++k)
          if (mine(k) != m.team_rank()) weft::atomic_add(&failures(0), 1);  // overwritten by another thread
        if (m.team_rank() == 0) out(m.league_rank()) = s;
      });
  auto out_h = weft_test::on_host(out);
  for (int l = 0; l < league; ++l) CHECK(out_h(l) == double(l) * n + n * (n - 1) / 2.0);
  CHECK(weft_test::on_host(failures)(0) == 0);

  const std::size_t max0 = weft::TeamPolicy<E>::scratch_size_max(0);
  weft::View<int*, E> touched("touched", 1);
  weft::parallel_for(
      "at_limit", weft::TeamPolicy<E>(2, 1).set_scratch_size(0, weft::PerTeam(max0)), WEFT_LAMBDA(const member& m) {
        char* p = static_cast<char*>(m.team_scratch(0).get_shmem(max0));
        p[0] = 1;
        p[max0 - 1] = 2;
        if (m.league_rank() == 1) touched(0) = p[0] + p[max0 - 1];
      });
  CHECK(weft_test::on_host(touched)(0) == 3);
  const std::string over_msg =
      "kernel \"over_limit\": scratch level 0 request of " + std::to_string(max0 + 1) + " bytes per team";
  const int tmax = weft::TeamPolicy<E>(2, 1).team_size_max();
  const std::string team_msg = "team size " + std::to_string(tmax + 1) + " exceeds the maximum " + std::to_string(tmax);
  // scratch_size_max(0) holds for the largest team; on a GPU it is the limit of every team size (the team's own
  // collective slots do not grow with it).
  CHECK_THROWS_WITH_AS(
      weft::parallel_for("over_limit", weft::TeamPolicy<E>(2, tmax).set_scratch_size(0, weft::PerTeam(max0 + 1)),
                         WEFT_LAMBDA(const member&){}),
      doctest::Contains(over_msg.c_str()), weft::Error);
  if constexpr (!weft::SpaceAccessibility<weft::HostSpace, typename E::memory_space>::accessible) {
    weft::View<int*, E> small_touched("small_touched", 1);
    weft::parallel_for(
        "at_max_small_team", weft::TeamPolicy<E>(1, 32).set_scratch_size(0, weft::PerTeam(max0)),
        WEFT_LAMBDA(const member& m) {
          char* p = static_cast<char*>(m.team_scratch(0).get_shmem(max0));
          if (m.team_rank() == 0) small_touched(0) = (p[max0 - 1] = 5);
        });
    CHECK(weft_test::on_host(small_touched)(0) == 5);
    CHECK_THROWS_WITH_AS(weft::parallel_for("above_max_small_team",
                                            weft::TeamPolicy<E>(1, 32).set_scratch_size(0, weft::PerTeam(max0 + 1)),
                                            WEFT_LAMBDA(const member&){}),
                         doctest::Contains("kernel \"above_max_small_team\": scratch level 0 request"), weft::Error);
    CHECK_THROWS_WITH_AS(
        weft::parallel_for("over_limit", weft::TeamPolicy<E>(2, 32).set_scratch_size(0, weft::PerTeam(max0 + 40000)),
                           WEFT_LAMBDA(const member&){}),
        doctest::Contains("kernel \"over_limit\": scratch level 0 request"), weft::Error);
  }
  CHECK_THROWS_WITH_AS(
      weft::parallel_for("too_big_team", weft::TeamPolicy<E>(2, tmax + 1), WEFT_LAMBDA(const member&){}),
      doctest::Contains(team_msg.c_str()), weft::Error);
  CHECK_THROWS_WITH_AS(weft::TeamPolicy<E>(2, 1).set_scratch_size(2, weft::PerTeam(8)),
                       doctest::Contains("level 2 does not exist"), weft::Error);
}

TEST_CASE_TEMPLATE("a thread's vector lanes see each other's writes after a ThreadVectorRange and a single", E,
                   WEFT_TEST_EXEC_SPACES) {
  // Kokkos's team_vector test 3: lanes write a thread's scratch row, then one lane reads the whole row. On a GPU the
  // lanes must leave the range together (GpuEmu ran lane 0 ahead and read what the others had not written yet).
  using member = typename weft::TeamPolicy<E>::member_type;
  using scratch_view = weft::View<long*, typename E::scratch_memory_space, weft::MemoryUnmanaged>;
  const int league = 5, row = 13;
  const int ts = E::impl_is_host_space ? 1 : 6;
  const int vl = E::impl_is_host_space ? 1 : 8;
  weft::View<long**, E> sums("sums", league, ts);
  weft::View<long**, E> after_single("after_single", league, ts);
  weft::parallel_for(
      "lanes",
      weft::TeamPolicy<E>(league, ts, vl).set_scratch_size(0, weft::PerTeam(scratch_view::shmem_size(ts * row))),
      WEFT_LAMBDA(const member& m) {
        scratch_view values(m.team_scratch(0), m.team_size() * row);
        const int t = m.team_rank();
        weft::parallel_for(weft::ThreadVectorRange(m, row),
                           [&](int i) { values(row * t + i) = 100L * m.league_rank() + 10L * t + i; });
        weft::single(weft::PerThread(m), [&] {
          long s = 0;
          for (int i = 0; i < row; ++i) s += values(row * t + i);
          sums(m.league_rank(), t) = s;
          values(row * t) = -1;  // lane 0 writes; every lane reads it after the single
        });
        const long seen = values(row * t);
        weft::single(weft::PerThread(m), [&] { after_single(m.league_rank(), t) = seen; });
      });
  const auto h = weft_test::on_host(sums);
  const auto a = weft_test::on_host(after_single);
  for (int l = 0; l < league; ++l)
    for (int t = 0; t < ts; ++t) {
      CHECK(h(l, t) == row * (100L * l + 10L * t) + row * (row - 1) / 2);
      CHECK(a(l, t) == -1);
    }
}

TEST_CASE_TEMPLATE("level-1 scratch takes large requests (Kokkos's test asks 4 GB for one team)", E,
                   WEFT_TEST_EXEC_SPACES) {
  // Up to the memory behind the level (the host's, the device's), no longer 256 MiB on GPUs.
  using member = typename weft::TeamPolicy<E>::member_type;
  const std::size_t bytes = std::size_t(300) << 20;
  weft::View<int*, E> ok("ok", 1);
  weft::parallel_for(
      "big_level1", weft::TeamPolicy<E>(1, 1).set_scratch_size(1, weft::PerTeam(bytes)), WEFT_LAMBDA(const member& m) {
        char* p = static_cast<char*>(m.team_scratch(1).get_shmem(bytes));
        if (p == nullptr) return;
        p[0] = 1;
        p[bytes - 1] = 2;
        ok(0) = p[0] + p[bytes - 1];
      });
  CHECK(weft_test::on_host(ok)(0) == 3);
}

struct Three {  // 24 bytes: Kokkos puts a scratch View of it at a multiple of 24
  double x, y, z;
};

TEST_CASE_TEMPLATE(
    "scratch as Kokkos gives it: get_shmem returns nullptr when exhausted, Views aligned to their "
    "element, large level-1 scratch on the host",
    E, WEFT_TEST_EXEC_SPACES) {
  using member = typename weft::TeamPolicy<E>::member_type;
  weft::View<int*, E> got("got", 4);
  using SV = weft::View<Three*, weft::ScratchMemorySpace<E>, weft::MemoryUnmanaged>;
  using IV = weft::View<int*, weft::ScratchMemorySpace<E>, weft::MemoryUnmanaged>;
  CHECK(SV::shmem_size(11) == 11 * sizeof(Three) + sizeof(Three));
  weft::parallel_for(
      "kokkos_scratch", weft::TeamPolicy<E>(1, 1).set_scratch_size(0, weft::PerTeam(64)), WEFT_LAMBDA(const member& m) {
        void* a = m.team_scratch(0).get_shmem(48);
        void* b = m.team_scratch(0).get_shmem(32);  // 48 + 32 > 64: nullptr, nothing taken
        void* c = m.team_scratch(0).get_shmem(16);  // the last 16 bytes
        void* d = m.team_scratch(0).get_shmem(1);
        got(0) = a != nullptr && b == nullptr && c != nullptr && d == nullptr;
      });
  weft::parallel_for(
      "aligned_scratch",
      weft::TeamPolicy<E>(2, 1).set_scratch_size(0, weft::PerTeam(IV::shmem_size(1) + SV::shmem_size(11))),
      WEFT_LAMBDA(const member& m) {
        IV small(m.team_scratch(0), 1);
        SV a(m.team_scratch(0), 11);
        small(0) = 1;
        a(10).z = 2.0;
        if (m.league_rank() == 0) got(1) = reinterpret_cast<std::uintptr_t>(a.data()) % sizeof(Three) == 0 ? 1 : 0;
      });
  // The team's and its threads' scratch are one pool: per-thread blocks may come out of a per-team request (as from
  // a functor's team_shmem_size), each thread's its own, as in Kokkos.
  const int ts = max_team(E());
  weft::View<int*, E> overlap("overlap", 1);
  using DV = weft::View<double*, weft::ScratchMemorySpace<E>, weft::MemoryUnmanaged>;
  weft::parallel_for(
      "one_pool", weft::TeamPolicy<E>(3, ts).set_scratch_size(0, weft::PerTeam(ts * DV::shmem_size(4))),
      WEFT_LAMBDA(const member& m) {
        DV mine(m.thread_scratch(0), 4);
        for (int k = 0; k < 4; ++k) mine(k) = m.team_rank();
        m.team_barrier();
        for (int k = 0; k < 4; ++k)
          if (mine(k) != m.team_rank()) weft::atomic_add(&overlap(0), 1);
      });
  CHECK(weft_test::on_host(overlap)(0) == 0);
  auto h = weft_test::on_host(got);
  CHECK(h(0) == 1);
  CHECK(h(1) == 1);
  if constexpr (E::impl_is_host_space) {
    // Level 1 is heap memory on the host: 1 GiB for one team is given (only the touched pages are used).
    const std::size_t big = std::size_t(1) << 30;
    weft::parallel_for("big_level1", weft::TeamPolicy<E>(1, 1).set_scratch_size(1, weft::PerTeam(big)),
                       [&](const member& m) {
                         char* p = static_cast<char*>(m.team_scratch(1).get_shmem(big));
                         p[0] = 1, p[big - 1] = 2;
                         h(2) = p[0] + p[big - 1];
                         h(3) = m.team_scratch(1).get_shmem(8) == nullptr;
                       });
    CHECK(h(2) == 3);
    CHECK(h(3) == 1);
  }
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("LaunchBounds: teams, AUTO, ranges and reductions stay within the bound; a larger team raises", E,
                   WEFT_TEST_EXEC_SPACES) {
  using Bounded = weft::TeamPolicy<E, weft::LaunchBounds<64, 2>>;
  using member = typename Bounded::member_type;
  const bool gpu = !weft_test::is_host_space_v<E>;
  // A team within the bound, and AUTO: every thread of every team runs once; the team sizes are recorded.
  for (bool automatic : {false, true}) {
    const int league = 19, ts = gpu ? 64 : max_team(E());
    const Bounded policy = automatic ? Bounded(league, weft::AUTO) : Bounded(league, ts);
    weft::View<int*, E> count("count", league), size("size", league);
    weft::parallel_for(
        "bounded_team", policy, WEFT_LAMBDA(const member& m) {
          weft::atomic_add(&count(m.league_rank()), 1);
          if (m.team_rank() == 0) size(m.league_rank()) = m.team_size();
        });
    auto hc = weft_test::on_host(count);
    auto hs = weft_test::on_host(size);
    int wrong = 0;
    for (int l = 0; l < league; ++l) wrong += hc(l) != hs(l) || (gpu && hs(l) > 64) || hs(l) < 1;
    INFO("AUTO ", automatic);
    CHECK(wrong == 0);
  }
  // Ranges and reductions under a bound below Weft's own block size (256 on GPUs).
  const long n = 100003;
  weft::View<long*, E> x("x", n);
  weft::parallel_for(
      "bounded_range", weft::RangePolicy<E, weft::LaunchBounds<64>>(0, n), WEFT_LAMBDA(long i) { x(i) = 3 * i + 1; });
  long sum = 0;
  weft::parallel_reduce(
      "bounded_reduce", weft::RangePolicy<E, weft::LaunchBounds<96, 1>>(0, n),
      WEFT_LAMBDA(long i, long& s) { s += x(i); }, sum);
  CHECK(sum == 3 * n * (n - 1) / 2 + n);
  if (gpu) {
    CHECK_THROWS_WITH_AS(weft::parallel_for("too_big_for_bound", Bounded(2, 128), WEFT_LAMBDA(const member&){}),
                         doctest::Contains("kernel \"too_big_for_bound\": team size 128 x vector length 1 is over "
                                           "the policy's LaunchBounds of 64 threads per block"),
                         weft::Error);
  }
}

}  // namespace

namespace {
TEST_CASE_TEMPLATE("a static league is dealt in contiguous shares; a dynamic one in chunks, each rank once", E,
                   WEFT_TEST_HOST_SPACES) {
  // Static (the default): each team takes one contiguous run of league ranks, as Kokkos's host backends deal them
  // (a row per rank then streams through memory); the owner changes at most teams - 1 times along the league.
  const int league = 103;
  std::vector<int> owner(league, -1);
  weft::parallel_for("static league", weft::TeamPolicy<E>(league, 1),
                     [&](const typename weft::TeamPolicy<E>::member_type& m) {
                       owner[m.league_rank()] = E::impl_hardware_thread_id();
                     });
  int changes = 0;
  for (int l = 0; l < league; ++l) {
    REQUIRE(owner[l] >= 0);
    if (l > 0 && owner[l] != owner[l - 1]) ++changes;
  }
  CHECK(changes <= E().concurrency() - 1);
  // Dynamic, chunks of 3 league ranks, team sizes 1 and every thread: each rank runs once on each team thread.
  for (int ts : {1, max_team(E())}) {
    INFO("team size " << ts);
    weft::View<int**, weft::HostSpace> seen("seen", league, ts);
    weft::parallel_for("dynamic league",
                       weft::TeamPolicy<E, weft::Schedule<weft::Dynamic>>(league, ts).set_chunk_size(3),
                       [&](const typename weft::TeamPolicy<E, weft::Schedule<weft::Dynamic>>::member_type& m) {
                         weft::atomic_add(&seen(m.league_rank(), m.team_rank()), 1);
                         m.team_barrier();  // a team's threads stay together on each rank they took
                       });
    int wrong = 0;
    for (int l = 0; l < league; ++l)
      for (int t = 0; t < ts; ++t) wrong += seen(l, t) != 1;
    CHECK(wrong == 0);
  }
}

/// A functor whose Views the kernel reports on: does the copy the kernel calls hold a reference?
template <class E>
struct ReportsTracking {
  weft::View<double*, E> v;
  weft::View<int*, weft::HostSpace> counted;
  void operator()(int i) const { counted(i) = v.impl_track().holds_reference() ? 1 : 0; }
  void operator()(int i, int& sum) const {
    const auto copy = v;  // a View copied inside the kernel from the functor's own
    sum += (v.impl_track().holds_reference() || copy.impl_track().holds_reference()) ? 1 : 0;
    (void)i;
  }
  void operator()(int i, int& sum, bool final) const {
    sum += v.impl_track().holds_reference() ? 1 : 0;
    if (final) counted(i) = sum;
  }
};

TEST_CASE_TEMPLATE("the kernel calls a copy of the functor whose Views hold no references, as Kokkos's", E,
                   WEFT_TEST_HOST_SPACES) {
  const int n = 1000;
  ReportsTracking<E> f{weft::View<double*, E>("tracked", 4), weft::View<int*, weft::HostSpace>("counted", n)};
  REQUIRE(f.v.impl_track().holds_reference());
  REQUIRE(f.v.use_count() == 1);
  // the general path (a dynamic schedule), the packed path (static, a small functor), a reduction, a scan
  weft::parallel_for(weft::RangePolicy<E, weft::Schedule<weft::Dynamic>>(0, n), f);
  int counted = 0;
  for (int i = 0; i < n; ++i) counted += f.counted(i);
  CHECK(counted == 0);
  weft::parallel_for(weft::RangePolicy<E>(0, n), f);
  counted = 0;
  for (int i = 0; i < n; ++i) counted += f.counted(i);
  CHECK(counted == 0);
  int sum = -1;
  weft::parallel_reduce(weft::RangePolicy<E>(0, n), f, sum);
  CHECK(sum == 0);
  sum = -1;
  weft::parallel_scan(weft::RangePolicy<E>(0, n), f, sum);
  CHECK(sum == 0);
  // the caller's functor still holds its reference, and nothing was left counted
  CHECK(f.v.impl_track().holds_reference());
  CHECK(f.v.use_count() == 1);
}
}  // namespace
