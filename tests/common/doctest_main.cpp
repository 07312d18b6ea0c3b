// doctest's own main, for suites that manage Weft's lifetime themselves (test_runtime).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
