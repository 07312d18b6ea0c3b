#!/usr/bin/env bash
# Installs what building and testing Weft needs on Debian 12 (as root, or with sudo), skipping what is there.
set -euo pipefail
need=()
for pkg in cmake g++ ninja-build ccache doctest-dev libbenchmark-dev libboost-context-dev libopenmpi-dev openmpi-bin libopenblas-dev pkg-config python3 git; do
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
