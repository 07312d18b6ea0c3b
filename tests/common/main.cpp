// doctest main for the suites: Weft is initialized around the whole run (--weft-* options apply).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  doctest::Context context(argc, argv);
  return context.run();
}
