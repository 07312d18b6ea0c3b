#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine, builds Weft (the `default` preset) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
echo "==> scripts/test.sh: installs what is missing, builds Weft (the first build takes about 10 minutes on 2 cores,"
echo "    later ones a minute or two) and runs every test (about 2 minutes)"
bash scripts/setup.sh
source scripts/ccache-env.sh  # one cache for every checkout (CI's clone reuses this one's work)
cmake --preset default
echo "==> building Weft (preset default): the first build takes about 10 minutes on 2 cores; later ones reuse the"
echo "    compiler cache ($CCACHE_DIR) and take a minute or two. [done/total, %, seconds] shows how far it is."
# ninja's status line: steps done of the total, the share done and the seconds since the build started
export NINJA_STATUS="${NINJA_STATUS:-[%f/%t %p %es] }"
cmake --build --preset default
echo "==> built in $(($(date +%s) - start)) s; running the tests (about 2 minutes on 2 cores; ctest numbers them as it goes)"
ctest --preset default
echo "==> scripts/test.sh: every test passed, $(($(date +%s) - start)) s in all"
