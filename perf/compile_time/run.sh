#!/usr/bin/env bash
# Compile time of a one-kernel Weft program with g++ -O3 (compile + link, median of 3, no ccache) against
# the same program in raw OpenMP, and the preprocessed size of <weft/weft.hpp>.
# usage: perf/compile_time/run.sh [BUILD_DIR]   (BUILD_DIR holds libweft.a and the generated headers)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build/default}" && pwd)
cxx=${CXX:-g++}
inc=(-I"$root/core/include" -I"$build/generated/include" -I"$root/backends/host/include"
     -I"$root/backends/serial/include" -I"$root/backends/openmp/include")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median3() {
  local t=()
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    t+=("$(echo "$e - $s" | bc)")
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
weft=$(median3 "$cxx" -std=c++20 -O3 -fopenmp "${inc[@]}" "$root/perf/compile_time/one_kernel.cpp" \
  "$build/core/libweft.a" -o "$tmp/weft")
raw=$(median3 "$cxx" -std=c++20 -O3 -fopenmp "$root/perf/compile_time/raw_openmp.cpp" -o "$tmp/raw")
lines=$(echo '#include <weft/weft.hpp>' | "$cxx" -std=c++20 -fopenmp -E -x c++ "${inc[@]}" - | wc -l)
"$tmp/weft"
printf '%-34s %8s s\n' "one-kernel program, Weft" "$weft" "one-kernel program, raw OpenMP" "$raw"
printf '%-34s %8s lines\n' "preprocessed <weft/weft.hpp>" "$lines"
awk -v w="$weft" 'BEGIN { if (w > 0.95) { print "compile time goal (<= 0.95 s) MISSED"; exit 1 } }'
