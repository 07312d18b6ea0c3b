#!/usr/bin/env python3
"""Checks an app's JSON record (`record PATH [ranks]`) or weft-bench's results.json (`suite PATH [ranks]`) against
the schema in apps/README.md, and that every run validated. Exit status 0 when it holds."""
import json
import sys

RECORD = {"app": str, "backend": str, "compiler": str, "ranks": int, "threads": int, "figure_of_merit": dict,
          "valid": bool, "validation": str, "metrics": dict}
SUITE = {"schema": str, "date": str, "git_revision": str, "machine": dict, "backend": str, "ranks": (int, list),
         "total_seconds": (int, float), "runs": list}
RUN_EXTRA = {"command": str, "seconds": (int, float), "exit_code": int, "size": str}


def need(obj, fields, where):
    for k, t in fields.items():
        if k not in obj:
            sys.exit(f"{where}: missing \"{k}\"")
        if not isinstance(obj[k], t):
            sys.exit(f"{where}: \"{k}\" is {type(obj[k]).__name__}, expected {t}")


def check_record(r, where, ranks):
    need(r, RECORD, where)
    fom = r["figure_of_merit"]
    need(fom, {"name": str, "unit": str}, where + ".figure_of_merit")
    if not isinstance(fom.get("value"), (int, float)) or not fom["value"] > 0:
        sys.exit(f"{where}: the figure of merit is not a positive number: {fom.get('value')}")
    for k, v in r["metrics"].items():
        if v is not None and not isinstance(v, (int, float)):
            sys.exit(f"{where}: metric {k} is not a number")
    if not r["valid"]:
        sys.exit(f"{where}: {r['app']} did not validate: {r['validation']}")
    if ranks is not None and r["ranks"] != ranks:
        sys.exit(f"{where}: ran on {r['ranks']} ranks, expected {ranks}")


def main():
    kind, path = sys.argv[1], sys.argv[2]
    ranks = int(sys.argv[3]) if len(sys.argv) > 3 else None
    with open(path) as f:
        data = json.load(f)
    if kind == "record":
        check_record(data, path, ranks)
    else:
        need(data, SUITE, path)
        if data["schema"] != "weft-bench/1":
            sys.exit(f"{path}: schema {data['schema']}")
        need(data["machine"], {"hostname": str, "cores": int}, path + ".machine")
        if not data["runs"]:
            sys.exit(f"{path}: no runs")
        counts = data["ranks"] if isinstance(data["ranks"], list) else [data["ranks"]]
        if isinstance(data["ranks"], list):  # a scaling run: every MPI app at every count, in "scaling"
            need(data, {"scaling": dict}, path)
            if data["scaling"].get("ranks") != counts or data["scaling"].get("mode") not in ("strong", "weak"):
                sys.exit(f"{path}: scaling {data['scaling']} does not match ranks {counts}")
            for app in {r["app"] for r in data["runs"]}:
                got = sorted(r["ranks"] for r in data["runs"] if r["app"] == app)
                if got != counts:
                    sys.exit(f"{path}: {app} ran at ranks {got}, expected {counts}")
        for i, r in enumerate(data["runs"]):
            need(r, RUN_EXTRA, f"{path}.runs[{i}]")
            mpi = r["app"] in ("weft-heat", "weft-cg")
            check_record(r, f"{path}.runs[{i}]", (r["ranks"] if len(counts) > 1 else ranks) if mpi else 1)
            rep = r.get("repeat")
            if rep is not None:
                vals = sorted(rep["values"])
                if rep["n"] != len(vals) or not rep["min"] == vals[0] <= r["figure_of_merit"]["value"] <= vals[-1] == rep["max"]:
                    sys.exit(f"{path}.runs[{i}]: repeat {rep} does not hold the figure of merit "
                             f"{r['figure_of_merit']['value']} as its median")
    print(f"{path}: ok")


main()
