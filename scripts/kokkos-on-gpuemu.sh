#!/usr/bin/env bash
# Builds a Kokkos project, unchanged and with its own CMake, against Weft's drop-in on GpuEmu (the SIMT emulator:
# GPU code paths and asynchronous streams on the CPU) and runs it with the checks on: the stream-order checker, bounds
# checks and the host-access check (host code touching device memory), under lazy and then concurrent streams.
#
# usage: scripts/kokkos-on-gpuemu.sh [options] <project dir> [cmake arguments...]
#   --prefix DIR     an install of Weft's emu preset (cmake --install build/emu --prefix DIR); default: this
#                    checkout's build/emu, installed into build/install-emu (build it first: cmake --preset emu &&
#                    cmake --build --preset emu)
#   --build DIR      the project's build folder (default: a new temporary folder, printed)
#   --run 'CMD'      the command to run in the build folder (e.g. './babelstream -s 1048576 -n 10'); default: ctest
#   --modes LIST     streams modes to run, separated by commas (lazy, concurrent, sync); default: lazy,concurrent
#   --target T       build only this target (default: all)
# The checks stop the program with a message naming both sides of a race, or the View a host access touched; the
# script prints each mode's outcome and exits non-zero if any run failed. docs/kokkos.md ("Kokkos programs on
# GpuEmu") says what the messages mean and how to fix the program.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix="" build="" run="" modes="lazy,concurrent" target=""
usage() { sed -n 6,14p "$0" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --run) run=${2:?--run needs a command}; shift 2 ;;
    --modes) modes=${2:?--modes needs a list}; shift 2 ;;
    --target) target=${2:?--target needs a target}; shift 2 ;;
    -h | --help) usage ;;
    --*) echo "kokkos-on-gpuemu.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
(($#)) || { echo "kokkos-on-gpuemu.sh: give the project's folder (the one with its CMakeLists.txt)" >&2; usage; }
project=$(cd "$1" && pwd)
shift
[ -f "$project/CMakeLists.txt" ] || { echo "kokkos-on-gpuemu.sh: $project has no CMakeLists.txt" >&2; exit 2; }
# every item of the list is a mode (an empty item, as in "--modes ," or "lazy,,sync", is a mistake, not nothing to run)
IFS=, read -r -a mode_list <<<"$modes,"
((${#mode_list[@]})) || { echo "kokkos-on-gpuemu.sh: --modes $modes names no mode (lazy, concurrent, sync)" >&2; exit 2; }
for m in "${mode_list[@]}"; do
  case "$m" in
    lazy | concurrent | sync) ;;
    "") echo "kokkos-on-gpuemu.sh: --modes $modes has an empty item (give lazy, concurrent and/or sync)" >&2; exit 2 ;;
    *) echo "kokkos-on-gpuemu.sh: unknown mode $m (lazy, concurrent, sync)" >&2; exit 2 ;;
  esac
done

if [ -z "$prefix" ]; then
  if [ ! -f "$root/build/emu/CMakeCache.txt" ]; then
    echo "kokkos-on-gpuemu.sh: no --prefix and no emu build in $root/build/emu;" >&2
    echo "  build one (cmake --preset emu && cmake --build --preset emu) or give --prefix of an emu install" >&2
    exit 2
  fi
  prefix="$root/build/install-emu"
  echo "==> installing $root/build/emu into $prefix"
  cmake --install "$root/build/emu" --prefix "$prefix" >/dev/null
fi
config="$prefix/lib/weft-kokkos/lib/cmake/Kokkos/KokkosConfig.cmake"
[ -f "$config" ] || { echo "kokkos-on-gpuemu.sh: $prefix holds no Weft drop-in ($config is missing)" >&2; exit 2; }
grep -q "WEFT_HAS_GPU_EMU 1" "$prefix/include/weft/config.hpp" 2>/dev/null ||
  { echo "kokkos-on-gpuemu.sh: $prefix is not an emu install (its weft/config.hpp has no GpuEmu)" >&2; exit 2; }
# the bounds and host-access checks are what this script promises: an emu install built without them is refused
grep -q "WEFT_HAS_BOUNDS_CHECK 1" "$prefix/include/weft/config.hpp" ||
  { echo "kokkos-on-gpuemu.sh: $prefix was built without bounds checks (WEFT_ENABLE_BOUNDS_CHECK=OFF), so its" \
    "bounds and host-access checks are off; use the emu preset's install" >&2; exit 2; }

[ -n "$build" ] || build=$(mktemp -d "${TMPDIR:-/tmp}/kokkos-on-gpuemu.XXXXXX")
echo "==> configuring $project in $build against $prefix"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# The project's own build type unless the arguments give one (some projects accept only Release or Debug).
cmake -S "$project" -B "$build" "${generator[@]}" -DKokkos_ROOT="$prefix/lib/weft-kokkos" "$@"
echo "==> building"
if [ -n "$target" ]; then cmake --build "$build" --target "$target"; else cmake --build "$build"; fi

failed=0
for m in ${modes//,/ }; do
  echo "==> running with WEFT_EMU_STREAMS=$m, the stream-order checker, bounds and host-access checks on"
  start=$(date +%s.%N)
  set +e
  if [ -n "$run" ]; then
    (cd "$build" && WEFT_EMU_STREAMS=$m WEFT_EMU_CHECK=1 bash -c "$run")
  else
    # a project that defines no test is a failure, not a pass (plain ctest exits 0 there)
    WEFT_EMU_STREAMS=$m WEFT_EMU_CHECK=1 ctest --test-dir "$build" --output-on-failure --no-tests=error
  fi
  rc=$?
  set -e
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if ((rc == 0)); then
    echo "==> $m: passed ($secs s)"
  else
    echo "==> $m: FAILED with status $rc ($secs s)"
    failed=1
  fi
done
exit $failed
