#!/usr/bin/env python3
"""CI's check of the Spack recipes without Spack: compiles spack/packages/*/package.py and executes them against a
small stand-in for `spack.package`, so syntax errors, unknown names and wrong directive arguments show up, and
checks that every CMake variable the Weft recipe defines exists in Weft's CMake files. The real check is
spack/validate.sh, which runs Spack itself (spack/README.md)."""
import os
import re
import sys
import types

calls = []


def directive(name):
    def record(*args, **kwargs):
        calls.append((name, args, kwargs))
    return record


pkg = types.ModuleType("spack.package")
for name in ("version", "variant", "conflicts", "depends_on", "maintainers", "license", "patch", "provides",
             "generator"):
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
build_systems = types.ModuleType("spack.build_systems")
cmake_module = types.ModuleType("spack.build_systems.cmake")


class CMakeBuilder(_Base):
    pass


cmake_module.CMakeBuilder = CMakeBuilder
build_systems.cmake = cmake_module
pkg.working_dir = lambda *a, **k: None
pkg.ctest = lambda *a, **k: None
pkg.__all__ = [n for n in dir(pkg) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = pkg
sys.modules["spack"].build_systems = build_systems
sys.modules["spack.build_systems"] = build_systems
sys.modules["spack.build_systems.cmake"] = cmake_module

here = os.path.dirname(os.path.abspath(__file__))


def load(name, cls_name):
    calls.clear()
    path = os.path.join(here, "packages", name, "package.py")
    global namespace_of_last_load
    namespace = {}
    exec(compile(open(path).read(), path, "exec"), namespace)
    namespace_of_last_load = namespace
    assert cls_name in namespace, f"{path} must define class {cls_name}"
    return path, namespace[cls_name], open(path).read()


path, cls, _ = load("doctest", "Doctest")
assert issubclass(cls, CMakePackage) and any(c[0] == "version" for c in calls), "doctest: a CMakePackage with versions"
print(f"{path}: ok ({len(calls)} directives)")

path, cls, source = load("weft", "Weft")
assert cls is not None and issubclass(cls, CMakePackage), "the recipe must define class Weft(CMakePackage, ...)"
variants = {c[1][0] for c in calls if c[0] == "variant"}
missing = {"openmp", "mpi", "nccl", "blas", "tests", "apps"} - variants
assert not missing, f"variants missing: {missing}"
assert any(c[0] == "depends_on" and c[1][0].startswith("cmake@3.25") for c in calls), "cmake@3.25: dependency"
# Once a package defines a builder, Spack reads cmake_args and check from it only (cmake_args on the package class
# is then silently ignored).
builder = namespace_of_last_load.get("CMakeBuilder")
assert builder is not None and issubclass(builder, CMakeBuilder), "the recipe defines a CMakeBuilder subclass"
assert hasattr(builder, "cmake_args") and hasattr(builder, "check"), "cmake_args and check() on the CMakeBuilder"
assert not hasattr(cls, "cmake_args"), "cmake_args on the package class would be ignored beside a CMakeBuilder"
# Every variable the recipe hands CMake must be one Weft's CMake files know (a renamed option is otherwise ignored).
root = os.path.dirname(here)
cmake_text = ""
for top, dirs, files in os.walk(root):
    dirs[:] = [d for d in dirs if d not in ("build", ".git", ".ccache", "spack")]
    for f in files:
        if f == "CMakeLists.txt" or f.endswith(".cmake"):
            cmake_text += open(os.path.join(top, f), errors="replace").read()
for var in sorted(set(re.findall(r'define(?:_from_variant)?\(\s*"(WEFT_[A-Z0-9_]+)"', source))):
    assert re.search(rf"\b{var}\b", cmake_text), f"the recipe sets {var}, which no CMake file of Weft reads"
for c in calls:
    if c[0] == "variant":
        assert c[1][0].islower(), f"variant names are lower case in Spack: {c[1][0]}"
print(f"{path}: ok ({len(calls)} directives, variants {sorted(variants)})")
