#!/usr/bin/env python3
"""Prints one row per case of a Google Benchmark JSON file: Weft, baseline and their ratio, from the
best repetition (highest throughput, lowest time: the STREAM/BabelStream convention) and from the medians;
exits 1 when the best-of ratio misses the goal recorded in the goals file. The best-of figure is the one
judged because these shared machines flip between bandwidth states (seen here: 57 and 38 GB/s for the
same loop), which makes a median depend on how many repetitions fell in each state.

usage: compare.py RESULTS.json [GOALS.json]
  rate cases compare throughput (weft/baseline, higher is better); items are flops (TF/s) unless the goal
  says "items": "count" (M/s);
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


def best(rows, key):
    return max(r[key] for r in rows) if key == "bytes_per_second" else min(r[key] for r in rows)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    context, runs = load(sys.argv[1])
    goals = {}
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            goals = json.load(f)
    cases = sorted({n.rsplit("/", 1)[0] for n in runs if n.endswith("/weft")})
    print(f"{'case':<24}{'weft':>16}{'baseline':>16}{'ratio':>8}{'goal':>9}{'median ratio':>14}{'Kokkos':>8}  reps")
    failed = []
    for case in cases:
        w, b = runs.get(case + "/weft"), runs.get(case + "/baseline")
        if not w or not b:
            continue
        goal = goals.get(case, {})
        if "bytes_per_second" in w[0] and goal.get("metric", "rate") == "rate":
            key, scale, unit = "bytes_per_second", 1e-9, "GB/s"
        elif "items_per_second" in w[0] and goal.get("metric", "rate") == "rate":
            # flops in the GEMM cases; other item counts (map inserts, ...) in millions per second
            key = "items_per_second"
            scale, unit = (1e-6, "M/s") if goal.get("items") == "count" else (1e-12, "TF/s")
        else:
            key, scale, unit = "real_time", 1.0, w[0]["time_unit"]
        wv, bv = best(w, key) * scale, best(b, key) * scale
        ratio, mratio = wv / bv, median(w, key) / median(b, key)
        if key != "real_time":
            ok = ratio >= goal["min"] if "min" in goal else True
            gtxt = f">= {goal['min']:.2f}" if "min" in goal else "-"
        else:
            ok = ratio <= goal["max"] if "max" in goal else True
            gtxt = f"<= {goal['max']:.2f}" if "max" in goal else "-"
        kk = f"{goal['kokkos']:.2f}" if "kokkos" in goal else "-"
        flag = "" if ok else "  MISSED"
        print(f"{case:<24}{wv:>11.3f} {unit:<4}{bv:>11.3f} {unit:<4}{ratio:>8.3f}{gtxt:>9}{mratio:>14.3f}{kk:>8}  {len(w)}{flag}")
        if not ok:
            failed.append(case)
    if failed:
        print("missed goals: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
