// The Kokkos Tools interface: a known sequence of Weft calls with two recording tools chained (or one, through
// KOKKOS_TOOLS_LIBS); after finalize, each tool's record must hold exactly the expected events in order, with
// the kernel ids it handed out and the labels given.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <weft/weft.hpp>

namespace {
/// What kokkosp_parse_args receives, as the recording tool writes it: KOKKOS_TOOLS_ARGS's words, else the program's
/// name (Kokkos's rule).
std::string parse_args_line(const char* program) {
  std::vector<std::string> words;
  if (const char* e = std::getenv("KOKKOS_TOOLS_ARGS")) {
    std::string w;
    for (const char* c = e;; ++c) {
      if (*c == ' ' || !*c) {
        if (!w.empty()) words.push_back(w);
        w.clear();
        if (!*c) break;
      } else {
        w += *c;
      }
    }
  } else {
    words.push_back(program);
  }
  std::string line = "parse_args " + std::to_string(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) line += (i ? "|" : " ") + words[i];
  return line;
}
std::vector<std::string> expected(int tool, const char* program) {
  const std::string k0 = std::to_string(100 * tool), k1 = std::to_string(100 * tool + 1),
                    k2 = std::to_string(100 * tool + 2), s = std::to_string(70 * tool);
  return {parse_args_line(program),
          "init " + std::to_string(tool - 1) + " 20211015",
          "metadata test_key test_value",
          "allocate HostSpace tool_view 800",
          "push outer region",
          "begin_for tool_for " + k0,
          "end_for " + k0,
          "begin_reduce tool_reduce " + k1,
          "end_reduce " + k1,
          "begin_scan tool_scan " + k2,
          "end_scan " + k2,
          "pop",
          "begin_deep_copy HostSpace tool_view Scalar (value) 800",
          "end_deep_copy",
          "create_section tool section " + s,
          "start_section " + s,
          "stop_section " + s,
          "destroy_section " + s,
          "deallocate HostSpace tool_view 800",
          "finalize"};
}
}  // namespace

int main(int argc, char* argv[]) {
  const int tools = argc > 1 ? std::atoi(argv[1]) : 2;
  weft::initialize(argc, argv);
  if (!weft::profiling::is_enabled()) {
    std::fprintf(stderr, "test_tools: no tool was loaded\n");
    return 1;
  }
  using Exec = weft::DefaultHostExecutionSpace;
  {
    weft::profiling::declare_metadata("test_key", "test_value");
    weft::View<double*, weft::HostSpace> v("tool_view", 100);
    {
      weft::profiling::ScopedRegion region("outer region");
      weft::parallel_for("tool_for", weft::RangePolicy<Exec>(0, 100), [=](long i) { v(i) = double(i); });
      double s = 0;
      weft::parallel_reduce(
          "tool_reduce", weft::RangePolicy<Exec>(0, 100), [=](long i, double& a) { a += v(i); }, s);
      weft::parallel_scan("tool_scan", weft::RangePolicy<Exec>(0, 100), [=](long i, double& u, bool) { u += v(i); });
    }
    weft::deep_copy(v, 1.0);
    const auto id = weft::profiling::create_section("tool section");
    weft::profiling::start_section(id);
    weft::profiling::stop_section(id);
    weft::profiling::destroy_section(id);
  }
  weft::finalize();
  int failures = 0;
  for (int t = 1; t <= tools; ++t) {
    const char* path = std::getenv(("WEFT_TEST_RECORD_" + std::to_string(t)).c_str());
    std::ifstream in(path ? path : "");
    std::vector<std::string> got;
    for (std::string l; std::getline(in, l);)
      if (l.rfind("begin_fence", 0) != 0 && l.rfind("end_fence", 0) != 0) got.push_back(l);  // fences: not fixed
    const auto want = expected(t, argv[0]);
    for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
      const std::string g = i < got.size() ? got[i] : "(nothing)", w = i < want.size() ? want[i] : "(nothing)";
      if (g != w) {
        std::fprintf(stderr, "tool %d event %zu: got \"%s\", expected \"%s\"\n", t, i, g.c_str(), w.c_str());
        ++failures;
      }
    }
  }
  std::printf("test_tools: %d tool(s), %s\n", tools, failures ? "FAILED" : "every event as expected");
  return failures ? 1 : 0;
}
