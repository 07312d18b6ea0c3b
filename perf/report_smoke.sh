#!/usr/bin/env bash
# ctest perf_report_smoke: weft-perf-linalg and weft-perf-algorithms at tiny sizes write their --json files, and
# perf/report.py combines three rounds of each into its summary (every case, one positive ratio per round, the goals
# judged), as scripts/perf.sh does; a missing round fails it. usage: report_smoke.sh BUILD_DIR
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in 1 2 3; do
  "$build/perf/linalg/weft-perf-linalg" --reps 3 --n 8 --len 4096 --gemm 64 --json "$tmp/linalg-r$r.json" >/dev/null
  "$build/perf/algorithms/weft-perf-algorithms" --reps 2 --sort-n 4096 --copy-n 4096 \
    --json "$tmp/algorithms-r$r.json" >/dev/null
done
rounds() { echo "$tmp/$1-r1.json,$tmp/$1-r2.json,$tmp/$1-r3.json"; }
python3 "$here/report.py" "$tmp/out" "linalg:$here/linalg/goals.json:$(rounds linalg)" \
  "algorithms:$here/algorithms/goals.json:$(rounds algorithms)"
python3 - "$tmp/out" <<'PY'
import json, sys
want = {"linalg": {"dot", "add", "spmv", "dgemm", "sgemm", "trsm_2048x1", "trsm_2048x256", "gemv_row", "gemv_col"},
        "algorithms": {"sort_vs_gnu_parallel", "sort_vs_std", "copy_if"}}
for suite, cases in want.items():
    rows = {r["case"]: r for r in json.load(open(f"{sys.argv[1]}/{suite}.json"))["cases"]}
    assert set(rows) == cases, (suite, sorted(rows))
    for r in rows.values():
        assert r["rounds"] == 3 and all(x > 0 for x in r["ratios"]), r
        assert r["min"] <= r["median"] <= r["max"], r
        assert (r["goal"] is None) == (r["met"] is None), r
print("perf_report_smoke: every case of both suites summarized over 3 rounds")
PY
# a round whose file is missing is an error, not a smaller median
if python3 "$here/report.py" "$tmp/out2" "linalg:$here/linalg/goals.json:$tmp/linalg-r1.json,$tmp/none.json" \
  >/dev/null 2>&1; then
  echo "perf_report_smoke: report.py accepted a missing round" >&2
  exit 1
fi
