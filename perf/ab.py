#!/usr/bin/env python3
"""A/B of two builds of one Google-Benchmark suite (before and after a change), in alternating rounds.

usage: perf/ab.py BIN_A BIN_B [--filter REGEX] [--rounds N] [--min-time S]

Each round runs both binaries (the order alternating) with OMP_NUM_THREADS=2 OMP_PROC_BIND=spread
OMP_PLACES=cores unless set; for every case NAME with NAME/weft/... and NAME/baseline/... rows it takes the
same-run ratio weft/baseline (the baseline is the same code in both binaries, so the ratio cancels most of the
machine's drift) and prints, per binary, the median ratio over the rounds with its min and max, and the medians of
the absolute times.
"""
import argparse
import json
import os
import re
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--filter", default=".")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--min-time", default="0.3")
    args = ap.parse_args()
    env = dict(os.environ)
    for k, v in [("OMP_NUM_THREADS", "2"), ("OMP_PROC_BIND", "spread"), ("OMP_PLACES", "cores")]:
        env.setdefault(k, v)
    bins = {"A": args.a, "B": args.b}
    res = {"A": {}, "B": {}}
    for r in range(args.rounds):
        for key in (["A", "B"] if r % 2 == 0 else ["B", "A"]):
            out = subprocess.run([bins[key], "--benchmark_filter=" + args.filter, "--benchmark_format=json",
                                  "--benchmark_min_time=" + args.min_time], capture_output=True, text=True, env=env,
                                 check=True).stdout
            times = {}
            for row in json.loads(out)["benchmarks"]:
                m = re.match(r"([^/]+)/(weft|baseline)(/.*)?$", row["name"])
                if m:
                    times.setdefault(m.group(1), {})[m.group(2)] = row["real_time"]
            for case, t in times.items():
                if "weft" in t and "baseline" in t:
                    res[key].setdefault(case, []).append((t["weft"] / t["baseline"], t["weft"], t["baseline"]))
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        print("round %d (load %s): " % (r, load) + "  ".join(
            "%s %s %.3f" % (k, c, v[-1][0]) for k in res for c, v in sorted(res[k].items())), flush=True)
    for key in res:
        for case, v in sorted(res[key].items()):
            ratios = [x[0] for x in v]
            print("%s %-14s median weft/baseline %.3f (min %.3f, max %.3f over %d rounds); weft %.0f, baseline %.0f"
                  " (medians, the suite's unit)" % (key, case, statistics.median(ratios), min(ratios), max(ratios),
                                                   len(v), statistics.median(x[1] for x in v),
                                                   statistics.median(x[2] for x in v)))


if __name__ == "__main__":
    main()
