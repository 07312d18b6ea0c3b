#!/usr/bin/env bash
# Builds Weft's host benchmarks as a user would for their machine and runs them in alternating rounds: medians of
# the rounds' ratios against the raw baselines, with their spread, beside the goals; JSON and a PNG chart per suite.
#
# usage: scripts/perf.sh [--rounds N (5, at least 3)] [--build DIR (build/perf-native)] [--suites LIST]
#                        [--march FLAG (native)] [--quick]
#   --suites   comma-separated, of host_core, linalg, algorithms (all three by default)
#   --quick    small sizes and few repetitions: checks that everything runs, measures nothing worth quoting
#
# Conditions, the same on both sides of every ratio: Weft's code and the baseline's are in the same source files,
# compiled by the same compiler with the same flags (Release, -march=native unless --march says otherwise);
# OpenBLAS is Debian's prebuilt OpenMP build, which picks its kernels for the CPU at run time; OMP_NUM_THREADS
# (default: every CPU), OMP_PROC_BIND=spread and OMP_PLACES=cores for both; the sort baselines run in a process of
# their own (no Weft thread beside them). Each round runs every suite once, in an order rotated from round to round.
# Before each round the machine's load is sampled for a second (nothing of this script runs then): more than a fifth
# of a core busy elsewhere is printed as a warning, since the ratios of that round are then doubtful.
# Results: DIR/perf-results/{SUITE}-rN.json (each round), {SUITE}.json and {SUITE}.png (the summary), load.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 build=build/perf-native suites=host_core,linalg,algorithms march=native quick=0
while (($#)); do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --suites) suites=$2; shift 2 ;;
    --march) march=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "scripts/perf.sh: unknown option $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
if ! [[ $rounds =~ ^[0-9]+$ ]] || ((rounds < 3 && !quick)); then
  echo "scripts/perf.sh: --rounds $rounds: at least 3 rounds are needed for a median and a spread" >&2
  exit 2
fi
IFS=, read -ra suite_list <<<"$suites"
for s in "${suite_list[@]}"; do
  case "$s" in host_core | linalg | algorithms) ;; *) echo "scripts/perf.sh: unknown suite $s" >&2; exit 2 ;; esac
done

bash scripts/setup.sh --chart
source scripts/ccache-env.sh  # one cache for every checkout (CI's clone reuses this one's work)
echo "==> configuring $build: Release, -march=$march on Weft's side and the baselines' alike"
cmake --preset default -B "$build" -DCMAKE_CXX_FLAGS="-march=$march" -DWEFT_ENABLE_TESTS=OFF \
  -DWEFT_ENABLE_APPS=OFF >"$build.configure.log" 2>&1 || { tail -20 "$build.configure.log"; exit 1; }
targets=()
for s in "${suite_list[@]}"; do targets+=("weft-perf-${s//_/-}"); done
cmake --build "$build" --target "${targets[@]}"

out="$build/perf-results"
rm -rf "$out"
mkdir -p "$out"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-$(nproc)}" OMP_PROC_BIND=spread OMP_PLACES=cores
cores=$(nproc)

# busy CPU time of the whole machine over one second, in cores
busy_cores() {
  local a b
  read -ra a < <(grep '^cpu ' /proc/stat)
  sleep 1
  read -ra b < <(grep '^cpu ' /proc/stat)
  local busy=0 total=0 i
  for i in 1 2 3 4 5 6 7 8; do
    total=$((total + b[i] - a[i]))
    ((i == 4 || i == 5)) || busy=$((busy + b[i] - a[i]))  # idle and iowait are not busy
  done
  awk -v b="$busy" -v t="$total" -v c="$cores" 'BEGIN { printf "%.2f", (t > 0) ? b / t * c : 0 }'
}

run_suite() {  # SUITE ROUND
  local s=$1 r=$2 f="$out/$1-r$2.json"
  case "$s" in
    host_core)
      local reps=5 mt=0.1
      ((quick)) && reps=2 mt=0.01
      "$build/perf/host_core/weft-perf-host-core" --benchmark_repetitions=$reps \
        --benchmark_enable_random_interleaving=true --benchmark_min_time=$mt \
        --benchmark_out="$f" --benchmark_out_format=json >"$out/$s-r$r.txt"
      ;;
    linalg)
      local args=()
      ((quick)) && args=(--reps 3 --n 16 --len 65536 --gemm 128)
      "$build/perf/linalg/weft-perf-linalg" "${args[@]}" --json "$f" >"$out/$s-r$r.txt"
      ;;
    algorithms)
      local args=()
      ((quick)) && args=(--reps 2 --sort-n 65536 --copy-n 65536)
      "$build/perf/algorithms/weft-perf-algorithms" "${args[@]}" --json "$f" >"$out/$s-r$r.txt"
      ;;
  esac
}

echo "==> $rounds rounds of ${suite_list[*]} on $OMP_NUM_THREADS threads ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores CPUs)"
warned=0
for ((r = 1; r <= rounds; r++)); do
  busy=$(busy_cores)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "round $r: machine busy $busy cores in the second before (load average $load)" | tee -a "$out/load.txt"
  if awk -v b="$busy" 'BEGIN { exit !(b > 0.2) }'; then
    echo "  WARNING: other processes are using the cores ($busy busy): this round's ratios are doubtful" |
      tee -a "$out/load.txt"
    warned=1
  fi
  n=${#suite_list[@]}
  for ((k = 0; k < n; k++)); do
    s=${suite_list[$(((k + r - 1) % n))]}
    t0=$(date +%s)
    run_suite "$s" "$r" || { echo "scripts/perf.sh: $s failed in round $r (its output: $out/$s-r$r.txt)" >&2; exit 1; }
    echo "  $s: $(($(date +%s) - t0)) s"
  done
done

specs=()
for s in "${suite_list[@]}"; do
  files=$(seq 1 "$rounds" | sed "s|.*|$out/$s-r&.json|" | paste -sd,)
  specs+=("$s:perf/$s/goals.json:$files")
done
echo
# Debian's python3, which setup.sh gave matplotlib for the charts (a pyenv or venv python3 first on PATH may lack it).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" perf/report.py "$out" "${specs[@]}"
((warned)) && echo "Some rounds ran beside other work (see $out/load.txt): rerun on a quiet machine before quoting them."
echo "Results: $out"
