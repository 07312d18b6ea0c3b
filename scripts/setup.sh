#!/usr/bin/env bash
# Installs what building and testing Weft needs on Debian 12 (as root, or with sudo), skipping what is there.
# usage: scripts/setup.sh [--hip]   (--hip adds Debian's hipcc/ROCm packages for the hip preset)
set -euo pipefail
pkgs=(cmake g++ ninja-build ccache doctest-dev libbenchmark-dev libboost-context-dev libopenmpi-dev openmpi-bin
      libopenblas-dev pkg-config python3 git)
if [ "${1:-}" = "--hip" ]; then
  pkgs+=(hipcc libamdhip64-dev rocm-device-libs librocprim-dev libomp-15-dev)
fi
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
