#!/usr/bin/env bash
# Installs what building and testing Weft needs on Debian 12 (as root, or with sudo), skipping what is there.
# usage: scripts/setup.sh [--hip] [--chart]   (--hip adds Debian's hipcc/ROCm packages for the hip preset; --chart adds
# python3-matplotlib, which weft-bench draws the suite's chart with: scripts/demo.sh asks for it)
set -euo pipefail
pkgs=(cmake g++ ninja-build ccache doctest-dev libbenchmark-dev libboost-context-dev libopenmpi-dev openmpi-bin
      libopenblas-dev pkg-config python3 git)
for arg in "$@"; do
  case "$arg" in
    --hip) pkgs+=(hipcc libamdhip64-dev rocm-device-libs librocprim-dev libomp-15-dev) ;;
    --chart) pkgs+=(python3-matplotlib) ;;
    *) echo "scripts/setup.sh: unknown option $arg (use --hip and/or --chart)" >&2; exit 2 ;;
  esac
done
need=()
for pkg in "${pkgs[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "==> installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
