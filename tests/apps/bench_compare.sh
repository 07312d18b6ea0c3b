#!/bin/sh
# usage: bench_compare.sh PYTHON WEFT-BENCH CHECK_CHART
# Two small suites with --repeat 3 (weft-stream and weft-md), then `weft-bench compare` on them: its table, and its
# chart's data checked against both results files (check_chart.py compare: values, ratios, spreads and the rule for
# a real difference). Then the files compare refuses, each with one line and exit 2: different apps, a different
# size, a scaling run, something that is not a results file, a single file.
set -u
python=$1 bench=$2 check=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_compare: $*"; exit 1; }
for run in a b; do
  "$python" "$bench" --size small --only stream,md --repeat 3 --json "$tmp/$run.json" >"$tmp/$run.log" 2>&1 ||
    { cat "$tmp/$run.log"; fail "the suite $run failed"; }
done
grep -q "3 runs" "$tmp/a.log" || fail "the table does not show the spread of the 3 runs"
"$python" "$bench" compare "$tmp/a.json" "$tmp/b.json" --png "$tmp/cmp.png" >"$tmp/cmp.log" 2>&1 ||
  { cat "$tmp/cmp.log"; fail "compare failed"; }
cat "$tmp/cmp.log"
grep -q "^weft-stream .*B/A\|B/A" "$tmp/cmp.log" || fail "no B/A column"
"$python" "$check" compare "$tmp/cmp.chart.json" "$tmp/a.json" "$tmp/b.json" || fail "the chart's data is wrong"
# refused: each is exit 2 with a line saying why
refused() {  # refused REGEX FILES...
  regex=$1
  shift
  out=$("$python" "$bench" compare "$@" --png "$tmp/no.png" 2>&1)
  code=$?
  [ $code -eq 2 ] || fail "compare $* exited $code, expected 2: $out"
  echo "$out" | grep -q "$regex" || fail "compare $*: expected \"$regex\", got: $out"
  echo "$out" | grep -q Traceback && fail "a traceback: $out"
  echo "refused as expected: $out"
}
"$python" "$bench" --size small --only stream --json "$tmp/c.json" >/dev/null 2>&1 || fail "the suite c failed"
refused "ran different apps" "$tmp/a.json" "$tmp/c.json"
"$python" - "$tmp/a.json" "$tmp/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["size"] = "medium"
json.dump(d, open(sys.argv[2], "w"))
d["scaling"] = {"mode": "strong", "ranks": [1, 2]}
json.dump(d, open(sys.argv[2].replace("d.json", "e.json"), "w"))
PY
refused "weft-stream ran at size small in .* and medium in" "$tmp/a.json" "$tmp/d.json"
refused "is a scaling run" "$tmp/a.json" "$tmp/e.json"
echo "not json" >"$tmp/f.json"
refused "is not JSON" "$tmp/a.json" "$tmp/f.json"
refused "needs two or more results files" "$tmp/a.json"
[ -e "$tmp/no.png" ] && fail "a refused compare drew a chart"
echo "bench_compare: ok"
