#!/bin/sh
# usage: bench_compare.sh PYTHON WEFT-BENCH CHECK_CHART
# Two small suites with --repeat 3 (weft-stream and weft-md), then `weft-bench compare` on them: its table, and its
# chart's data checked against both results files (check_chart.py compare: values, ratios, spreads and the rule for
# a real difference). Then the files compare refuses, each with one line and exit 2: different apps, a different
# size, a scaling run, something that is not a results file, a single file, records that are not what weft-bench
# writes (no figure_of_merit, no valid flag, not an object, nesting too deep, a figure near 1.7e308); and the charts
# `weft-bench draw` refuses the same way (no panels, a panel without its verdict, x <= 0 on the log axis of a scaling
# panel, a figure near 1.7e308, 3000 panels, which took a minute and 1 GB before failing).
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
grep -q "^app  .*  B/A  " "$tmp/cmp.log" || fail "no B/A column in the table's head"
grep -Eq "^weft-stream .* [0-9]+\.[0-9]{3}  " "$tmp/cmp.log" || fail "no B/A ratio on weft-stream's row"
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
# records and files that weft-bench did not write: each is one line, exit 2, no traceback
# (one script writes every changed copy: of the results file, NAME.json, and of compare's chart data, NAME.chart.json)
"$python" - "$tmp/a.json" "$tmp/cmp.chart.json" "$tmp" <<'PY'
import copy, json, sys
def variants(source, suffix, changes):
    d = json.load(open(source))
    for name, change in changes.items():
        v = copy.deepcopy(d)
        change(v)
        json.dump(v, open(f"{sys.argv[3]}/{name}{suffix}", "w"))
variants(sys.argv[1], ".json", {
    "nofom": lambda v: v["runs"][0].pop("figure_of_merit"),
    "novalid": lambda v: v["runs"][0].pop("valid"),
    "notobject": lambda v: v["runs"].__setitem__(0, 7),
    "huge": lambda v: v["runs"][0]["figure_of_merit"].__setitem__("value", 1.7e308),
    "badrepeat": lambda v: v["runs"][0].__setitem__("repeat", {"n": "three", "min": 1, "median": 2, "max": 3})})
open(f"{sys.argv[3]}/deep.json", "w").write("[" * 100000 + "]" * 100000)
lines = {"app": "weft-heat", "type": "lines", "x": [0, 2], "xlabel": "MPI ranks", "ylabel": "efficiency",
         "verdict": "PASS", "unit": "", "note": "", "series": [{"label": "Weft", "values": [1.0, 0.9], "role": "weft"}]}
variants(sys.argv[2], ".chart.json", {
    "nopanels": lambda v: v.pop("panels"),
    "noverdict": lambda v: v["panels"][0].pop("verdict"),
    "hugebar": lambda v: v["panels"][0]["bars"][0].__setitem__("value", 1.7e308),
    "many": lambda v: v.__setitem__("panels", v["panels"][:1] * 3000),
    "logx": lambda v: v.update(kind="scaling", panels=[lines])})
PY
refused "run 1 (weft-.*) has no figure_of_merit object" "$tmp/a.json" "$tmp/nofom.json"
refused "run 1 (weft-.*) has no valid flag" "$tmp/a.json" "$tmp/novalid.json"
refused "run 1 is a int, not an object" "$tmp/a.json" "$tmp/notobject.json"
refused "figure of merit of 1.7e+308, beyond" "$tmp/a.json" "$tmp/huge.json"
refused "has a repeat count that is not a whole number" "$tmp/a.json" "$tmp/badrepeat.json"
refused "nested too deep" "$tmp/a.json" "$tmp/deep.json"
[ -e "$tmp/no.png" ] && fail "a refused compare drew a chart"
# charts draw refuses (the data compare wrote, changed)
drawn() {  # drawn REGEX CHART
  out=$("$python" "$bench" draw "$2" "$tmp/bad.png" 2>&1)
  code=$?
  [ $code -eq 2 ] || fail "draw $2 exited $code, expected 2: $out"
  echo "$out" | grep -q "$1" || fail "draw $2: expected \"$1\", got: $out"
  echo "$out" | grep -q Traceback && fail "a traceback: $out"
  [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "draw $2: more than one line: $out"
  echo "refused as expected: $out"
}
drawn "it has no panels" "$tmp/nopanels.chart.json"
drawn "panel 1 has no verdict text" "$tmp/noverdict.chart.json"
drawn "its bars are not labels with numbers" "$tmp/hugebar.chart.json"
drawn "its x values are not positive numbers (a log axis)" "$tmp/logx.chart.json"
start=$(date +%s)
drawn "it has 3000 panels, more than 64" "$tmp/many.chart.json"
[ $(($(date +%s) - start)) -lt 20 ] || fail "refusing 3000 panels took $(($(date +%s) - start)) s"
[ -e "$tmp/bad.png" ] && fail "a refused draw drew a chart"
echo "bench_compare: ok"
