#!/usr/bin/env python3
"""Public Kokkos programs built twice with their own build systems, against Weft's drop-in and against Kokkos,
then run side by side.

Each program is configured with its own CMake twice, with the same compiler, build type and flags: once with
find_package(Kokkos) reaching Weft's drop-in (an install of Weft: PREFIX/lib/weft-kokkos), once reaching a Kokkos
install. Every compile goes through this script as the compiler launcher, which records its wall time and the
peak resident memory of the compiler (wait4's rusage covers its child processes). The two executables then run in
alternating rounds (Weft first in odd rounds, Kokkos first in even ones) with the same OpenMP threads and binding;
each round checks that both printed the same answer (the program's own result or validation) and takes the ratio
of their times (the program's own timer where it prints one). Printed per program: median Weft/Kokkos time
ratio with its spread (min..max over rounds), the absolute medians, the build's compile time (the compilers' CPU
time, user + system, summed over the program's files: less sensitive to a loaded machine than wall time, which
the JSON keeps too) and peak compiler memory on each side, and the machine's load before and after.

A program that does not build, run, print its figures or agree gets a FAILED row (its error on stderr, and in the
JSON); the others still run, and the script exits non-zero naming the failed ones.

The checkouts and the Kokkos install live outside the repository (brought onto the machine by hand, see
DEVELOPERS.md); this script never copies anything from them.

usage: perf/kokkos_side_by_side.py --weft PREFIX --kokkos PREFIX --checkouts DIR [--work DIR] [--rounds 5]
                                   [--threads 2] [--json FILE] [PROGRAM...]
  DIR holds BabelStream/, CloverLeaf/, TeaLeaf/, miniBUDE/, gray-scott-kokkos/, kokkos-tutorials/ and kokkos/ (tag
  4.6.01, for its benchmarks), as cloned; PROGRAM names pick some of the table below.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

TUTORIAL_TIME = r"time\( *([0-9.eE+-]+) s \)"
TUTORIAL_ANSWER = r"Computed result for [0-9 x]+ is ([0-9.eE+-]+)"


def babelstream(n):
    return {
        "src": "BabelStream",
        "cmake": ["-DMODEL=kokkos", "-DKOKKOS_IN_PACKAGE={package}"],
        "exe": "kokkos-stream",
        "args": ["-s", str(n), "-n", "20"],
        # The program's own figures: the sum of the five kernels' fastest times.
        "time": r"^(?:Copy|Mul|Add|Triad|Dot)\s+[0-9.]+\s+([0-9.]+)",
        "time_sum": True,
        "answer": None,
        "fail": r"Validation failed",
    }


def uob(src, exe, args, time, answer, fail, cmake=("-DMODEL=kokkos", "-DKOKKOS_IN_PACKAGE={package}")):
    """A UoB-HPC mini-app: its own validation decides, and its printed difference from the reference answer
    (which depends on the order of the reductions) must agree between the two sides to `tol`."""
    return {"src": src, "cmake": list(cmake), "exe": exe, "args": args, "time": time, "answer": answer,
            "answer_tol": 1e-6, "fail": fail}


def tutorial(name, exe, args):
    return {
        "src": "kokkos-tutorials/Exercises/%s/Solution" % name,
        "cmake": ["-DKokkos_ROOT={root}"],
        "exe": exe,
        "args": args,
        "time": TUTORIAL_TIME,
        "answer": TUTORIAL_ANSWER,
        "fail": r"Error:",
    }


PROGRAMS = {
    "babelstream-2^25": babelstream(2**25),
    "babelstream-2^27": babelstream(2**27),
    # UoB-HPC/CloverLeaf's 960x960 benchmark, 87 steps (test problem 2: its kinetic energy is checked).
    "cloverleaf-bm_short": uob("CloverLeaf", "kokkos-cloverleaf", ["--file", "{src}/InputDecks/clover_bm_short.in"],
                               r"Wall clock ([0-9.eE+-]+)", r"is within ([0-9.eE+-]+)% of the expected",
                               r"NOT PASSED|FAILED"),
    # UoB-HPC/TeaLeaf's tea.in: 512x512, 20 steps of CG (test problem 5, checked against tea.problems); its
    # "Wallclock" is the time since the first step.
    "tealeaf-tea.in": uob("TeaLeaf", "kokkos-tealeaf", ["--file", "{src}/tea.in", "--problems", "{src}/tea.problems"],
                          r"Wallclock:\s+([0-9.eE+-]+)s", r"PASSED \(Difference is within ([0-9.eE+-]+)%",
                          r"FAILED"),
    # UoB-HPC/miniBUDE's bm1 deck (65536 poses), 8 timed iterations after its 2 warm-up ones; its own check
    # against the deck's reference energies. Its Kokkos model only takes -DKOKKOS_IN_TREE (a Kokkos source tree
    # it add_subdirectory's): a stand-in folder that find_package's the install is given instead, on both sides.
    "minibude-bm1": uob("miniBUDE", "kokkos-bude", ["--deck", "{src}/data/bm1", "-i", "8"],
                        r"best: \{ min_ms: [0-9.]+, max_ms: [0-9.]+, sum_ms: ([0-9.]+)",
                        r"max_diff_%: ([0-9.eE+-]+)", r"valid: false|Verification failed",
                        cmake=("-DMODEL=kokkos", "-DKOKKOS_IN_TREE={in_tree}")),
    # Maison-de-la-Simulation/gray-scott-kokkos, exercises/cpu_base at 256x384, 2000 steps, no HDF5 output: whole
    # process wall time (it prints no timer); both fields' checksums must agree. Its CMake asks for Kokkos 5.1.1
    # and CLI11 2.4 (Debian 12 has 2.1.2, which has every call it makes) and CMake 3.28 (--cmake): stand-in
    # config folders that accept those versions and load the real packages are given on both sides.
    "gray-scott-cpu_base": {
        "src": "gray-scott-kokkos/exercises/cpu_base", "cmake": ["-DCLI11_DIR={cli11}"], "exe": "gray_scott_cpu_base",
        "args": ["-n", "256", "-m", "384", "-i", "2000", "-N"], "time": None, "answer_all": True,
        "answer": r"Checksum field \S+ at iteration \d+\D*([0-9.eE+-]+)", "fail": None,
        "accept_versions": {"Kokkos": "5.1.1", "CLI11": "2.4"},
    },
    "team_policy": tutorial("team_policy", "TeamPolicy", ["-nrepeat", "20"]),
    "team_scratch_memory": tutorial("team_scratch_memory", "TeamScratchMemory", ["-nrepeat", "20"]),
    "team_vector_loop": tutorial("team_vector_loop", "TeamVectorLoop", ["-nrepeat", "20"]),
    "mdrange": tutorial("mdrange", "mdrange_exercise", ["-nrepeat", "20"]),
    # Kokkos's own benchmarks/view_copy_constructor (a kokkos checkout at tag 4.6.01): a max-reduction of 2^27
    # iterations, each copy-constructing a struct of 40 Views inside the kernel and destroying it; its time of the
    # kernel ("View Time"). Its CMakeLists.txt uses Kokkos's in-tree macro, so a stand-in project that
    # find_package's Kokkos compiles the same source file on both sides.
    "view_copy_constructor": {
        "src": "kokkos/benchmarks/view_copy_constructor", "standin": ["view_copy_constructor.cpp"], "cmake": [],
        "exe": "view_copy_constructor", "args": ["-i", str(2**27)], "time": r"View Time = ([0-9.eE+-]+) seconds",
        "answer": r"Kokkos run:\s+(SUCCESS)", "fail": r"FAILURE",
    },
}


class ProgramFailed(Exception):
    """A program that did not build, run, print its figures or agree: its row says so and the others still run."""


def launcher(argv):
    """Runs one compile (argv after '--launch LOG'), appending 'seconds peak_kib output' to LOG."""
    log, cmd = argv[0], argv[1:]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd)
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    out = cmd[cmd.index("-o") + 1] if "-o" in cmd else "?"
    if out.endswith(".o"):  # compiles only (links are not the compiler's cost the goal is about)
        with open(log, "a") as f:
            f.write("%.3f %.3f %d %s\n" % (seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out))
    return os.waitstatus_to_exitcode(status)


def kokkos_config_dir(prefix):
    for d in ["lib/weft-kokkos/lib/cmake/Kokkos", "lib/cmake/Kokkos", "lib64/cmake/Kokkos"]:
        if os.path.isfile(os.path.join(prefix, d, "KokkosConfig.cmake")):
            return os.path.join(prefix, d)
    sys.exit("no KokkosConfig.cmake under %s (lib/weft-kokkos/lib/cmake/Kokkos, lib/cmake/Kokkos or lib64)" % prefix)


def build(prog, side, config_dir, args, work):
    """Configures and builds `prog` against one side; returns (executable, compile seconds, peak MiB)."""
    bdir = os.path.join(work, "%s-%s" % (prog["name"], side))
    shutil.rmtree(bdir, ignore_errors=True)
    os.makedirs(bdir)
    # <package>/lib64/cmake/Kokkos, as BabelStream's KOKKOS_IN_PACKAGE reaches it: a folder of links to the
    # install's entries (config files find their libraries relative to themselves), lib64 being its lib.
    root = os.path.dirname(os.path.dirname(os.path.dirname(config_dir)))
    package = os.path.join(bdir, "package")
    os.makedirs(package)
    for e in os.listdir(root):
        os.symlink(os.path.join(root, e), os.path.join(package, e))
    if not os.path.exists(os.path.join(package, "lib64")):
        os.symlink(os.path.dirname(os.path.dirname(config_dir)), os.path.join(package, "lib64"))
    # For a program that only takes a Kokkos source tree (miniBUDE): a folder whose CMakeLists.txt finds the
    # install instead and makes its targets visible to the parent project, as add_subdirectory's would be.
    in_tree = os.path.join(bdir, "kokkos-in-tree")
    os.makedirs(in_tree)
    with open(os.path.join(in_tree, "CMakeLists.txt"), "w") as f:
        f.write("find_package(Kokkos REQUIRED CONFIG PATHS \"%s\" NO_DEFAULT_PATH)\n"
                "foreach(t Kokkos::kokkos Kokkos::kokkoscore Kokkos::kokkoscontainers Kokkos::kokkosalgorithms)\n"
                "  if(TARGET ${t})\n"
                "    get_target_property(aliased ${t} ALIASED_TARGET)\n"
                "    if(aliased)\n      set(t ${aliased})\n    endif()\n"
                "    get_target_property(imported ${t} IMPORTED)\n"
                "    if(imported)\n      set_target_properties(${t} PROPERTIES IMPORTED_GLOBAL TRUE)\n    endif()\n"
                "  endif()\nendforeach()\n" % config_dir)
    # Stand-in config folders for a program that asks for newer versions than the machine has (gray-scott): they
    # accept the version asked for and include the real package's config.
    real = {"Kokkos": config_dir, "CLI11": "/usr/share/cmake/CLI11"}
    for pkg, version in prog.get("accept_versions", {}).items():
        d = os.path.join(bdir, "accept-" + pkg)
        os.makedirs(d)
        with open(os.path.join(d, pkg + "Config.cmake"), "w") as f:
            f.write('include("%s/%sConfig.cmake")\n' % (real[pkg], pkg))
        with open(os.path.join(d, pkg + "ConfigVersion.cmake"), "w") as f:
            f.write('include("%s/%sConfigVersion.cmake")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n'
                    'set(PACKAGE_VERSION_EXACT FALSE)\nset(PACKAGE_VERSION_UNSUITABLE FALSE)\n'
                    'message(STATUS "%s: accepting version ${PACKAGE_VERSION} for %s (perf/kokkos_side_by_side.py)")\n'
                    % (real[pkg], pkg, pkg, version))
        real[pkg] = d
    config_dir = real["Kokkos"]
    src = os.path.join(args.checkouts, prog["src"])
    if "standin" in prog:  # a project around the program's sources, for one built only inside its own tree
        standin = os.path.join(bdir, "standin")
        os.makedirs(standin)
        with open(os.path.join(standin, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.16)\nproject(%s CXX)\nfind_package(Kokkos REQUIRED)\n"
                    "add_executable(%s %s)\ntarget_link_libraries(%s Kokkos::kokkos)\n" %
                    (prog["exe"], prog["exe"], " ".join('"%s"' % os.path.join(src, f) for f in prog["standin"]),
                     prog["exe"]))
        src = standin
    log = os.path.join(bdir, "compiles.log")
    subs = {"package": package, "root": config_dir, "in_tree": in_tree, "cli11": real["CLI11"]}
    cmd = [args.cmake, "-S", src, "-B", os.path.join(bdir, "build"), "-G", "Ninja",
           "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=" + args.cxx, "-DKokkos_DIR=" + config_dir,
           "-DCMAKE_CXX_COMPILER_LAUNCHER=%s;%s;--launch;%s" % (sys.executable, os.path.abspath(__file__), log)]
    cmd += [c.format(**subs) for c in prog["cmake"]]
    for step in (cmd, [args.cmake, "--build", os.path.join(bdir, "build"), "-j", "1"]):
        r = subprocess.run(step, capture_output=True, text=True)
        if r.returncode != 0:
            raise ProgramFailed("%s (%s): %s failed:\n%s" %
                                (prog["name"], side, step[:2], (r.stdout + r.stderr)[-3000:]))
    exe = None
    for root, _, files in os.walk(os.path.join(bdir, "build")):
        if prog["exe"] in files:
            exe = os.path.join(root, prog["exe"])
    if not exe:
        raise ProgramFailed("%s (%s): no executable %s" % (prog["name"], side, prog["exe"]))
    secs, cpu, peak = 0.0, 0.0, 0
    with open(log) as f:
        for line in f:
            s, c, k, _ = line.split(" ", 3)
            secs += float(s)
            cpu += float(c)
            peak = max(peak, int(k))
    return exe, secs, peak / 1024.0, cpu


def run(prog, exe, env, checkouts):
    src = os.path.join(checkouts, prog["src"])
    # in the build folder: some programs write their own output files into the current folder
    t0 = time.perf_counter()
    r = subprocess.run([exe] + [a.format(src=src) for a in prog["args"]], capture_output=True, text=True, env=env,
                       cwd=os.path.dirname(exe))
    wall = time.perf_counter() - t0
    out = r.stdout + r.stderr
    if r.returncode != 0 or (prog["fail"] and re.search(prog["fail"], out)):
        raise ProgramFailed("%s failed (exit %d):\n%s" % (exe, r.returncode, out[-3000:]))
    times = [float(x) for x in re.findall(prog["time"], out, re.M)] if prog["time"] else [wall]
    if not times:
        raise ProgramFailed("%s: no time found in its output:\n%s" % (exe, out[-2000:]))
    t = sum(times) if prog.get("time_sum") else times[-1]
    found = re.findall(prog["answer"], out) if prog["answer"] else ["validated"]
    if not found:
        raise ProgramFailed("%s: no answer found in its output:\n%s" % (exe, out[-2000:]))
    answer = " ".join(found) if prog.get("answer_all") else found[-1]
    return t, answer


def same_answer(prog, a, b):
    if "answer_tol" not in prog or not prog["answer"]:
        return a == b
    # a difference from the reference in percent: both near zero, or equal to the tolerance
    x, y = float(a), float(b)
    return abs(x - y) <= prog["answer_tol"] * max(1.0, abs(x), abs(y))


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--launch":
        sys.exit(launcher(sys.argv[2:]))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weft", required=True, help="a Weft install prefix (host backends)")
    ap.add_argument("--kokkos", required=True, help="a Kokkos install prefix")
    ap.add_argument("--checkouts", required=True)
    ap.add_argument("--work", default=None, help="build folder (default: a temporary one, removed)")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cmake", default="cmake", help="the cmake to build with (gray-scott needs 3.28 or later)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    names = args.programs or list(PROGRAMS)
    for n in names:
        if n not in PROGRAMS:
            sys.exit("unknown program %s; known: %s" % (n, " ".join(PROGRAMS)))
    work = args.work or os.path.join("/tmp", "weft-side-by-side-%d" % os.getpid())
    os.makedirs(work, exist_ok=True)
    sides = {"weft": kokkos_config_dir(args.weft), "kokkos": kokkos_config_dir(args.kokkos)}
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), OMP_PROC_BIND="spread", OMP_PLACES="threads")
    results = []
    print("%-22s %8s %-14s %10s %10s | %9s %9s %6s | %8s %8s %6s | load" %
          ("program", "ratio", "spread", "weft s", "kokkos s", "cpu weft", "cpu kokkos", "ratio", "MiB weft",
           "MiB kokkos", "ratio"))
    failed = []

    def save():  # after each program: a later program's failure keeps the rows measured before it
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)

    for name in names:
        prog = dict(PROGRAMS[name], name=name)
        try:
            built = {side: build(prog, side, d, args, work) for side, d in sides.items()}
            load0 = loadavg()
            ratios, tw, tk = [], [], []
            for r in range(args.rounds):
                order = ["weft", "kokkos"] if r % 2 == 0 else ["kokkos", "weft"]
                got = {side: run(prog, built[side][0], env, args.checkouts) for side in order}
                if not same_answer(prog, got["weft"][1], got["kokkos"][1]):
                    raise ProgramFailed("%s: the answers differ: Weft %s, Kokkos %s" %
                                        (name, got["weft"][1], got["kokkos"][1]))
                tw.append(got["weft"][0])
                tk.append(got["kokkos"][0])
                ratios.append(got["weft"][0] / got["kokkos"][0])
        except ProgramFailed as e:
            print("%-22s FAILED: %s" % (name, str(e).splitlines()[0]), flush=True)
            print(str(e), file=sys.stderr, flush=True)
            failed.append(name)
            results.append({"program": name, "failed": str(e)[-3000:]})
            save()
            continue
        load1 = loadavg()
        row = {
            "program": name, "ratio_median": statistics.median(ratios), "ratio_min": min(ratios),
            "ratio_max": max(ratios), "weft_s": statistics.median(tw), "kokkos_s": statistics.median(tk),
            "compile_s": {s: built[s][1] for s in sides}, "compile_cpu_s": {s: built[s][3] for s in sides},
            "compile_peak_mib": {s: built[s][2] for s in sides},
            "answer": got["weft"][1], "load": [load0, load1], "rounds": args.rounds, "threads": args.threads,
        }
        results.append(row)
        cw, ck = row["compile_cpu_s"]["weft"], row["compile_cpu_s"]["kokkos"]
        mw, mk = row["compile_peak_mib"]["weft"], row["compile_peak_mib"]["kokkos"]
        print("%-22s %7.3fx %-14s %10.4g %10.4g | %8.1fs %8.1fs %5.2fx | %8.0f %8.0f %5.2fx | %.1f-%.1f" %
              (name, row["ratio_median"], "%.3f..%.3f" % (row["ratio_min"], row["ratio_max"]), row["weft_s"],
               row["kokkos_s"], cw, ck, cw / ck, mw, mk, mw / mk, load0, load1), flush=True)
        save()
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        sys.exit("failed: " + " ".join(failed))


if __name__ == "__main__":
    main()
