#!/usr/bin/env bash
# The Kokkos unit-test harness's verdicts (compat/kokkos/unit-tests): summarize.py on made-up GoogleTest logs
# (a pass, a failed test, a crash inside a test and after the last one, a timeout, no test at all), the total line,
# and run.sh refusing bad arguments with status 2 before it builds anything.
set -uo pipefail
here=$(cd "$(dirname "$0")/../../compat/kokkos/unit-tests" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-harness-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0
expect() {  # expect NAME STATUS 'row regex' < log
  cat >"$tmp/$1.log"
  local row
  row=$(python3 "$here/summarize.py" "$tmp/$1.log" "$1" "$2") || { echo "FAIL $1: summarize.py failed"; bad=1; return; }
  if [[ $row =~ $3 ]]; then echo "ok   $row"; else echo "FAIL $1: got '$row', want /$3/"; bad=1; fi
  rows+=("$row")
}
rows=()
expect passes 0 '^\| passes \| yes \| 2 \| 2 \| 0 \| 0 \| pass \|' <<'L'
[ RUN      ] A.x
[       OK ] A.x (1 ms)
[ RUN      ] A.y
[       OK ] A.y (1 ms)
[==========] 2 tests from 1 test suite ran. (2 ms total)
L
expect fails 1 '^\| fails \| yes \| 2 \| 1 \| 1 \| 0 \| FAIL \| A.y \|' <<'L'
[ RUN      ] A.x
[       OK ] A.x (1 ms)
[ RUN      ] A.y
[  FAILED  ] A.y (1 ms)
[==========] 2 tests from 1 test suite ran. (2 ms total)
L
expect crash_in_test 139 '^\| crash_in_test \| yes \| 2 \| 1 \| 1 \| 0 \| FAIL \| A.y \(ended with status 139\)' <<'L'
[ RUN      ] A.x
[       OK ] A.x (1 ms)
[ RUN      ] A.y
L
expect crash_after_last 134 '^\| crash_after_last \| yes \| 1 \| 1 \| 0 \| 0 \| FAIL \| exit status 134 after its last test' <<'L'
[ RUN      ] A.x
[       OK ] A.x (1 ms)
[==========] 1 test from 1 test suite ran. (2 ms total)
[  PASSED  ] 1 test.
L
expect timeout 124 '\| FAIL \| A.x \(timed out\)' <<'L'
[ RUN      ] A.x
L
expect no_test 0 '^\| no_test \| yes \| 0 \| 0 \| 0 \| 0 \| FAIL \| no test ran' <<'L'
[==========] 0 tests from 0 test suites ran. (0 ms total)
L
# a file no-tests.txt lists passes with none, naming why; listed, it still fails when it crashes
expect Concepts 0 '^\| Concepts \| yes \| 0 \| 0 \| 0 \| 0 \| pass \| no test in this configuration: its checks are static' <<'L'
[==========] 0 tests from 0 test suites ran. (0 ms total)
L
expect Reducers_b 134 '^\| Reducers_b \| yes \| 0 \| 0 \| 0 \| 0 \| FAIL \| exit status 134' <<'L'
[==========] 0 tests from 0 test suites ran. (0 ms total)
L
rows+=("| broken | no | | | | | FAIL | error: x |")
total=$(python3 "$here/summarize.py" --total "${rows[@]}")
want='^\| \*\*total\*\* \| 8/9 \| 8 \| 5 \| 3 \| 0 \| 2/9 pass \|'
if [[ $total =~ $want ]]; then echo "ok   $total"; else echo "FAIL total: got '$total'"; bad=1; fi
# run.sh: bad arguments end with status 2 and one line, before anything is configured or built
mkdir -p "$tmp/kokkos/core/unit_test" "$tmp/prefix/lib/weft-kokkos/lib/cmake/Kokkos"
touch "$tmp/kokkos/core/unit_test/UnitTestMainInit.cpp" "$tmp/prefix/lib/weft-kokkos/lib/cmake/Kokkos/KokkosConfig.cmake"
for args in "--jobs abc" "--jobs 0" "--timeout x" "--kinds ," "--kinds corez" "--files ../x" "--category CUDA"; do
  # shellcheck disable=SC2086
  out=$(bash "$here/run.sh" --kokkos "$tmp/kokkos" --prefix "$tmp/prefix" --build "$tmp/b" $args 2>&1)
  rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$out") -eq 1 && ! -e $tmp/b/logs/configure.log ]]; then
    echo "ok   run.sh $args -> 2: $out"
  else
    echo "FAIL run.sh $args: status $rc, output: $out"; bad=1
  fi
done
# kernels/run.sh (Kokkos Kernels' runner): the same, against a stand-in checkout
kernels=$(cd "$here/../kernels" && pwd)
mkdir -p "$tmp/kk/blas/unit_test"
touch "$tmp/kk/CMakeLists.txt"
for args in "--jobs abc" "--timeout 0" "--backend cuda" "--components blas,foo" "--components ," "--programs ../x" \
  "--bogus" "--jobs"; do
  # shellcheck disable=SC2086
  out=$(bash "$kernels/run.sh" --kernels "$tmp/kk" --prefix "$tmp/prefix" --build "$tmp/kb" $args 2>&1)
  rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$out") -eq 1 && ! -e $tmp/kb/weft-logs/configure.log ]]; then
    echo "ok   kernels/run.sh $args -> 2: $out"
  else
    echo "FAIL kernels/run.sh $args: status $rc, output: $out"; bad=1
  fi
done
exit $bad
