#!/bin/sh
# usage: architecture_catches.sh SOURCE_DIR
# Shows that architecture.sh fails on a deliberately bad include: a throw-away tree with one offending line per rule
# must be reported rule by rule (six reports), with exit status 1.
src=${1:?usage: architecture_catches.sh SOURCE_DIR}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/core/src" "$d/backends/gpu" "$d/algorithms" "$d/linalg/src" "$d/comm/src"
printf '#include <weft/serial/space.hpp>\n' >"$d/core/src/backend.cpp"
printf '#include <weft/linalg.hpp>\n' >"$d/core/module.hpp"
printf '#include <weft/algorithms/sort.hpp>\n' >"$d/backends/gpu/module.hpp"
printf '#include <Kokkos_Core.hpp>\n' >"$d/algorithms/compat.hpp"
printf '#include "app_common.hpp"\n' >"$d/linalg/src/app.cpp"
printf '  #include <weft/linalg/gemm.hpp>\n' >"$d/comm/src/linalg.cpp"
out=$(sh "$src/tests/lint/architecture.sh" "$d")
rc=$?
echo "$out"
reports=$(echo "$out" | grep -c "^$d/")
if [ $rc -ne 1 ] || [ "$reports" -ne 6 ]; then
  echo "architecture_catches: exit status $rc and $reports reports; want 1 and 6"
  exit 1
fi
echo "architecture_catches: every rule reported its bad include"
