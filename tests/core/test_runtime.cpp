// The runtime's lifetime: use before initialize and after finalize raise weft::Error, finalize reports
// live Views by label, command-line and environment settings, fences and the stream-ordering rules.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <weft/impl/settings.hpp>

#include "test_common.hpp"

namespace {

struct CaptureStderr {
  std::ostringstream text;
  std::streambuf* saved = std::cerr.rdbuf(text.rdbuf());
  ~CaptureStderr() { std::cerr.rdbuf(saved); }
};

TEST_CASE("lifecycle: errors before initialize and after finalize, live Views reported at finalize") {
  CHECK_FALSE(weft::is_initialized());
  CHECK_THROWS_WITH_AS(weft::View<double*>("early", 3),
                       doctest::Contains("cannot allocate a View \"early\" before weft::initialize()"), weft::Error);
  CHECK_THROWS_WITH_AS(weft::parallel_for("early_kernel", 4, WEFT_LAMBDA(int){}),
                       doctest::Contains("parallel_for \"early_kernel\" before weft::initialize()"), weft::Error);

  weft::initialize(weft::InitializationSettings().set_num_threads(2));
  CHECK(weft::is_initialized());
  CHECK_THROWS_WITH_AS(weft::initialize(), doctest::Contains("already initialized"), weft::Error);
  weft::View<double*> leaked("leaked_view", 10);
  weft::View<int**> other("other_view", 2, 2);
  {
    CaptureStderr cap;
    weft::finalize();
    const std::string out = cap.text.str();
    CHECK(out.find("2 View allocation(s) still alive") != std::string::npos);
    const std::string where =
        std::string("\"leaked_view\" (80 bytes in ") + weft::DefaultExecutionSpace::memory_space::name() + ")";
    CHECK(out.find(where) != std::string::npos);
    CHECK(out.find("\"other_view\"") != std::string::npos);
  }
  CHECK(weft::is_finalized());
  CHECK_THROWS_WITH_AS(weft::View<double*>("late", 3), doctest::Contains("\"late\" after weft::finalize()"),
                       weft::Error);
  int late = 0;
  CHECK_THROWS_WITH_AS(weft::parallel_reduce("late_reduce", 4, WEFT_LAMBDA(int, int&){}, late),
                       doctest::Contains("parallel_reduce \"late_reduce\" after weft::finalize()"), weft::Error);
  CHECK_THROWS_WITH_AS(weft::fence(), doctest::Contains("cannot fence after weft::finalize()"), weft::Error);
  CHECK_THROWS_WITH_AS(weft::finalize(), doctest::Contains("called twice"), weft::Error);
  leaked = weft::View<double*>();  // freeing after finalize is allowed
  other = weft::View<int**>();
}

TEST_CASE("finalize hooks: last registered runs first, a throwing hook does not stop the others, state freed") {
  weft::initialize();
  std::vector<int> order;
  auto token = std::make_shared<int>(7);  // owned by a hook's capture: released after the hook ran
  std::weak_ptr<int> watch = token;
  weft::push_finalize_hook([&order, t = std::move(token)] { order.push_back(*t); });
  weft::push_finalize_hook([] { throw std::runtime_error("hook failure"); });
  std::function<void()> f = [&order] { order.push_back(2); };
  weft::push_finalize_hook(f);
  weft::push_finalize_hook(+[] {});  // a plain function pointer
  weft::finalize();
  CHECK(order == std::vector<int>{2, 7});
  CHECK(watch.expired());
}

TEST_CASE("command line and environment settings") {
  {
    std::vector<std::string> args = {"prog", "--weft-num-threads=3", "keep", "--kokkos-print-configuration", "--other"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    std::ostringstream sink;
    auto* saved = std::cout.rdbuf(sink.rdbuf());
    weft::initialize(argc, argv.data());
    std::cout.rdbuf(saved);
    CHECK(argc == 3);
    CHECK(std::string(argv[1]) == "keep");
    CHECK(std::string(argv[2]) == "--other");
    CHECK(sink.str().find("backends: " WEFT_ENABLED_BACKENDS) != std::string::npos);
#if WEFT_HAS_OPENMP
    CHECK(weft::OpenMP().concurrency() == 3);
    CHECK(sink.str().find("OpenMP: 3 threads") != std::string::npos);
#endif
    weft::finalize();
  }
  {
    setenv("WEFT_NUM_THREADS", "2", 1);
    weft::initialize();
#if WEFT_HAS_OPENMP
    CHECK(weft::OpenMP().concurrency() == 2);
#endif
    weft::finalize();
    unsetenv("WEFT_NUM_THREADS");
  }
  {
    std::vector<std::string> args = {"prog", "--weft-num-thread=2"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    int argc = 2;
    CHECK_THROWS_WITH_AS(weft::initialize(argc, argv.data()),
                         doctest::Contains("unknown option \"--weft-num-thread=2\""), weft::Error);
    args = {"prog", "--weft-num-threads=zero"};
    argv = {args[0].data(), args[1].data()};
    argc = 2;
    CHECK_THROWS_WITH_AS(weft::initialize(argc, argv.data()), doctest::Contains("give an integer from 1 to 4096"),
                         weft::Error);
  }
}

/// initialize(argc, argv) with these arguments (the program's name first); what it printed on standard output.
std::string initialize_with(std::vector<std::string> args, int* argc_left = nullptr) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  std::ostringstream sink;
  auto* saved = std::cout.rdbuf(sink.rdbuf());
  try {
    weft::initialize(argc, argv.data());
  } catch (...) {
    std::cout.rdbuf(saved);
    throw;
  }
  std::cout.rdbuf(saved);
  if (argc_left) *argc_left = argc;
  return sink.str();
}

// Kokkos's KOKKOS_* variables and --kokkos-* arguments (Kokkos 4.6's list): each is honoured as its WEFT_ twin, or
// refused with one line naming it; the command line wins over the environment; a WEFT_ and a KOKKOS_ name set to
// different values is an error. Before, every KOKKOS_ variable but KOKKOS_TOOLS_LIBS was dropped without a word,
// and --kokkos-disable-warnings / --kokkos-tune-internals / --kokkos-tools-args were "unknown options".
TEST_CASE("Kokkos's settings: KOKKOS_* variables and --kokkos-* arguments") {
  const auto initialize_error = [](std::vector<std::string> args) {
    try {
      initialize_with(std::move(args));
      weft::finalize();
    } catch (const weft::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  {
    setenv("KOKKOS_NUM_THREADS", "2", 1);
    initialize_with({"prog"});
#if WEFT_HAS_OPENMP
    CHECK(weft::OpenMP().concurrency() == 2);
#endif
    weft::finalize();
    initialize_with({"prog", "--kokkos-num-threads=3"});  // the command line over the environment
#if WEFT_HAS_OPENMP
    CHECK(weft::OpenMP().concurrency() == 3);
#endif
    weft::finalize();
    setenv("WEFT_NUM_THREADS", "2", 1);  // the same value under both names: fine
    initialize_with({"prog"});
    weft::finalize();
    setenv("WEFT_NUM_THREADS", "4", 1);
    CHECK(initialize_error({"prog"}) ==
          "weft::initialize: WEFT_NUM_THREADS=4 and KOKKOS_NUM_THREADS=2 are both set and differ; set one of them "
          "(they are the same setting)");
    unsetenv("WEFT_NUM_THREADS");
    unsetenv("KOKKOS_NUM_THREADS");
  }
  {
    setenv("KOKKOS_PRINT_CONFIGURATION", "1", 1);
    CHECK(initialize_with({"prog"}).find("backends: ") != std::string::npos);
    weft::finalize();
    CHECK(initialize_with({"prog", "--kokkos-print-configuration=false"}).empty());  // the command line wins
    weft::finalize();
    setenv("KOKKOS_PRINT_CONFIGURATION", "0", 1);
    CHECK(initialize_with({"prog", "--kokkos-print-configuration"}).find("backends: ") != std::string::npos);
    weft::finalize();
    CHECK(initialize_with({"prog"}).empty());
    weft::finalize();
    unsetenv("KOKKOS_PRINT_CONFIGURATION");
    CHECK(initialize_error({"prog", "--kokkos-print-configuration=maybe"})
              .find("--weft-print-configuration=maybe is not known; use 1 or 0") != std::string::npos);
  }
  {
    int left = 0;
    setenv("KOKKOS_DISABLE_WARNINGS", "yes", 1);
    initialize_with({"prog", "--kokkos-disable-warnings", "keep", "--kokkos-disable-warnings=off"}, &left);
    CHECK(left == 2);  // both removed, the program's argument kept
    weft::finalize();
    unsetenv("KOKKOS_DISABLE_WARNINGS");
  }
  {
    CHECK(initialize_error({"prog", "--kokkos-tune-internals"}).find("Weft has none a tool can tune") !=
          std::string::npos);
    setenv("KOKKOS_TUNE_INTERNALS", "1", 1);
    CHECK(initialize_error({"prog"}).find("KOKKOS_TUNE_INTERNALS=1 is not known; use 0 (off)") != std::string::npos);
    setenv("KOKKOS_TUNE_INTERNALS", "off", 1);
    initialize_with({"prog", "--kokkos-tune-internals=0"});
    weft::finalize();
    unsetenv("KOKKOS_TUNE_INTERNALS");
    CHECK_THROWS_WITH_AS(weft::initialize(weft::InitializationSettings().set_tune_internals(true)),
                         doctest::Contains("leave it off"), weft::Error);
  }
  {
    setenv("KOKKOS_VISIBLE_DEVICES", "0,1", 1);
    CHECK(initialize_error({"prog"}) ==
          "weft::initialize: KOKKOS_VISIBLE_DEVICES is set (0,1); Weft does not read it: unset it and choose GPUs with "
          "CUDA_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES (Kokkos's list of usable GPUs)");
    unsetenv("KOKKOS_VISIBLE_DEVICES");
    setenv("KOKKOS_MAP_DEVICE_ID_BY", "random", 1);
    CHECK(initialize_error({"prog"}).find("KOKKOS_MAP_DEVICE_ID_BY=random is not known; use mpi_rank") !=
          std::string::npos);
    setenv("KOKKOS_MAP_DEVICE_ID_BY", "mpi_rank", 1);
    setenv("KOKKOS_DEVICE_ID", "0", 1);
    initialize_with({"prog"});
    weft::finalize();
    unsetenv("KOKKOS_MAP_DEVICE_ID_BY");
    unsetenv("KOKKOS_DEVICE_ID");
    CHECK(initialize_error({"prog", "--kokkos-map-device-id-by=random"}).find("use mpi_rank") != std::string::npos);
  }
  {
    setenv("KOKKOS_PROFILE_LIBRARY", "/nonexistent/libold.so", 1);  // Kokkos's older name of the tools list
    CHECK(initialize_error({"prog"}).find("cannot load the tool library \"/nonexistent/libold.so\"") !=
          std::string::npos);
    setenv("KOKKOS_TOOLS_LIBS", "/nonexistent/libnew.so", 1);
    CHECK(initialize_error({"prog"}).find("KOKKOS_TOOLS_LIBS=/nonexistent/libnew.so and KOKKOS_PROFILE_LIBRARY="
                                          "/nonexistent/libold.so are both set and differ") != std::string::npos);
    unsetenv("KOKKOS_PROFILE_LIBRARY");
    unsetenv("KOKKOS_TOOLS_LIBS");
    CHECK(initialize_error({"prog", "--kokkos-unknown-thing"}).find("unknown option \"--kokkos-unknown-thing\"") !=
          std::string::npos);
  }
  // InitializationSettings carries Kokkos's members; set ones override the environment.
  weft::InitializationSettings s;
  CHECK(!s.has_tools_libs());
  s.set_tools_libs("a.so").set_tools_args("prog -x").set_map_device_id_by("mpi_rank").set_disable_warnings(true);
  CHECK(s.has_tools_libs());
  CHECK(s.get_tools_libs() == "a.so");
  CHECK(s.get_tools_args() == "prog -x");
  CHECK(s.get_map_device_id_by() == "mpi_rank");
  CHECK(s.get_disable_warnings());
  CHECK(!s.has_print_configuration());
}

// The registry (core/src/settings.cpp): every registered variable set to a value it does not accept makes
// weft::initialize raise one weft::Error naming the variable, the value and the accepted values (before, most were
// ignored or silently defaulted, and the emulator's aborted); --weft-help lists every one.
TEST_CASE("settings registry: a bad value of any WEFT_* variable is an error at initialize, naming it") {
  using weft::impl::SettingKind;
  std::ostringstream help;
  weft::impl::print_settings_help(help);
  int checked = 0;
  for (const auto* s = weft::impl::settings_registry(); s->name; ++s) {
    INFO("setting " << s->name);
    CHECK(help.str().find(std::string(s->name) + "=VALUE") != std::string::npos);
    if (*s->option) CHECK(help.str().find(std::string(s->option) + "=VALUE") != std::string::npos);
    std::vector<std::string> bad;
    switch (s->kind) {
      case SettingKind::integer:
        bad = {"abc", "4abc", std::to_string(s->lo - 1), std::to_string(s->hi + 1), "99999999999999999999"};
        break;
      case SettingKind::flag:
        bad = {"maybe", "2", "on1"};
        break;
      case SettingKind::choice:
      case SettingKind::custom:
        bad = {"bogus", "shuffle:xyz", "json:"};
        break;
      case SettingKind::text:
        break;  // any text is a path or a list; empty is unset
      case SettingKind::refused:
        bad = {"0,1"};  // any value: Weft does not read it
        break;
    }
    for (const auto& v : bad) {
      setenv(s->name, v.c_str(), 1);
      std::string what;
      try {
        weft::initialize();
        weft::finalize();
      } catch (const weft::Error& e) {
        what = e.what();
      }
      unsetenv(s->name);
      INFO("value " << v << ": " << what);
      CHECK(what.find(std::string("weft::initialize: ") + s->name) == 0);
      CHECK(what.find(v) != std::string::npos);
      CHECK(what.find(s->values) != std::string::npos);
      ++checked;
    }
  }
  CHECK(checked > 40);
  // Accepted spellings, checked without starting anything.
  const auto accepts = [](const char* name, const char* v) {
    try {
      weft::impl::check_setting_value(*weft::impl::find_setting(name), name, v);
      return true;
    } catch (const weft::Error&) {
      return false;
    }
  };
  CHECK(accepts("WEFT_EMU_BLOCK_ORDER", "shuffle:4294967295"));
  CHECK(!accepts("WEFT_EMU_BLOCK_ORDER", "shuffle:4294967296"));
  CHECK(accepts("WEFT_PROFILE", "summary,json:/tmp/p.json,launches"));
  CHECK(!accepts("WEFT_PROFILE", "summary,,launches"));
  CHECK(accepts("WEFT_EMU_CHECK", "OFF"));
  CHECK(accepts("WEFT_VENDOR_ALGORITHMS", "no"));
  CHECK(accepts("WEFT_NUM_THREADS", "4096"));
  CHECK(!accepts("WEFT_NUM_THREADS", "1048576"));  // segfaulted under a memory limit before
  CHECK(accepts("--weft-device-id", "0"));
}

TEST_CASE("stream ordering: instance dispatches and 3-argument deep_copy never fence globally") {
  weft::ScopeGuard guard;
  using E = weft::DefaultExecutionSpace;
  weft::View<double*> a("a", 1 << 16), b("b", 1 << 16);
  const auto before = weft::impl::fence_counters();
  E exec;
  weft::parallel_for(
      "on_instance", weft::RangePolicy<E>(exec, 0, 1 << 16), WEFT_LAMBDA(int i) { a(i) = i; });
  weft::deep_copy(exec, b, a);
  double s = 0;
  weft::parallel_reduce(
      "reduce_on_instance", weft::RangePolicy<E>(exec, 0, 1 << 16), WEFT_LAMBDA(int i, double& acc) { acc += b(i); },
      s);
  const auto after = weft::impl::fence_counters();
  CHECK(after.global == before.global);
  CHECK(after.instance == before.instance);
  CHECK(s == doctest::Approx(double(1 << 16) * ((1 << 16) - 1) / 2));
  exec.fence("just this instance");
  CHECK(weft::impl::fence_counters().instance == before.instance + 1);
  CHECK(weft::impl::fence_counters().global == before.global);
  weft::fence("everything");
  CHECK(weft::impl::fence_counters().global == before.global + 1);
  CHECK(E::name() == std::string(WEFT_DEFAULT_BACKEND_NAME));
  CHECK(exec.concurrency() >= 1);
  CHECK_FALSE(E::in_parallel());
  weft::View<int*> inside("inside", 1);
  weft::parallel_for(
      weft::RangePolicy<E>(0, 1), WEFT_LAMBDA(int) { inside(0) = E::in_parallel() ? 1 : 2; });
  CHECK(weft::create_mirror_view_and_copy(weft::HostSpace(), inside)(0) == 1);
}

}  // namespace
