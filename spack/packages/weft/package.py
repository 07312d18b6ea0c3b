# Spack recipe for Weft (a repository of its own: `spack repo add <weft>/spack`).
from spack.package import *


class Weft(CMakePackage, CudaPackage, ROCmPackage):
    """Weft: a C++20 performance-portability library in the spirit of Kokkos (parallel_for / parallel_reduce /
    parallel_scan over execution and memory spaces and View arrays) with Serial, OpenMP and CUDA backends, MPI and
    NCCL communication on Views, linear algebra, and a suite of validated mini-apps."""

    homepage = "https://github.com/weft-hpc/weft"
    git = "https://github.com/weft-hpc/weft.git"

    maintainers("weft-hpc")
    license("BSD-3-Clause")

    version("main", branch="main")

    variant("openmp", default=True, description="OpenMP host backend (the default space when on)")
    variant("mpi", default=False, description="weft::comm over MPI (else only the one-rank Self communicator)")
    variant("nccl", default=False, description="NCCL for collectives on device memory (needs +cuda +mpi)")
    variant("blas", default=True, description="OpenBLAS as the vendor implementation of weft::linalg")
    variant("tests", default=False, description="Build the doctest suites")
    variant("apps", default=True, description="Build the mini-apps and weft-bench")

    conflicts("+cuda", when="+rocm", msg="a Weft build holds at most one device backend")
    conflicts("+rocm", msg="Weft's HIP backend is not implemented yet")
    conflicts("+nccl", when="~cuda", msg="NCCL moves device memory: it needs +cuda")
    conflicts("+nccl", when="~mpi", msg="the ncclUniqueId travels over MPI: +nccl needs +mpi")
    conflicts("%gcc@:11", msg="Weft needs C++20 (GCC 12 or newer)")

    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    depends_on("openblas", when="+blas")
    depends_on("doctest", type=("build", "test"), when="+tests")
    depends_on("python@3:", type="run", when="+apps")  # weft-bench
    depends_on("cuda@12:", when="+cuda")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("WEFT_ENABLE_SERIAL", True),
            self.define_from_variant("WEFT_ENABLE_OPENMP", "openmp"),
            self.define_from_variant("WEFT_ENABLE_MPI", "mpi"),
            self.define_from_variant("WEFT_ENABLE_NCCL", "nccl"),
            self.define_from_variant("WEFT_ENABLE_BLAS", "blas"),
            self.define_from_variant("WEFT_ENABLE_APPS", "apps"),
            self.define("WEFT_ENABLE_TESTS", spec.satisfies("+tests") or self.run_tests),
            self.define("WEFT_ENABLE_PERF", False),
            self.define_from_variant("WEFT_ENABLE_CUDA", "cuda"),
        ]
        if spec.satisfies("+cuda"):
            archs = spec.variants["cuda_arch"].value
            if "none" not in archs:
                args.append(self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(archs)))
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
        return args

    def check(self):
        with working_dir(self.build_directory):
            ctest("--output-on-failure")
