#!/usr/bin/env bash
# ctest label `slurm`: Weft's job scripts and MPI apps on a throw-away one-node Slurm (scripts/slurm-local.sh).
#
# usage: tests/slurm/slurm_cluster.sh BUILD_DIR SOURCE_DIR
#
# Installs the build into a temporary prefix, starts the local Slurm (no GPUs), submits apps/slurm/suite-cpu.sbatch
# at size small on 2 tasks and checks its per-app JSON files and summary; runs weft-heat on 3 ranks and weft-cg on
# 4 ranks with srun and compares their answers with one-rank runs; submits a job whose app fails validation and
# checks that the job FAILED (in sacct too, when slurmdbd and MariaDB are installed); checks that the GPU script is
# refused with a gres error on a node without GPUs and accepted (sbatch --test-only, weak-scaling.sbatch too) on
# one with 4 declared GPUs; stops Slurm and checks nothing is left running.
# Without Slurm installed it is skipped (exit 77) unless WEFT_SLURM_REQUIRED=1; it needs root. Every Slurm command
# runs under a timeout, so a daemon that does not answer fails the test with its log instead of hanging it.
set -uo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-slurm-test.XXXXXX")
export WEFT_SLURM_DIR="$tmp/slurm"
slurm_local="$src/scripts/slurm-local.sh"
started=0

cleanup() {
  ((started)) && bash "$slurm_local" stop >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAILED: $*"
  for f in "$WEFT_SLURM_DIR"/log/*.log; do [ -f "$f" ] && { echo "--- last lines of $f"; tail -n 12 "$f"; }; done
  exit 1
}
t() { timeout "$@"; }  # t SECONDS command...: every Slurm command is bounded

if ! command -v slurmctld >/dev/null || ! command -v srun >/dev/null || ! command -v munged >/dev/null; then
  if [ "${WEFT_SLURM_REQUIRED:-0}" = 1 ]; then
    fail "Slurm is not installed (bash scripts/setup.sh --slurm) and WEFT_SLURM_REQUIRED=1"
  fi
  echo "SKIPPED: Slurm is not installed (bash scripts/setup.sh --slurm installs Debian's)"
  exit 77
fi
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: the local Slurm needs root"; exit 77; }
if [ -e /etc/slurm/slurm.conf ] || pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
  # A machine's own Slurm is left alone (scripts/slurm-local.sh refuses to start beside it).
  [ "${WEFT_SLURM_REQUIRED:-0}" = 1 ] && fail "a Slurm is already configured or running here; the test needs its own"
  echo "SKIPPED: this machine has a Slurm of its own (/etc/slurm/slurm.conf or a running daemon)"
  exit 77
fi

echo "==> the committed job scripts are what weft-bench --slurm-script prints"
for kind in cpu gpu; do
  python3 "$src/apps/bench/weft-bench" --slurm-script "$kind" | diff - "$src/apps/slurm/suite-$kind.sbatch" ||
    fail "apps/slurm/suite-$kind.sbatch differs from weft-bench --slurm-script $kind (regenerate it)"
done

echo "==> install into a temporary prefix"
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || fail "cmake --install"
prefix="$tmp/prefix"
[ -x "$prefix/bin/weft-heat" ] && [ -x "$prefix/bin/weft-cg" ] || fail "the install has no MPI apps (build with MPI)"

echo "==> start the local Slurm"
# With MariaDB and slurmdbd installed (scripts/setup.sh --slurm) the cluster keeps accounts, and sacct is checked.
accounting=()
if command -v mariadbd >/dev/null && command -v slurmdbd >/dev/null; then
  accounting=(--accounting)
elif [ "${WEFT_SLURM_REQUIRED:-0}" = 1 ]; then
  fail "WEFT_SLURM_REQUIRED=1 but slurmdbd or mariadb-server is missing (bash scripts/setup.sh --slurm)"
fi
# slurmdbd creates its tables on its first start: seconds on an idle machine, much longer on a loaded one.
started=1  # before start returns: a start killed by its timeout must still be stopped by the cleanup
t 150 bash "$slurm_local" start "${accounting[@]}" || fail "scripts/slurm-local.sh start"
export SLURM_CONF="$WEFT_SLURM_DIR/slurm.conf"
mpi="--mpi=pmix"

echo "==> sbatch --wait apps/slurm/suite-cpu.sbatch --size small (2 tasks)"
mkdir -p "$tmp/jobs"
job_out=$(cd "$tmp/jobs" && WEFT_PREFIX="$prefix" t 240 sbatch --parsable --wait "$src/apps/slurm/suite-cpu.sbatch" \
  --size small)
code=$?
job=${job_out%%;*}
[ -n "$job" ] || fail "sbatch printed no job id"
out="$tmp/jobs/weft-bench-$job.out"
[ -f "$out" ] || fail "no job output $out"
[ "$code" -eq 0 ] || { tail -30 "$out"; fail "the suite job $job exited with $code"; }
results="$tmp/jobs/weft-bench-$job"
for app in stream heat cg md gemm; do
  [ -f "$results/weft-$app.json" ] || fail "job $job wrote no $results/weft-$app.json"
  python3 "$src/tests/apps/check_result.py" record "$results/weft-$app.json" \
    "$(case $app in heat | cg) echo 2 ;; *) echo 1 ;; esac)" || fail "weft-$app.json of job $job"
done
python3 "$src/tests/apps/check_result.py" suite "$results/results.json" 2 || fail "results.json of job $job"
grep -Eq "^weft-heat +[A-Za-z]+ +2 .*PASSED" "$out" || { tail -12 "$out"; fail "no summary table with weft-heat on 2 ranks"; }
grep -q "exit status 0" "$out" || fail "the job's last line does not report exit status 0"
python3 "$src/tests/apps/check_chart.py" run "$results/results.chart.json" "$results/results.json" ||
  fail "the chart's data of job $job does not match its results.json"
echo "job $job: five apps PASSED, two of them on 2 ranks; summary table:"
sed -n '/^app /,/^$/p' "$out"

echo "==> a scaling job: weft-bench --ranks 1,2 --only heat in an allocation of 2 tasks (srun starts each count)"
scaling_out=$(cd "$tmp/jobs" && t 240 sbatch --parsable --wait --ntasks=2 --output="$tmp/jobs/scaling-%j.out" --wrap \
  "python3 $prefix/bin/weft-bench --bindir $prefix/bin --ranks 1,2 --only heat --size small --json $tmp/jobs/scaling.json")
code=$?
scaling_job=${scaling_out%%;*}
[ "$code" -eq 0 ] || { tail -30 "$tmp/jobs/scaling-$scaling_job.out"; fail "the scaling job $scaling_job exited $code"; }
grep -q "MPI apps run with srun --mpi=pmix" "$tmp/jobs/scaling-$scaling_job.out" ||
  fail "the scaling job did not launch the ranks with srun"
python3 "$src/tests/apps/check_result.py" suite "$tmp/jobs/scaling.json" || fail "scaling.json of job $scaling_job"
python3 "$src/tests/apps/check_chart.py" scaling "$tmp/jobs/scaling.chart.json" "$tmp/jobs/scaling.json" ||
  fail "the scaling chart's data of job $scaling_job"
sed -n '/^app /,/^$/p' "$tmp/jobs/scaling-$scaling_job.out"
# sacct_state JOBID: the job's state in the accounts once it has reached them (they are written asynchronously)
sacct_state() {
  local s=""
  for _ in $(seq 40); do
    s=$(t 10 sacct -n -P -X -j "$1" --format=State 2>/dev/null | head -1)
    case "$s" in COMPLETED | FAILED | CANCELLED* | TIMEOUT | OUT_OF_MEMORY | NODE_FAIL) break ;; esac
    sleep 0.25
  done
  echo "$s"
}
if ((${#accounting[@]})); then
  [ "$(sacct_state "$job")" = COMPLETED ] || fail "sacct: job $job is '$(sacct_state "$job")', expected COMPLETED"
  steps=$(t 10 sacct -n -P -j "$job" --format=JobID,JobName,NTasks,State)
  echo "sacct -j $job:"
  echo "$steps"
  for app in heat cg; do
    grep -q "^$job\.[0-9]*|weft-$app|2|COMPLETED$" <<<"$steps" || fail "sacct shows no weft-$app step of 2 tasks"
  done
fi

# The apps' answers (heat: the sum of the computed field; cg: the distance to the exact solution) depend on the rank
# split only through the order of additions: they must agree with one rank to the apps' own tolerances.
compare() {  # compare APP ONE.json MANY.json: prints the comparison, fails when the answers disagree
  python3 - "$@" <<'EOF'
import json, sys
app, one, many = sys.argv[1], *(json.load(open(p)) for p in sys.argv[2:])
m1, mn = one["metrics"], many["metrics"]
if app == "heat":  # the field matches the exact discrete solution to 1e-10 of the amplitude on any split
    s1, sn = m1["field_sum"], mn["field_sum"]
    print(f"weft-heat --n 33: field sum {sn!r} on {many['ranks']} ranks, {s1!r} on one (relative {abs(sn - s1) / abs(s1):.1e})")
    sys.exit(0 if abs(sn - s1) <= 1e-10 * abs(s1) else 1)
it1, itn = m1["iterations"], mn["iterations"]
print(f"weft-cg --n 37: {itn:g} iterations on {many['ranks']} ranks, {it1:g} on one; max |x - x*| {mn['max_error']:.2e} "
      f"and {m1['max_error']:.2e} (limit {m1['max_error_limit']:.2e})")
sys.exit(0 if abs(it1 - itn) <= 2 and max(m1["max_error"], mn["max_error"]) <= m1["max_error_limit"] else 1)
EOF
}
against_one_rank() {  # against_one_rank APP RANKS ARGS...: one rank bare, RANKS under srun, the answers compared
  local app=$1 n=$2
  shift 2
  echo "==> srun $mpi -n $n weft-$app $* against one rank"
  OMP_NUM_THREADS=1 "$prefix/bin/weft-$app" "$@" --json "$tmp/${app}1.json" >"$tmp/${app}1.txt" ||
    fail "weft-$app on one rank"
  OMP_NUM_THREADS=1 t 120 srun $mpi -n "$n" "$prefix/bin/weft-$app" "$@" --json "$tmp/$app$n.json" \
    >"$tmp/$app$n.txt" 2>&1 || { tail "$tmp/$app$n.txt"; fail "srun -n $n weft-$app"; }
  python3 "$src/tests/apps/check_result.py" record "$tmp/$app$n.json" "$n" || fail "weft-$app on $n ranks"
  compare "$app" "$tmp/${app}1.json" "$tmp/$app$n.json" || fail "weft-$app: $n ranks and one rank disagree"
}
against_one_rank heat 3 --n 33
against_one_rank cg 4 --n 37

echo "==> a job whose app fails validation FAILS"
mkdir -p "$tmp/bad/bin"
ln -s "$prefix/bin/weft-bench" "$tmp/bad/bin/weft-bench"
printf '#!/bin/sh\necho "Validation: FAILED (on purpose)"\nexit 1\n' >"$tmp/bad/bin/weft-stream"
chmod +x "$tmp/bad/bin/weft-stream"
bad_out=$(cd "$tmp/jobs" && WEFT_PREFIX="$tmp/bad" t 120 sbatch --parsable --wait "$src/apps/slurm/suite-cpu.sbatch" \
  --size small --only stream)
bad_code=$?
bad=${bad_out%%;*}
[ -n "$bad" ] || fail "sbatch printed no job id for the failing job"
[ "$bad_code" -ne 0 ] || fail "sbatch --wait returned 0 for job $bad, whose app failed validation"
state=$(t 20 scontrol show job "$bad" | grep -o "JobState=[A-Z_]*")
[ "$state" = "JobState=FAILED" ] || fail "job $bad: $state, expected JobState=FAILED"
grep -Eq "^weft-stream .*FAILED" "$tmp/jobs/weft-bench-$bad.out" || fail "job $bad's summary does not show FAILED"
if ((${#accounting[@]})); then
  [ "$(sacct_state "$bad")" = FAILED ] || fail "sacct: job $bad is '$(sacct_state "$bad")', expected FAILED"
  state="$state (sacct: FAILED)"
fi
echo "job $bad: $state, sbatch --wait exit $bad_code"

echo "==> the GPU script on a node without GPUs: refused, naming the missing GPUs"
msg=$(cd "$tmp/jobs" && t 20 sbatch --test-only "$src/apps/slurm/suite-gpu.sbatch" 2>&1) &&
  fail "sbatch --test-only accepted the GPU script on a node without GPUs: $msg"
grep -qi "gres" <<<"$msg" || fail "the refusal does not name the generic resource (GPUs): $msg"
echo "refused: $msg"
msg=$(t 20 srun --gpus-per-node=1 -n 1 true 2>&1) && fail "srun --gpus-per-node=1 ran on a node without GPUs"
grep -qi "gres" <<<"$msg" || fail "srun's refusal does not name the GPUs: $msg"

echo "==> the GPU script on a node with 4 declared GPUs: accepted"
bash "$slurm_local" stop >/dev/null
started=1
t 60 bash "$slurm_local" start --gpus 4 --slots 64 || fail "scripts/slurm-local.sh start --gpus 4"
msg=$(cd "$tmp/jobs" && t 20 sbatch --test-only "$src/apps/slurm/suite-gpu.sbatch" 2>&1) ||
  fail "sbatch --test-only refused the GPU script on a node with 4 GPUs: $msg"
echo "accepted: $msg"
# The weak-scaling script asks for 8 nodes: on this one node it is checked with --nodes=1.
msg=$(cd "$tmp/jobs" && t 20 sbatch --test-only --nodes=1 "$src/apps/slurm/weak-scaling.sbatch" 2>&1) ||
  fail "sbatch --test-only refused apps/slurm/weak-scaling.sbatch on one node with 4 GPUs: $msg"
# Each rank of a GPU job sees its rank on the node (what WEFT_MAP_DEVICE_ID_BY=mpi_rank maps to a GPU).
ids=$(t 60 srun --gpus-per-node=4 -n 4 sh -c 'echo $SLURM_LOCALID' | sort | tr '\n' ' ')
[ "$ids" = "0 1 2 3 " ] || fail "SLURM_LOCALID of 4 tasks: '$ids'"

echo "==> stop: no daemon left, the state folder removed"
bash "$slurm_local" stop || fail "scripts/slurm-local.sh stop"
started=0
sleep 0.5
for d in slurmctld slurmd slurmdbd; do
  pgrep -x "$d" >/dev/null && fail "$d still runs after stop"
done
# munged and mariadbd by their command lines (a machine may run its own MariaDB or munge beside this test's)
for d in munged mariadbd; do
  pgrep -f "$d.*$WEFT_SLURM_DIR" >/dev/null && fail "$d still runs after stop"
done
[ ! -e "$WEFT_SLURM_DIR" ] || fail "$WEFT_SLURM_DIR is still there"
echo "PASSED"
