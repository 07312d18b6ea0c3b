// An exception thrown by a functor on a host backend: the dispatch rethrows it in the caller as a weft::Error
// naming the kernel, with the original nested; threads waiting for the thrower at a barrier (the scan's, a
// team's) leave instead of hanging; the next dispatch runs normally. Same on Serial and OpenMP.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <weft/host.hpp>

#include "test_common.hpp"

namespace {

/// Runs `dispatch`, expects the weft::Error for kernel `label` with a std::runtime_error "what" nested in it.
template <class D>
void expect_kernel_error(const char* label, const std::string& what, const D& dispatch) {
  bool caught = false;
  try {
    dispatch();
  } catch (const weft::Error& e) {
    caught = true;
    const std::string m = e.what();
    CHECK(m.find(std::string("kernel \"") + label + "\" threw: " + what) != std::string::npos);
    try {
      std::rethrow_if_nested(e);
      FAIL("the functor's exception is not nested");
    } catch (const std::runtime_error& inner) {
      CHECK(std::string(inner.what()) == what);
    }
  }
  CHECK(caught);
}

TEST_CASE_TEMPLATE("an exception in a functor reaches the caller with the kernel's label, on every host backend", E,
                   WEFT_TEST_HOST_SPACES) {
  const long n = 100000;
  weft::View<long*, E> x("x", n);
  expect_kernel_error("thrower for", "bad index 53711", [&] {
    weft::parallel_for("thrower for", weft::RangePolicy<E>(0, n), [=](long i) {
      if (i == 53711) throw std::runtime_error("bad index 53711");
      x(i) = i;
    });
  });
  expect_kernel_error("thrower reduce", "bad index 7", [&] {
    long s = 0;
    weft::parallel_reduce(
        "thrower reduce", weft::RangePolicy<E>(0, n),
        [=](long i, long& acc) {
          if (i == 7) throw std::runtime_error("bad index 7");
          acc += i;
        },
        s);
  });
  // The scan's threads meet at a barrier between their two passes: the thrower never arrives there.
  expect_kernel_error("thrower scan", "bad index 3", [&] {
    long total = 0;
    weft::parallel_scan(
        "thrower scan", weft::RangePolicy<E>(0, n),
        [=](long i, long& u, bool) {
          if (i == 3) throw std::runtime_error("bad index 3");  // the first pass on several threads
          u += i;
        },
        total);
  });
  // A team thread throws before a team barrier its teammates wait at.
  using Member = typename weft::TeamPolicy<E>::member_type;
  const int ts = weft::TeamPolicy<E>(E(), 1, 1).team_size_max();
  expect_kernel_error("thrower team", "bad rank", [&] {
    weft::parallel_for("thrower team", weft::TeamPolicy<E>(50, ts), [=](const Member& m) {
      if (m.league_rank() == 17 && m.team_rank() == m.team_size() - 1) throw std::runtime_error("bad rank");
      m.team_barrier();
      long s = 0;
      weft::parallel_reduce(
          weft::TeamThreadRange(m, 100), [&](int i, long& acc) { acc += i; }, s);
      if (m.team_rank() == 0) x(m.league_rank()) = s;
    });
  });
  // The next dispatch runs as usual.
  long s = 0;
  weft::parallel_reduce(
      "after", weft::RangePolicy<E>(0, n), [=](long i, long& acc) { acc += i; }, s);
  CHECK(s == n * (n - 1) / 2);
  long total = 0;
  weft::parallel_scan(
      "after scan", weft::RangePolicy<E>(0, n),
      [=](long i, long& u, bool final) {
        if (final) x(i) = u;
        u += 1;
      },
      total);
  CHECK(total == n);
  auto h = weft_test::on_host(x);
  CHECK(h(n - 1) == n - 1);
}

}  // namespace

namespace {

/// Holds heap memory; the construction numbered `throw_at` (counted from 0 since reset, over all threads) throws
/// instead.
struct Throwing {
  static inline std::atomic<int> constructed = 0, live = 0;  // built from several threads at once
  static inline int throw_at = -1;
  std::string* held;
  Throwing() : held(nullptr) {
    if (constructed++ == throw_at) throw std::runtime_error("element " + std::to_string(throw_at) + " refused");
    held = new std::string(64, 'x');  // a leak LeakSanitizer reports when an element is never destroyed
    ++live;
  }
  Throwing(const Throwing&) = delete;
  Throwing& operator=(const Throwing&) = delete;
  ~Throwing() {
    delete held;
    --live;
  }
};

// As std::uninitialized_value_construct: the elements built before the throw are destroyed and the memory is freed
// before the exception leaves the View's constructor (500 elements stayed alive before, on every host backend);
// the debug preset's LeakSanitizer checks that the allocation and its record are freed.
TEST_CASE_TEMPLATE("a View whose element constructor throws destroys the elements it built", E, WEFT_TEST_HOST_SPACES) {
  const std::size_t n = 20000;  // past the size where initialization runs as a kernel (elements mark themselves)
  for (int at : {0, 500, 19999}) {
    Throwing::constructed = 0;
    Throwing::live = 0;
    Throwing::throw_at = at;
    CHECK_THROWS_WITH_AS((weft::View<Throwing*, typename E::memory_space>("throwing", n)),
                         ("element " + std::to_string(at) + " refused").c_str(), std::runtime_error);
    CHECK(Throwing::constructed >= at + 1);  // in parallel, other threads may build more before they stop
    CHECK(Throwing::live == 0);
  }
  Throwing::throw_at = -1;
  for (std::size_t m : {std::size_t(7), n}) {  // one thread, and a kernel
    {
      weft::View<Throwing*, typename E::memory_space> ok("ok", m);
      CHECK(Throwing::live == static_cast<int>(m));
    }
    CHECK(Throwing::live == 0);
  }
}

}  // namespace

namespace {

/// The names in `dir` (no . and ..).
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}
std::string read_all(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// weft::write_file, which the apps' --json, WEFT_PROFILE=json:PATH and weft-bench's outputs go through: a write that
// fails part way (a disk that fills: here a file size limit, RLIMIT_FSIZE, with SIGXFSZ ignored) is a weft::Error
// naming the path and the reason, the file that was there keeps its old content whole, and no temporary file stays.
TEST_CASE("weft::write_file: a failed write is an error and leaves the old file whole and no temporary file") {
  char tmpl[] = "/tmp/weft-write-file-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl, path = dir + "/out.json";
  weft::write_file(path, "old\n");
  CHECK(read_all(path) == "old\n");
  const std::string big(100000, 'x');
  {
    struct rlimit saved {};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    struct rlimit small = saved;
    small.rlim_cur = 4096;
    auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    std::string what;
    try {
      weft::write_file(path, big);
    } catch (const weft::Error& e) {
      what = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
    CHECK(what == "cannot write \"" + path + "\": File too large");
  }
  CHECK(read_all(path) == "old\n");
  CHECK(files_in(dir) == std::vector<std::string>{"out.json"});
  weft::write_file(path, big);  // and with room, the whole new content
  CHECK(read_all(path) == big);
  CHECK(files_in(dir) == std::vector<std::string>{"out.json"});
  // A device is written in place (never renamed over): /dev/full refuses, /dev/null takes it.
  CHECK_THROWS_WITH_AS(weft::write_file("/dev/full", "x"), "cannot write \"/dev/full\": No space left on device",
                       weft::Error);
  weft::write_file("/dev/null", "x");
  CHECK_THROWS_WITH_AS(weft::write_file(dir, "x"), doctest::Contains("it is a directory"), weft::Error);
  CHECK_THROWS_WITH_AS(weft::write_file(dir + "/no/such/dir/out.json", "x"),
                       doctest::Contains("No such file or directory"), weft::Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
