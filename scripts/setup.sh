#!/usr/bin/env bash
# Installs what building and testing Weft needs on Debian 12 (as root, or with sudo), skipping what is there.
# usage: scripts/setup.sh [--hip] [--chart] [--cuda-tools] [--slurm]
#   --hip         Debian's hipcc/ROCm packages for the hip preset
#   --chart       python3-matplotlib, which weft-bench draws the suite's chart with (scripts/demo.sh asks for it)
#   --cuda-tools  cuobjdump and nvdisasm from PyPI (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm: the CUDA toolkit here
#                 lacks them), which the cuda presets' SASS checks (ctest -L sass) read the kernels' machine code with
#   --slurm       Debian's Slurm, munge, slurmdbd and MariaDB, which scripts/slurm-local.sh runs as a one-node cluster
#                 with accounting (ctest -L slurm)
set -euo pipefail
cuda_tools=0
pkgs=(cmake g++ ninja-build ccache doctest-dev libbenchmark-dev libboost-context-dev libopenmpi-dev openmpi-bin
      libopenblas-dev libopenblas-openmp-dev pkg-config python3 git)
for arg in "$@"; do
  case "$arg" in
    --hip) pkgs+=(hipcc libamdhip64-dev rocm-device-libs librocprim-dev libomp-15-dev) ;;
    --chart) pkgs+=(python3-matplotlib) ;;
    --slurm) pkgs+=(slurmctld slurmd slurm-client munge slurmdbd mariadb-server) ;;
    --cuda-tools)
      cuda_tools=1
      python3 -m pip --version >/dev/null 2>&1 || pkgs+=(python3-pip)
      ;;
    *) echo "scripts/setup.sh: unknown option $arg (use --hip, --chart, --cuda-tools and/or --slurm)" >&2; exit 2 ;;
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
if ((cuda_tools)) && ! python3 -c "import glob, nvidia, sys; sys.exit(not glob.glob(nvidia.__path__[0] + '/cu*/bin/cuobjdump'))" 2>/dev/null; then
  echo "==> installing cuobjdump and nvdisasm from PyPI"
  tools=("nvidia-cuda-cuobjdump==13.*" "nvidia-cuda-nvdisasm==13.*")
  # Debian's own python3 refuses pip installs into it without --break-system-packages (these add only binaries).
  python3 -m pip install --quiet "${tools[@]}" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "${tools[@]}"
fi
