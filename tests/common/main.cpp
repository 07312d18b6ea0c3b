// doctest main for the suites: Weft is initialized around the whole run (--weft-* options apply).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include <weft/weft.hpp>

/// ctest's SKIP_RETURN_CODE for the suites: a device build on a machine without a usable GPU skips.
constexpr int skip_return_code = 77;

int main(int argc, char* argv[]) {
  try {
    weft::initialize(argc, argv);
  } catch (const weft::Error& e) {
    if (std::string_view(e.what()).find("found no usable GPU") == std::string_view::npos) {
      std::fprintf(stderr, "%s\n", e.what());  // a bad --weft-* option or WEFT_* variable: one line, exit 2
      return 2;
    }
    std::printf("SKIPPED: %s\n", e.what());
    return skip_return_code;
  }
  int rc = 0;
  {
    doctest::Context context(argc, argv);
    rc = context.run();
  }
  weft::finalize();
  return rc;
}
