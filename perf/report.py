#!/usr/bin/env python3
"""Combines the rounds of scripts/perf.sh: one ratio per case and round, then their median and spread across the
rounds, beside each case's goal; writes SUITE.json and SUITE.png (a bar chart, when matplotlib is there) per suite.

A round's ratio is the one its benchmark is judged by on its own: for Google Benchmark files (host_core) the
median of same-round ratios (perf/compare.py's rule: repetition i of weft against repetition i of the baseline
under random interleaving); for the hand-timed suites (perf/perf_json.hpp: linalg, algorithms) the median of the
baseline's times over the median of Weft's. Ratios are oriented as perf/README.md says: rates are weft/baseline
(above 1 is Weft faster), "time" goals are Weft's time / the baseline's (below 1 is faster).

usage: report.py OUT_DIR SUITE:GOALS.json:ROUND.json[,ROUND.json...] [...]
Prints one table per suite; exits 1 when a round's file is missing or unreadable, 0 otherwise (missed goals are
printed as MISSED and listed in the JSON, since the figures are the result)."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (perf/compare.py: Google Benchmark files)


def gbench_round(path, goals):
    """{case: ratio} of one Google Benchmark JSON file."""
    _, runs = compare.load(path)
    return {case: statistics.median(compare.same_round_ratios(w, b, compare.case_key(w[0], goals.get(case, {}))))
            for case, w, b in compare.cases_with_both(runs)}


def hand_round(data, goals):
    """{case: ratio} of one perf_json.hpp file."""
    out = {}
    for c in data["cases"]:
        w, b = statistics.median(c["weft_s"]), statistics.median(c["baseline_s"])
        time_goal = goals.get(c["name"], {}).get("metric") == "time"
        out[c["name"]] = w / b if time_goal else b / w
    return out


def load_round(path, goals):
    with open(path) as f:
        data = json.load(f)
    if "benchmarks" in data:
        return gbench_round(path, goals), {}
    return hand_round(data, goals), {c["name"]: c.get("baseline", "") for c in data["cases"]}


def chart(path, suite, rows):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no chart (python3-matplotlib is not installed: scripts/setup.sh --chart)"
    names = [r["case"] for r in rows]
    med = [r["median"] for r in rows]
    lo = [r["median"] - r["min"] for r in rows]
    hi = [r["max"] - r["median"] for r in rows]
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(rows) + 2), 4))
    colors = ["tab:red" if r["met"] is False else "tab:blue" for r in rows]
    ax.bar(names, med, yerr=[lo, hi], capsize=3, color=colors)
    for i, r in enumerate(rows):
        g = r.get("goal")
        if g is not None:
            ax.plot([i - 0.4, i + 0.4], [g, g], color="black", linewidth=1)
    ax.axhline(1.0, color="gray", linewidth=0.5)
    ax.set_ylabel("ratio to the baseline")
    ax.set_title(f"perf/{suite}: median of {rows[0]['rounds']} rounds (whiskers: min-max; lines: goals; rates Weft/baseline, "
                 "time cases Weft time/baseline)", fontsize=9)
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for spec in sys.argv[2:]:
        suite, goals_path, rounds = spec.split(":", 2)
        with open(goals_path) as f:
            goals = json.load(f)
        per_case, baselines = {}, {}
        files = rounds.split(",")
        for path in files:
            if not os.path.exists(path):
                sys.exit(f"report.py: {suite}: round file {path} is missing (that round's benchmark failed?)")
            ratios, names = load_round(path, goals)
            baselines.update(names)
            for case, r in ratios.items():
                per_case.setdefault(case, []).append(r)
        rows = []
        for case, rs in per_case.items():
            goal = goals.get(case, {})
            time_case = goal.get("metric") == "time"
            bound = goal.get("max") if time_case else goal.get("min")
            med = statistics.median(rs)
            met = None if bound is None else (med <= bound if time_case else med >= bound)
            rows.append({"case": case, "baseline": baselines.get(case, "raw"), "rounds": len(rs),
                         "median": med, "min": min(rs), "max": max(rs), "ratios": rs, "goal": bound,
                         "goal_kind": "max" if time_case else "min", "met": met})
        print(f"perf/{suite}: ratios over {len(files)} rounds (median, min-max)")
        print(f"  {'case':<22}{'median':>8}{'spread':>15}{'goal':>9}  baseline")
        for r in rows:
            g = "-" if r["goal"] is None else ("<= " if r["goal_kind"] == "max" else ">= ") + f"{r['goal']:.2f}"
            flag = "  MISSED" if r["met"] is False else ""
            print(f"  {r['case']:<22}{r['median']:>8.3f}{r['min']:>8.3f}-{r['max']:<6.3f}{g:>9}  "
                  f"{r['baseline']}{flag}")
        with open(os.path.join(out_dir, f"{suite}.json"), "w") as f:
            json.dump({"suite": suite, "rounds": files, "cases": rows}, f, indent=1)
        if rows:
            print("  chart: " + chart(os.path.join(out_dir, f"{suite}.png"), suite, rows))
        missed = [r["case"] for r in rows if r["met"] is False]
        if missed:
            print("  missed goals: " + ", ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
