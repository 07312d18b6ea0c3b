#!/bin/sh
# usage: bench_scaling.sh PYTHON WEFT-BENCH CHECK_RESULT CHECK_CHART
# weft-bench --ranks 1,2 (strong) and --ranks 1,2 --weak on the MPI apps at size small: every app at every count in
# results.json (check_result.py), the efficiency column in the table, and the chart's data (check_chart.py scaling:
# the efficiencies recomputed from the figures of merit, the ideal line). A non-MPI app in a scaling run is refused.
set -u
python=$1 bench=$2 check_result=$3 check_chart=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_scaling: $*"; exit 1; }
for mode in strong weak; do
  flag=""
  [ $mode = weak ] && flag=--weak
  "$python" "$bench" --size small --ranks 1,2 $flag --json "$tmp/$mode.json" --app-json-dir "$tmp/records/$mode" \
    >"$tmp/$mode.log" 2>&1 || { cat "$tmp/$mode.log"; fail "the $mode scaling run failed"; }
  cat "$tmp/$mode.log"
  grep -q "efficiency" "$tmp/$mode.log" || fail "no efficiency column"
  "$python" "$check_result" suite "$tmp/$mode.json" || fail "$mode: results.json is wrong"
  "$python" "$check_chart" scaling "$tmp/$mode.chart.json" "$tmp/$mode.json" || fail "$mode: the chart's data is wrong"
  # --app-json-dir is created, and keeps a record per app and count
  for f in weft-heat-r1 weft-heat-r2 weft-cg-r1 weft-cg-r2; do
    [ -f "$tmp/records/$mode/$f.json" ] || fail "--app-json-dir lacks $f.json"
  done
done
grep -q '"mode": "weak"' "$tmp/weak.json" || fail "the weak run is not marked weak"
out=$("$python" "$bench" --ranks 1,2 --only stream --json "$tmp/x.json" 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "draws the scaling of the MPI apps" || fail "stream in a scaling run: $out"
echo "bench_scaling: ok"
