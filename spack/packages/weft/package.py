# Spack recipe for Weft (a repository of its own: `spack repo add <weft>/spack`). Validated with Spack itself by
# spack/validate.sh (concretization of every variant combination, a build, test and install from the local source).
import spack.build_systems.cmake
from spack.package import *


class Weft(CMakePackage, CudaPackage, ROCmPackage):
    """Weft: a C++20 performance-portability library in the spirit of Kokkos (parallel_for / parallel_reduce /
    parallel_scan over execution and memory spaces and View arrays) with Serial, OpenMP, CUDA, HIP and GPU-emulation
    backends, MPI and NCCL communication on Views, linear algebra, a Kokkos drop-in, and validated mini-apps."""

    homepage = "https://github.com/weft-hpc/weft"
    git = "https://github.com/weft-hpc/weft.git"

    maintainers("weft-hpc")
    license("BSD-3-Clause")

    version("main", branch="main")

    generator("ninja")

    variant("openmp", default=True, description="OpenMP host backend (the default space when on)")
    variant("mpi", default=False, description="weft::comm over MPI (else only the one-rank Self communicator)")
    variant("nccl", default=False, description="NCCL for collectives on device memory (needs +cuda +mpi)")
    variant("blas", default=True, description="OpenBLAS as the vendor implementation of weft::linalg")
    variant("emulation", default=False, description="GpuEmu backend: Weft's GPU kernels on CPU threads (testing)")
    variant("bounds_check", default=False, description="Check every View index (abort naming label and extents)")
    variant("tests", default=False, description="Build the doctest suites (spack install --test=root runs them)")
    variant("apps", default=True, description="Build the mini-apps and weft-bench")
    variant("perf", default=False, description="Build the benchmarks under perf/ (Google Benchmark)")

    # One device backend per build (CMake refuses the others with the same words).
    conflicts("+cuda", when="+rocm", msg="a Weft build holds at most one device backend: choose +cuda or +rocm")
    conflicts("+emulation", when="+cuda", msg="+emulation is a device backend of its own: it excludes +cuda")
    conflicts("+emulation", when="+rocm", msg="+emulation is a device backend of its own: it excludes +rocm")
    conflicts("+emulation", when="~openmp", msg="+emulation runs the emulated blocks on OpenMP threads: add +openmp")
    conflicts("+nccl", when="~cuda", msg="NCCL moves device memory: +nccl needs +cuda")
    conflicts("+nccl", when="~mpi", msg="the ncclUniqueId travels over MPI: +nccl needs +mpi")
    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs a GPU architecture: cuda_arch=80, 90 or 80,90")
    conflicts("amdgpu_target=none", when="+rocm", msg="+rocm needs a GPU architecture: amdgpu_target=gfx90a, ...")
    conflicts("%gcc@:11", msg="Weft needs C++20 (GCC 12 or newer)")
    conflicts("%clang@:14", msg="Weft needs C++20 (Clang 15 or newer)")

    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")
    depends_on("mpi", when="+mpi")
    depends_on("cuda@12:", when="+cuda")
    depends_on("nccl", when="+nccl")
    # With +openmp, OpenBLAS's OpenMP build: its threads are the OpenMP runtime's, those Weft's kernels run on, so
    # a BLAS call and a Weft kernel never have two thread pools competing for the cores.
    depends_on("openblas threads=openmp", when="+blas +openmp")
    depends_on("openblas", when="+blas ~openmp")
    depends_on("boost@1.66: +context", when="+emulation")
    depends_on("rocprim", when="+rocm")
    depends_on("doctest@2.4:", type="build", when="+tests")
    depends_on("benchmark", when="+perf")
    depends_on("python@3:", type="run", when="+apps")  # weft-bench


class CMakeBuilder(spack.build_systems.cmake.CMakeBuilder):
    # Spack's builders own the build: a check() on the package class cannot see the build directory (Spack 0.22
    # fails with "'Weft' object has no attribute 'build_directory'"), and once a package defines a builder, Spack
    # reads cmake_args from it alone (on the package class it was silently ignored: a +cuda build without CUDA).
    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("WEFT_ENABLE_SERIAL", True),
            self.define_from_variant("WEFT_ENABLE_OPENMP", "openmp"),
            self.define_from_variant("WEFT_ENABLE_MPI", "mpi"),
            self.define_from_variant("WEFT_ENABLE_NCCL", "nccl"),
            self.define_from_variant("WEFT_ENABLE_BLAS", "blas"),
            self.define_from_variant("WEFT_ENABLE_GPU_EMULATION", "emulation"),
            self.define_from_variant("WEFT_ENABLE_BOUNDS_CHECK", "bounds_check"),
            self.define_from_variant("WEFT_ENABLE_APPS", "apps"),
            self.define_from_variant("WEFT_ENABLE_PERF", "perf"),
            self.define("WEFT_ENABLE_TESTS", spec.satisfies("+tests") or self.pkg.run_tests),
            self.define_from_variant("WEFT_ENABLE_CUDA", "cuda"),
            self.define_from_variant("WEFT_ENABLE_HIP", "rocm"),
        ]
        if spec.satisfies("+blas") and not spec["openblas"].external:
            # Spack's own OpenBLAS: name it (Weft's CMake otherwise prefers Debian's OpenMP build's folder).
            args.append(self.define("WEFT_CBLAS_LIBRARY", spec["openblas"].libs.libraries[0]))
            args.append(self.define("WEFT_CBLAS_INCLUDE_DIR", spec["openblas"].prefix.include))
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(spec.variants["cuda_arch"].value)))
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
        if spec.satisfies("+nccl"):
            args.append(self.define("WEFT_NCCL_INCLUDE_DIR", spec["nccl"].prefix.include))
            args.append(self.define("WEFT_NCCL_LIBRARY", spec["nccl"].libs.libraries[0]))
        if spec.satisfies("+rocm"):
            # Every C++ source of a HIP build is compiled as HIP, so hipcc is the C++ compiler.
            args.append(self.define("CMAKE_CXX_COMPILER", spec["hip"].hipcc))
            args.append(self.define("WEFT_HIP_ARCHITECTURES", ";".join(spec.variants["amdgpu_target"].value)))
            args.append(self.define("WEFT_ROCPRIM_INCLUDE_DIR", spec["rocprim"].prefix.include))
        return args

    def check(self):
        """`spack install --test=root`: the ctest suite, with the output of any failing test; without the `slurm`
        label, whose test starts a Slurm cluster as root (scripts/slurm-local.sh), no business of a package build."""
        with working_dir(self.build_directory):
            ctest("--output-on-failure", f"-j{make_jobs}", "--label-exclude", "slurm")
