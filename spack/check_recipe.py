#!/usr/bin/env python3
"""CI's check of the Spack recipe without Spack: compiles spack/packages/weft/package.py and executes it against a
small stand-in for `spack.package`, so syntax errors, unknown names and wrong directive arguments show up. The
real check is `spack spec weft` (spack/README.md)."""
import os
import sys
import types

calls = []


def directive(name):
    def record(*args, **kwargs):
        calls.append((name, args, kwargs))
    return record


pkg = types.ModuleType("spack.package")
for name in ("version", "variant", "conflicts", "depends_on", "maintainers", "license", "patch", "provides"):
    setattr(pkg, name, directive(name))


class _Base:
    pass


class CMakePackage(_Base):
    pass


class CudaPackage(_Base):
    pass


class ROCmPackage(_Base):
    pass


pkg.CMakePackage, pkg.CudaPackage, pkg.ROCmPackage = CMakePackage, CudaPackage, ROCmPackage
pkg.working_dir = lambda *a, **k: None
pkg.ctest = lambda *a, **k: None
pkg.__all__ = [n for n in dir(pkg) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = pkg

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "packages", "weft", "package.py")
source = open(path).read()
namespace = {}
exec(compile(source, path, "exec"), namespace)
cls = namespace.get("Weft")
assert cls is not None and issubclass(cls, CMakePackage), "the recipe must define class Weft(CMakePackage, ...)"
variants = {c[1][0] for c in calls if c[0] == "variant"}
missing = {"openmp", "mpi", "nccl", "blas", "tests", "apps"} - variants
assert not missing, f"variants missing: {missing}"
assert any(c[0] == "depends_on" and c[1][0].startswith("cmake@3.25") for c in calls), "cmake@3.25: dependency"
assert hasattr(cls, "cmake_args"), "cmake_args"
print(f"{path}: ok ({len(calls)} directives, variants {sorted(variants)})")
