#!/bin/sh
# usage: bench_signal.sh PYTHON WEFT-BENCH INT|TERM
# Starts weft-bench on the MPI app weft-heat over 2 ranks, sends it SIGINT or SIGTERM once the app runs, and passes
# when weft-bench exits 130 / 143, no process of the app (mpiexec or a rank) is left, and no temporary file of
# weft-bench's is left (TMPDIR is a fresh folder: the app's /tmp/weft-heat-*.json record goes there). Before the fix
# SIGTERM left mpiexec and its ranks running, and SIGINT was ignored in a background job.
# Only this run's processes are looked for (their command line holds its TMPDIR): another suite may run beside it.
set -u
python=$1 bench=$2 sig=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TMPDIR=$tmp "$python" "$bench" --only heat --ranks 2 --size medium --json "$tmp/out/results.json" >"$tmp.log" 2>&1 &
pid=$!
mkdir -p "$tmp/out"
# until a rank of the app runs (at most 60 s)
i=0
while ! pgrep -f "weft-heat --n.*$tmp" >/dev/null 2>&1; do
  i=$((i + 1))
  if [ $i -gt 600 ]; then echo "bench_signal: weft-heat never started"; cat "$tmp.log"; exit 1; fi
  sleep 0.1
done
sleep 1
kill -"$sig" "$pid"
wait "$pid"
rc=$?
cat "$tmp.log"
rm -f "$tmp.log"
want=$([ "$sig" = INT ] && echo 130 || echo 143)
status=0
[ "$rc" -eq "$want" ] || { echo "bench_signal: weft-bench exited $rc, not $want"; status=1; }
sleep 0.5
if pgrep -f "weft-heat --n.*$tmp" >/dev/null 2>&1; then
  echo "bench_signal: processes of the app are left:"; pgrep -af "weft-heat --n.*$tmp"; status=1
  pkill -9 -f "weft-heat --n.*$tmp"
fi
# weft-bench's own temporary files (the launcher's session folder, ompi.*, is Open MPI's to clean)
left=$(find "$tmp" -name 'weft-*' | head -5)
[ -z "$left" ] || { echo "bench_signal: files left behind: $left"; status=1; }
[ $status -eq 0 ] && echo "bench_signal: SIG$sig: exit $rc, the app stopped, nothing left behind"
exit $status
