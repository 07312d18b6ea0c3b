#!/usr/bin/env bash
# Downloads (here, with network) the Debian packages the GPU check needs on the lent machine, which has
# no network and none of Debian's packages: doctest and Google Benchmark, into perf/gpu/debs (git-ignored;
# name it in the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p debs
cd debs
apt-get download doctest-dev libbenchmark-dev libbenchmark1debian
# Open MPI (runtime, headers, launcher) and its libraries, for the comm tests and the NCCL path on one rank.
mkdir -p mpi
(cd mpi && apt-get download libopenmpi-dev libopenmpi3 openmpi-bin openmpi-common libhwloc15 libevent-core-2.1-7 \
  libevent-pthreads-2.1-7 libpmix2 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libpsm2-2 \
  libpsm-infinipath1 libnuma1 libltdl7 libmunge2 libpciaccess0 libxnvctrl0 ocl-icd-libopencl1)
ls -la
