#!/usr/bin/env python3
"""Prints one row per case of a Google Benchmark JSON file: Weft, baseline and their ratio, from the
medians of the repetitions; exits 1 when a ratio misses the goal recorded in the goals file.

usage: compare.py RESULTS.json [GOALS.json]
  rate cases compare throughput (weft/baseline, higher is better);
  time cases compare time per iteration (weft/baseline, lower is better)."""
import json
import statistics
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        if b.get("error_occurred"):
            sys.exit(f"{b['name']}: {b.get('error_message')}")
        parts = b.get("run_name", b["name"]).split("/")
        side = next((i for i, p in enumerate(parts) if p in ("weft", "baseline")), None)
        if side is None:
            continue
        runs.setdefault("/".join(parts[: side + 1]), []).append(b)
    return data.get("context", {}), runs


def median(rows, key):
    return statistics.median(r[key] for r in rows)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    context, runs = load(sys.argv[1])
    goals = {}
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            goals = json.load(f)
    cases = sorted({n.rsplit("/", 1)[0] for n in runs if n.endswith("/weft")})
    print(f"{'case':<14}{'weft':>16}{'baseline':>16}{'ratio':>9}{'goal':>10}{'Kokkos':>9}  reps")
    failed = []
    for case in cases:
        w, b = runs.get(case + "/weft"), runs.get(case + "/baseline")
        if not w or not b:
            continue
        goal = goals.get(case, {})
        if "bytes_per_second" in w[0] and goal.get("metric", "rate") == "rate":
            wv, bv = median(w, "bytes_per_second") / 1e9, median(b, "bytes_per_second") / 1e9
            ratio, unit = wv / bv, "GB/s"
            ok = ratio >= goal["min"] if "min" in goal else True
            gtxt = f">= {goal['min']:.2f}" if "min" in goal else "-"
        else:
            wv, bv = median(w, "real_time"), median(b, "real_time")
            ratio, unit = wv / bv, w[0]["time_unit"]
            ok = ratio <= goal["max"] if "max" in goal else True
            gtxt = f"<= {goal['max']:.2f}" if "max" in goal else "-"
        kk = f"{goal['kokkos']:.2f}" if "kokkos" in goal else "-"
        flag = "" if ok else "  MISSED"
        print(f"{case:<14}{wv:>11.3f} {unit:<4}{bv:>11.3f} {unit:<4}{ratio:>9.3f}{gtxt:>10}{kk:>9}  {len(w)}{flag}")
        if not ok:
            failed.append(case)
    if failed:
        print("missed goals: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
