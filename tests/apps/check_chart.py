#!/usr/bin/env python3
"""check_chart.py KIND CHART.json RESULTS.json [RESULTS.json ...]: the data weft-bench wrote beside its picture
(KIND run, compare or scaling) holds what the results say, recomputed here from the results files: every app's
figure of merit and verdict, the baseline bars (the raw OpenMP triad, heat's bandwidth bound, cg's triad, the
vendor GEMM), their ratios, a compare's ratios and spreads with the rule for a real difference, and a scaling run's
parallel efficiencies with the ideal line. A PNG beside the data, when there is one, must be a PNG.
Exit status 0 when it holds."""
import json
import os
import sys

problems = []


def close(a, b, what, rel=1e-9):
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or abs(a - b) > rel * max(abs(a), abs(b)):
        problems.append(f"{what}: the chart has {a}, the results give {b}")


def bars_of(panel):
    return {b["label"]: b["value"] for b in panel["bars"]}


def check_run(chart, res):
    if chart["kind"] != "run":
        problems.append(f"kind {chart['kind']}, expected run")
    apps = [p["app"] for p in chart["panels"]]
    if apps != [r["app"] for r in res["runs"]]:
        problems.append(f"panels {apps} differ from the runs {[r['app'] for r in res['runs']]}")
    for p, r in zip(chart["panels"], res["runs"]):
        app, m = r["app"], r["metrics"]
        if p["verdict"] != ("PASS" if r["valid"] else p["verdict"]) or (p["verdict"] == "PASS") != r["valid"]:
            problems.append(f"{app}: verdict {p['verdict']} but valid is {r['valid']}")
        close(p["figure"]["value"], r["figure_of_merit"]["value"], f"{app} figure of merit")
        b = bars_of(p)
        ratio = p["ratios"][0]["value"] if p["ratios"] else None
        if app == "weft-stream" and "raw_openmp_triad_median_GBps" in m:
            close(b.get("Weft triad"), m["weft_triad_median_GBps"], "stream Weft triad")
            close(b.get("raw OpenMP triad"), m["raw_openmp_triad_median_GBps"], "stream raw triad")
            close(ratio, m["triad_over_raw_openmp"], "stream ratio")
        elif app == "weft-heat":
            close(b.get("Weft"), r["figure_of_merit"]["value"], "heat Weft bar")
            close(b.get("bound: triad / 16 B"), m["triad_GBps"] * 1e9 / 16 / r["ranks"], "heat bound")
            close(ratio, b.get("Weft", 0) / b.get("bound: triad / 16 B", 1), "heat fraction of the bound", 1e-6)
        elif app == "weft-cg":
            close(b.get("Weft SpMV"), m["spmv_GBps"], "cg SpMV")
            close(b.get("bound: triad"), m["triad_GBps"], "cg triad")
            close(ratio, m["spmv_over_triad"], "cg ratio")
        elif app == "weft-gemm" and any(k.endswith("_vendor_GFLOPs") for k in m):
            sizes = sorted(int(k.split("_")[1]) for k in m if k.startswith("double_") and k.endswith("_vendor_GFLOPs"))
            weft = [v for label, v in b.items() if label.endswith(" Weft")]
            vendor = [v for label, v in b.items() if not label.endswith(" Weft")]
            for n, w, v in zip(sizes, weft, vendor):
                close(w, m[f"double_{n}_native_GFLOPs"], f"gemm native n={n}")
                close(v, m[f"double_{n}_vendor_GFLOPs"], f"gemm vendor n={n}")
            if len(weft) != len(sizes) or len(vendor) != len(sizes):
                problems.append(f"gemm: {len(weft)} + {len(vendor)} bars for {len(sizes)} sizes")
            close(ratio, m[f"double_{sizes[-1]}_native_over_vendor"], "gemm ratio")
        elif app == "weft-md":
            if p["bars"] or "no baseline" not in p["note"]:
                problems.append("md: no baseline, but the panel draws bars or does not say so")
        if app != "weft-md" and r["valid"] and not p["bars"] and "no baseline" not in p["note"]:
            problems.append(f"{app}: neither bars nor a note saying why")
    for word in (res["backend"], res["git_revision"], res["machine"]["hostname"]):
        if word not in chart["title"]:
            problems.append(f"the title does not name {word}: {chart['title']}")


def check_compare(chart, results):
    if chart["kind"] != "compare" or len(chart["runs"]) != len(results):
        problems.append(f"kind {chart['kind']} with {len(chart.get('runs', []))} runs for {len(results)} files")
    for p in chart["panels"]:
        recs = [next(r for r in res["runs"] if r["app"] == p["app"]) for res in results]
        vals = [r["figure_of_merit"]["value"] for r in recs]
        for bar, r, v in zip(p["bars"], recs, vals):
            close(bar["value"], v, f"{p['app']} bar {bar['label']}")
            rep = r.get("repeat")
            if rep and rep["n"] >= 2:
                close(bar.get("low"), rep["min"], f"{p['app']} {bar['label']} min")
                close(bar.get("high"), rep["max"], f"{p['app']} {bar['label']} max")
                close(v, sorted(rep["values"])[len(rep["values"]) // 2] if len(rep["values"]) % 2 else
                      sum(sorted(rep["values"])[len(rep["values"]) // 2 - 1:len(rep["values"]) // 2 + 1]) / 2,
                      f"{p['app']} {bar['label']} median of {rep['values']}")
        for q, r, v in zip(p["ratios"], recs[1:], vals[1:]):
            close(q["value"], v / vals[0], f"{p['app']} {q['label']}")
            a, b = recs[0].get("repeat"), r.get("repeat")
            if a and b:
                real = b["min"] > a["max"] or b["max"] < a["min"]
                if q["verdict"].startswith("real") != real:
                    problems.append(f"{p['app']} {q['label']}: called \"{q['verdict']}\" with ranges "
                                    f"{a['min']}-{a['max']} and {b['min']}-{b['max']}")
            elif not q["verdict"].startswith("spread unknown"):
                problems.append(f"{p['app']}: no repeats, yet the difference is called \"{q['verdict']}\"")


def check_scaling(chart, res):
    if chart["kind"] != "scaling":
        problems.append(f"kind {chart['kind']}, expected scaling")
    for p in chart["panels"]:
        runs = sorted((r for r in res["runs"] if r["app"] == p["app"]), key=lambda r: r["ranks"])
        if p["x"] != [r["ranks"] for r in runs] or p["x"] != res["scaling"]["ranks"]:
            problems.append(f"{p['app']}: x {p['x']} against the runs' ranks {[r['ranks'] for r in runs]}")
        per_rank = p["app"] == "weft-heat"
        total = [r["figure_of_merit"]["value"] * (r["ranks"] if per_rank else 1) for r in runs]
        weft = next(s for s in p["series"] if s["role"] == "weft")["values"]
        ideal = next(s for s in p["series"] if s["role"] == "ideal")["values"]
        for r, t, e in zip(runs, total, weft):
            close(e, (t / r["ranks"]) / (total[0] / runs[0]["ranks"]), f"{p['app']} efficiency at {r['ranks']} ranks")
        if ideal != [1.0] * len(runs):
            problems.append(f"{p['app']}: the ideal line is {ideal}")
    if res["scaling"]["mode"] not in chart["title"]:
        problems.append("the title does not say strong or weak")


def main():
    kind, chart_path, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(chart_path) as f:
        chart = json.load(f)
    results = []
    for path in paths:
        with open(path) as f:
            results.append(json.load(f))
    if chart.get("schema") != "weft-bench-chart/1":
        problems.append(f"schema {chart.get('schema')}")
    {"run": lambda: check_run(chart, results[0]), "compare": lambda: check_compare(chart, results),
     "scaling": lambda: check_scaling(chart, results[0])}[kind]()
    png = chart_path[:-len(".chart.json")] + ".png"
    if os.path.exists(png):
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                problems.append(f"{png} is not a PNG")
    if problems:
        sys.exit(f"{chart_path}:\n  " + "\n  ".join(problems))
    print(f"{chart_path}: {kind} chart ok ({len(chart['panels'])} panels)")


main()
