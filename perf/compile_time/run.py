#!/usr/bin/env python3
"""Compile time and peak compiler memory of fixed small programs, Weft against Kokkos.

Each probe (one_kernel, team, reducers: one source each, see api.hpp) is compiled to an object file
(-O3, no ccache) `--reps` times; the median wall time and the largest peak resident memory of the
compiler processes are reported. The stream mini-app and a raw OpenMP loop are compiled too, for scale.
With --kokkos PREFIX (a Kokkos install) the same probes are compiled against Kokkos with the same
compiler and flags and the ratio Weft/Kokkos is printed; the goals are <= 0.50 on the host and <= 0.60
with CUDA. With --cuda-build DIR (a configured and built Weft CUDA build) the probes are compiled with
nvcc for the architectures of that build; --kokkos-cuda PREFIX adds Kokkos's CUDA figures.

usage: perf/compile_time/run.py [--build build/default] [--kokkos PREFIX] [--cuda-build build/cuda]
                                [--kokkos-cuda PREFIX] [--reps 3] [--json FILE]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "perf", "compile_time")
PROBES = ["one_kernel", "team", "reducers"]
GOALS = {"host": 0.50, "cuda": 0.60}


def weft_includes(build):
    inc = [os.path.join(ROOT, "core", "include"), os.path.join(build, "generated", "include")]
    for b in ["host", "serial", "openmp", "gpu", "cuda"]:
        inc.append(os.path.join(ROOT, "backends", b, "include"))
    return ["-I" + d for d in inc]


def cache_value(build, key):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split("=", 1)[1].strip()
    return ""


def measure(cmd, reps):
    """Median seconds and peak KiB (largest over the reps) of compiling with `cmd`."""
    times, peaks = [], []
    env = dict(os.environ, CCACHE_DISABLE="1")
    for _ in range(reps):
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        out = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("compile failed: " + " ".join(cmd) + "\n" + out.decode(errors="replace")[-4000:])
        peaks.append(usage.ru_maxrss)  # KiB on Linux; wait4 folds in the compiler's own child processes
    return statistics.median(times), max(peaks)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "default"))
    ap.add_argument("--kokkos", help="Kokkos install prefix (host backends) to compare against")
    ap.add_argument("--cuda-build", help="a Weft CUDA build directory: adds nvcc figures")
    ap.add_argument("--kokkos-cuda", help="Kokkos install prefix built with CUDA")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()

    cxx = os.environ.get("CXX", "g++")
    host_flags = ["-std=c++20", "-O3", "-fopenmp", "-c"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "probe.o")

        def run(config, program, lib, cmd):
            sec, kib = measure(cmd + ["-o", obj], a.reps)
            rows.append({"config": config, "program": program, "library": lib, "seconds": sec, "peak_mib": kib / 1024})

        build = os.path.abspath(a.build)
        for p in PROBES:
            src = os.path.join(HERE, p + ".cpp")
            run("host", p, "weft", [cxx] + host_flags + weft_includes(build) + [src])
            if a.kokkos:
                run("host", p, "kokkos", [cxx] + host_flags + ["-DCT_KOKKOS", "-I" + os.path.join(a.kokkos, "include"), src])
        run("host", "stream app", "weft", [cxx] + host_flags + weft_includes(build) + ["-I" + os.path.join(ROOT, "apps", "common"),
                                                                                     os.path.join(ROOT, "apps", "stream", "main.cpp")])
        run("host", "raw OpenMP loop", "none", [cxx] + host_flags + [os.path.join(HERE, "raw_openmp.cpp")])

        if a.cuda_build:
            cb = os.path.abspath(a.cuda_build)
            nvcc = cache_value(cb, "CMAKE_CUDA_COMPILER") or "nvcc"
            archs = cache_value(cb, "CMAKE_CUDA_ARCHITECTURES").split(";")
            gencode = [f"-gencode=arch=compute_{x},code=[compute_{x},sm_{x}]" for x in archs if x]
            cuda_flags = ["-std=c++20", "-O3", "-x", "cu", "--extended-lambda", "--expt-relaxed-constexpr",
                          "-Xcompiler=-fopenmp", "-diag-suppress=20012", "-c"] + gencode
            for p in PROBES:
                src = os.path.join(HERE, p + ".cpp")
                run("cuda", p, "weft", [nvcc] + cuda_flags + weft_includes(cb) + [src])
                if a.kokkos_cuda:
                    run("cuda", p, "kokkos", [nvcc] + cuda_flags + ["-DCT_KOKKOS", "-I" + os.path.join(a.kokkos_cuda, "include"), src])

    print(f"# perf/compile_time on {platform.node()}: {cxx}, object files, median of {a.reps}, peak = largest RSS")
    print(f"{'config':6} {'program':16} {'library':8} {'seconds':>8} {'peak MiB':>9} {'Weft/Kokkos':>12}")
    missed = []
    for r in rows:
        ratio = ""
        if r["library"] == "weft":
            k = [q for q in rows if q["library"] == "kokkos" and q["config"] == r["config"] and q["program"] == r["program"]]
            if k:
                r["ratio_to_kokkos"] = r["seconds"] / k[0]["seconds"]
                ratio = f"{r['ratio_to_kokkos']:.3f}"
                if r["program"] == "one_kernel" and r["ratio_to_kokkos"] > GOALS[r["config"]]:
                    missed.append(f"{r['config']} one_kernel {ratio} > {GOALS[r['config']]}")
        print(f"{r['config']:6} {r['program']:16} {r['library']:8} {r['seconds']:8.2f} {r['peak_mib']:9.0f} {ratio:>12}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"schema": "weft-compile-time/1", "compiler": cxx, "reps": a.reps, "rows": rows}, f, indent=1)
    for m in missed:
        print("goal MISSED:", m)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
