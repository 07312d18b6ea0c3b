#!/bin/sh
# usage: bench_signal.sh PYTHON WEFT-BENCH INT|TERM|HUP|KILL
# Starts weft-bench on the MPI app weft-heat over 2 ranks, sends it SIGINT, SIGTERM, SIGHUP or SIGKILL once the app
# runs, and passes when weft-bench exits 130 / 143 / 129 / 137, no process of the app (mpiexec or a rank) is left, and
# no temporary file of weft-bench's is left (TMPDIR is a fresh folder: the app's /tmp/weft-heat-*.json record goes
# there). Before the fixes SIGTERM left mpiexec and its ranks running, SIGINT was ignored in a background job, SIGHUP
# (a closed terminal) left the record behind, and SIGKILL, which no handler sees, left mpiexec and its ranks running:
# the launcher now dies with weft-bench (Linux's parent-death signal). After SIGKILL the empty record file of the app
# is the one thing left (weft-bench gets no chance to remove it): the test removes it and does not count it.
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
case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; KILL) want=137 ;; *) echo "bench_signal: $sig?"; exit 2 ;; esac
status=0
[ "$rc" -eq "$want" ] || { echo "bench_signal: weft-bench exited $rc, not $want"; status=1; }
# at most 10 s for the launcher to stop its ranks (after SIGKILL it learns of it from the parent-death signal)
i=0
while pgrep -f "weft-heat --n.*$tmp" >/dev/null 2>&1 && [ $i -lt 100 ]; do
  i=$((i + 1))
  sleep 0.1
done
if pgrep -f "weft-heat --n.*$tmp" >/dev/null 2>&1; then
  echo "bench_signal: processes of the app are left:"; pgrep -af "weft-heat --n.*$tmp"; status=1
  pkill -9 -f "weft-heat --n.*$tmp"
fi
# weft-bench's own temporary files (the launcher's session folder, ompi.*, is Open MPI's to clean)
[ "$sig" = KILL ] && find "$tmp" -maxdepth 1 -name 'weft-heat-*.json' -size 0 -delete
left=$(find "$tmp" -name 'weft-*' | head -5)
[ -z "$left" ] || { echo "bench_signal: files left behind: $left"; status=1; }
[ $status -eq 0 ] && echo "bench_signal: SIG$sig: exit $rc, the app stopped, nothing left behind"
exit $status
