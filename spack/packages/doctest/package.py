# doctest, the header-only C++ test framework Weft's suites are written in. Spack's builtin repository had no
# recipe for it (checked against a Spack 0.23 development snapshot, June 2024), so this repository carries one:
# enough for `spack external find`-style externals (Debian's doctest-dev) and for building it from its git tags.
from spack.package import *


class Doctest(CMakePackage):
    """The fastest feature-rich C++11/14/17/20/23 single-header testing framework."""

    homepage = "https://github.com/doctest/doctest"
    git = "https://github.com/doctest/doctest.git"

    license("MIT")

    version("2.4.12", tag="v2.4.12", commit="1da23a3e8119ec5cce4f9388e91b065e20bf06f5")
    version("2.4.11", tag="v2.4.11", commit="ae7a13539fb71f270b87eb2e874fbac80bc8dda2")
    version("2.4.9", tag="v2.4.9", commit="b7c21ec5ceeadb4951b00396fc1e4642dd347e5f")

    depends_on("cmake@3.0:", type="build")

    def cmake_args(self):
        return [self.define("DOCTEST_WITH_TESTS", False), self.define("DOCTEST_WITH_MAIN_IN_STATIC_LIB", False)]
