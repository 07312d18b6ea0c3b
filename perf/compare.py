#!/usr/bin/env python3
"""Prints one row per case of a Google Benchmark JSON file: Weft, baseline and their ratio, and exits 1 when a
goal in the goals file is missed.

The ratio judged is the median of same-round ratios: repetition i of <case>/weft against repetition i of
<case>/baseline (run with --benchmark_enable_random_interleaving, repetition i of every case runs in the same
round, so both sides of a pair saw the same machine state), printed with the spread of those ratios (lowest and
highest). The best repetition of each side (highest throughput, lowest time: the STREAM/BabelStream convention)
and its ratio are printed beside it for reference; shared machines flip between bandwidth states, which moves
best-of figures and medians of each side, and same-round pairs less.

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


def case_key(first_run, goal):
    """The field a case is judged by: its throughput (bytes, else items) for rate goals, else its time."""
    rate = goal.get("metric", "rate") == "rate"
    if rate and "bytes_per_second" in first_run:
        return "bytes_per_second"
    if rate and "items_per_second" in first_run:
        return "items_per_second"
    return "real_time"


def cases_with_both(runs):
    """(case, weft runs, baseline runs) for every case with both sides."""
    for case in sorted({n.rsplit("/", 1)[0] for n in runs if n.endswith("/weft")}):
        w, b = runs.get(case + "/weft"), runs.get(case + "/baseline")
        if w and b:
            yield case, w, b


def best(rows, key):
    return max(r[key] for r in rows) if key == "bytes_per_second" else min(r[key] for r in rows)


def same_round_ratios(w, b, key):
    """weft/baseline per repetition index (the same round under random interleaving); one pair when the runs
    carry no repetition index (a single repetition)."""
    wi = {r.get("repetition_index", 0): r[key] for r in w}
    bi = {r.get("repetition_index", 0): r[key] for r in b}
    common = sorted(set(wi) & set(bi))
    if not common:
        sys.exit("compare.py: no repetition of weft and baseline in the same round")
    return [wi[i] / bi[i] for i in common]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    context, runs = load(sys.argv[1])
    goals = {}
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            goals = json.load(f)
    print(f"{'case':<24}{'weft':>16}{'baseline':>16}{'best':>8}{'ratio':>8}{'spread':>15}{'goal':>9}  pairs")
    failed = []
    for case, w, b in cases_with_both(runs):
        goal = goals.get(case, {})
        key = case_key(w[0], goal)
        if key == "bytes_per_second":
            scale, unit = 1e-9, "GB/s"
        elif key == "items_per_second":
            # flops in the GEMM cases; other item counts (map inserts, ...) in millions per second
            scale, unit = (1e-6, "M/s") if goal.get("items") == "count" else (1e-12, "TF/s")
        else:
            scale, unit = 1.0, w[0]["time_unit"]
        wv, bv = best(w, key) * scale, best(b, key) * scale
        best_ratio = wv / bv
        pairs = same_round_ratios(w, b, key)
        ratio = statistics.median(pairs)
        if key != "real_time":
            ok = ratio >= goal["min"] if "min" in goal else True
            gtxt = f">= {goal['min']:.2f}" if "min" in goal else "-"
        else:
            ok = ratio <= goal["max"] if "max" in goal else True
            gtxt = f"<= {goal['max']:.2f}" if "max" in goal else "-"
        flag = "" if ok else "  MISSED"
        spread = f"{min(pairs):.3f}-{max(pairs):.3f}"
        print(f"{case:<24}{wv:>11.3f} {unit:<4}{bv:>11.3f} {unit:<4}{best_ratio:>8.3f}{ratio:>8.3f}{spread:>15}"
              f"{gtxt:>9}  {len(pairs)}{flag}")
        if not ok:
            failed.append(case)
    if failed:
        print("missed goals: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
