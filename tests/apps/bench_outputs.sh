#!/bin/sh
# usage: bench_outputs.sh PYTHON WEFT-BENCH HANGING-APP-DIR
# Outputs that are not plain files:
# - standard output closed while an app runs (`weft-bench ... | head -1`; the app is one that prints a line and then
#   sleeps): weft-bench stops the app's whole session within seconds (its heartbeat line finds the closed pipe even when
#   the app prints nothing more), removes the app's temporary record, and exits 2 with one line on standard error.
#   Before, it exited 2 silently and left the app running and its temporary JSON behind.
# - --json onto a symbolic link: the link's target gets the results and the link stays a link (before, the link was
#   replaced by a plain file).
set -u
python=$1 bench=$2 hang=$3
d=$(mktemp -d)
trap 'pkill -9 -f "hanging_app/weft-stream.*$d" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "bench_outputs: $*"; exit 1; }

closed_pipe() {  # closed_pipe LINES: the reader takes LINES lines of standard output and ends
  start=$(date +%s)
  { TMPDIR=$d "$python" "$bench" --only stream --bindir "$hang" --timeout 120 --json "$d/r.json" 2>"$d/err"
    echo $? >"$d/rc"; } | head -"$1" >/dev/null
  took=$(($(date +%s) - start))
  rc=$(cat "$d/rc")
  cat "$d/err"
  [ "$rc" -eq 2 ] || fail "weft-bench exited $rc with its standard output closed, not 2"
  grep -q "standard output was closed" "$d/err" || fail "no line saying standard output was closed"
  grep -q Traceback "$d/err" && fail "a traceback"
  [ "$took" -lt 60 ] || fail "it took $took s to notice (the app sleeps 300 s)"
  sleep 0.5
  pgrep -af "hanging_app/weft-stream.*$d" && fail "the app is still running"
  left=$(find "$d" -name 'weft-*')
  [ -z "$left" ] || fail "temporary files left: $left"
  [ -e "$d/r.json" ] && fail "results were written"
  echo "closed pipe after $1 line(s): exit 2 after $took s, nothing running, nothing left"
}
# before the app starts (the reader takes the suite's first line), then while it runs (its "==>" line too; the app's
# own line or the heartbeat 10 s later finds the pipe closed)
closed_pipe 1
closed_pipe 2
grep -q "stopping weft-stream" "$d/err" || fail "the app was not running when the pipe closed (no stopping line)"

ln -s "$d/real.json" "$d/link.json"
"$python" "$bench" --only gemm --size small --json "$d/link.json" --png "$d/c.png" >"$d/log" 2>&1 ||
  { cat "$d/log"; fail "the run through a link failed"; }
[ -L "$d/link.json" ] || fail "--json replaced the symbolic link"
"$python" -c "import json, sys; d = json.load(open(sys.argv[1])); assert d['runs'][0]['app'] == 'weft-gemm'" \
  "$d/real.json" || fail "the link's target does not hold the results"
echo "symbolic link: the target holds the results, the link stays"
echo "bench_outputs: ok"
