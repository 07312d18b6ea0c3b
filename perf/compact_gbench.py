#!/usr/bin/env python3
"""usage: compact_gbench.py RESULTS.json [...]

Rewrites Google Benchmark JSON files in place with only what perf/compare.py and perf/report.py read: the context,
and per repetition its name, run name, repetition index, time, time unit and throughputs (aggregates dropped). The
summaries come out the same (checked: compare.py's output before and after); the files are a fifth of the size."""
import json
import sys

KEEP = ("name", "run_name", "run_type", "repetition_index", "real_time", "time_unit", "bytes_per_second",
        "items_per_second", "error_occurred", "error_message")

for path in sys.argv[1:]:
    with open(path) as f:
        data = json.load(f)
    runs = [{k: b[k] for k in KEEP if k in b} for b in data["benchmarks"] if b.get("run_type") != "aggregate"]
    with open(path, "w") as f:
        json.dump({"context": data.get("context", {}), "benchmarks": runs}, f, separators=(",", ":"))
        f.write("\n")
