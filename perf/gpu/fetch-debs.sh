#!/usr/bin/env bash
# Downloads (here, with network) the Debian packages the GPU check needs on the lent machine, which has
# no network and none of Debian's packages: doctest and Google Benchmark, into perf/gpu/debs (git-ignored;
# name it in the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p debs
cd debs
apt-get download doctest-dev libbenchmark-dev libbenchmark1debian
ls -la
