# Sourced by the build scripts (test.sh, demo.sh, perf.sh, asan-mpi-faults.sh, .ci/run): one compiler cache per user
# for every checkout of Weft, keyed on paths relative to the checkout (CCACHE_BASEDIR, CCACHE_NOHASHDIR), so that a
# clone in another folder (CI's clean clone) hits what this checkout compiled. A CCACHE_DIR already set is kept.
_weft_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/weft-ccache}"
export CCACHE_BASEDIR="$_weft_root"
export CCACHE_NOHASHDIR=true
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-25G}"  # default, emu, debug, fuzz, hip and the two CUDA architectures
unset _weft_root
