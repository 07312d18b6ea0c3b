#!/usr/bin/env bash
# A throw-away one-node Slurm cluster on this machine, for trying Weft's job scripts as on a cluster.
#
# usage: scripts/slurm-local.sh start|stop|status [--slots N] [--gpus N] [--accounting]
#
#   start    installs Debian's Slurm (scripts/setup.sh --slurm) when missing, writes a configuration for one node
#            named after this host with N task slots (default: max(4, CPUs)) in a CPU partition "cpu"
#            (select/cons_tres), and starts munged, slurmctld and slurmd as root with every file under the state
#            folder; then waits until the node is idle. Prints the `export SLURM_CONF=...` clients need.
#            --gpus N declares N count-only GPUs (gres/gpu without device files: no GPU is there) so that GPU job
#            scripts can be submitted and checked; without it the node has none, as a CPU partition.
#            --accounting adds job accounting (sacct): a MariaDB server and slurmdbd, also under the state folder
#            (Debian's mariadb-server and slurmdbd, which setup.sh --slurm installs).
#   stop     stops the daemons it started and removes the state folder (no daemon left, nothing left behind)
#   status   says whether it runs, with sinfo's view
#
# The state folder is $WEFT_SLURM_DIR (default /tmp/weft-slurm). It refuses to start beside a Slurm this script
# did not start (a slurm.conf under /etc/slurm, or slurmctld/slurmd running), and never touches /etc/slurm.
set -euo pipefail
dir=${WEFT_SLURM_DIR:-/tmp/weft-slurm}
cmd=${1:-}
shift || true
slots=""
gpus=0
accounting=0
while (($#)); do
  case "$1" in
    --slots) slots="$2"; shift 2 ;;
    --gpus) gpus="$2"; shift 2 ;;
    --accounting) accounting=1; shift ;;
    *) echo "scripts/slurm-local.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
conf="$dir/slurm.conf"
host=$(hostname -s)

log_tail() {  # the last lines of every daemon log, for a failure message
  for f in "$dir"/log/*.log; do
    [ -f "$f" ] || continue
    echo "--- last lines of $f"
    tail -n 15 "$f"
  done
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
pid_died() { [ -s "$1" ] && ! kill -0 "$(cat "$1")" 2>/dev/null; }  # a daemon writes its pid file when ready

free_port() {  # a TCP port nothing listens on (a taken port would stop slurmctld from starting)
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop() {
  local stopped=0
  for name in slurmd slurmctld slurmdbd mariadbd munged; do
    local pidfile="$dir/run/$name.pid"
    if pid_alive "$pidfile"; then
      local pid
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      stopped=$((stopped + 1))
    fi
  done
  # slurmstepd processes of jobs still running belong to slurmd's node: end them too.
  if [ -f "$dir/owner" ]; then
    pkill -f "slurmstepd.*" 2>/dev/null || true
  fi
  rm -rf "$dir"
  echo "local Slurm stopped ($stopped daemons); $dir removed"
}

case "$cmd" in
  start)
    if [ -f "$dir/owner" ] && pid_alive "$dir/run/slurmctld.pid"; then
      echo "local Slurm already running: export SLURM_CONF=$conf"
      exit 0
    fi
    if [ -e /etc/slurm/slurm.conf ] || pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
      echo "scripts/slurm-local.sh: a Slurm is already configured or running on this machine (/etc/slurm/slurm.conf" \
        "or a slurmctld/slurmd process): refusing to start another beside it" >&2
      exit 1
    fi
    missing=0
    for c in slurmctld slurmd srun munged; do command -v "$c" >/dev/null || missing=1; done
    if ((accounting)); then
      for c in slurmdbd mariadbd; do command -v "$c" >/dev/null || missing=1; done
    fi
    if ((missing)); then
      bash "$(dirname "$0")/setup.sh" --slurm || { echo "scripts/slurm-local.sh: installing Slurm failed" >&2; exit 1; }
    fi
    [ "$(id -u)" -eq 0 ] || { echo "scripts/slurm-local.sh: start needs root (slurmd runs jobs as their users)" >&2; exit 1; }
    rm -rf "$dir"
    mkdir -p "$dir"/{run,log,ctld,spool,munge}
    echo "$$" >"$dir/owner"
    # Killed half-way (a caller's timeout, Ctrl-C): stop what was started rather than leave daemons behind.
    trap 'echo "scripts/slurm-local.sh: start interrupted; stopping what it started" >&2; stop >/dev/null; exit 1' TERM INT
    cpus=$(nproc)
    [ -n "$slots" ] || slots=$((cpus > 4 ? cpus : 4))
    mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)

    # munge: a key of its own and a socket in the state folder; as root it needs --force.
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    chmod 700 "$dir/munge"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
      --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed" ||
      { log_tail; echo "scripts/slurm-local.sh: munged did not start" >&2; stop >/dev/null; exit 1; }

    cat >"$conf" <<EOF
# Written by Weft's scripts/slurm-local.sh: a one-node throw-away cluster, every file under $dir.
ClusterName=weft-local
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
InactiveLimit=0
KillWait=5
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$slots RealMemory=$mem State=UNKNOWN$( ((gpus)) && echo " Gres=gpu:$gpus")
PartitionName=cpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    if ((gpus)); then
      echo "GresTypes=gpu" >>"$conf"
      # Slurm drops GPUs without device files and refuses plain files: character devices with /dev/null's
      # numbers stand in for them (nothing opens them: the jobs see CUDA_VISIBLE_DEVICES only).
      mkdir -p "$dir/dev"
      for ((i = 0; i < gpus; i++)); do mknod "$dir/dev/gpu$i" c 1 3; done
      echo "Name=gpu File=$dir/dev/gpu[0-$((gpus - 1))]" >"$dir/gres.conf"  # slurmd reads it next to slurm.conf
    fi
    export SLURM_CONF="$conf"
    if ((accounting)); then
      # A MariaDB server of its own (socket and port under the state folder), the database slurmdbd writes, and
      # slurmdbd; the cluster is registered before slurmctld starts.
      dbport=$(free_port)
      dbdport=$(free_port)
      mkdir -p "$dir/db"
      mariadb-install-db --no-defaults --datadir="$dir/db/data" --user=root --auth-root-authentication-method=socket \
        --skip-test-db >"$dir/log/mariadb-install.log" 2>&1 ||
        { tail "$dir/log/mariadb-install.log"; echo "scripts/slurm-local.sh: mariadb-install-db failed" >&2; stop >/dev/null; exit 1; }
      mariadbd --no-defaults --datadir="$dir/db/data" --socket="$dir/db/mysql.sock" --port="$dbport" \
        --bind-address=127.0.0.1 --user=root --skip-name-resolve --pid-file="$dir/run/mariadbd.pid" \
        --log-error="$dir/log/mariadbd.log" >/dev/null 2>&1 &
      for i in $(seq 80); do
        [ -S "$dir/db/mysql.sock" ] && break
        [ "$i" -eq 80 ] && { log_tail; echo "scripts/slurm-local.sh: MariaDB did not start" >&2; stop >/dev/null; exit 1; }
        sleep 0.25
      done
      mariadb --no-defaults -S "$dir/db/mysql.sock" -u root -e "CREATE DATABASE slurm_acct_db;
        CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'weft-local'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" ||
        { log_tail; echo "scripts/slurm-local.sh: could not create the accounting database" >&2; stop >/dev/null; exit 1; }
      cat >"$dir/slurmdbd.conf" <<EOF
# Written by Weft's scripts/slurm-local.sh (read by slurmdbd next to slurm.conf).
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
DbdHost=localhost
DbdPort=$dbdport
SlurmUser=root
PidFile=$dir/run/slurmdbd.pid
LogFile=$dir/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$dbport
StorageUser=slurm
StoragePass=weft-local
StorageLoc=slurm_acct_db
EOF
      chmod 600 "$dir/slurmdbd.conf"
      cat >>"$conf" <<EOF
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$dbdport
AccountingStoragePass=$dir/munge/munge.socket
JobAcctGatherType=jobacct_gather/linux
EOF
      slurmdbd || { log_tail; echo "scripts/slurm-local.sh: slurmdbd did not start" >&2; stop >/dev/null; exit 1; }
      for i in $(seq 80); do
        timeout 5 sacctmgr -i add cluster weft-local >/dev/null 2>&1 && break
        [ "$i" -eq 80 ] && { log_tail; echo "scripts/slurm-local.sh: slurmdbd does not answer" >&2; stop >/dev/null; exit 1; }
        sleep 0.25
      done
    else
      echo "AccountingStorageType=accounting_storage/none" >>"$conf"
      echo "JobAcctGatherType=jobacct_gather/none" >>"$conf"
    fi
    slurmctld -f "$conf" ||
      { log_tail; echo "scripts/slurm-local.sh: slurmctld did not start" >&2; stop >/dev/null; exit 1; }
    slurmd -f "$conf" ||
      { log_tail; echo "scripts/slurm-local.sh: slurmd did not start" >&2; stop >/dev/null; exit 1; }
    # Ready when the node is idle (at most 30 s: a daemon that died or cannot talk shows in its log).
    for i in $(seq 60); do
      state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
      [ "$state" = "idle" ] && break
      if pid_died "$dir/run/slurmctld.pid" || pid_died "$dir/run/slurmd.pid" || [ "$i" -eq 60 ]; then
        log_tail
        echo "scripts/slurm-local.sh: the node did not become idle (state '${state:-none}')" >&2
        stop >/dev/null
        exit 1
      fi
      sleep 0.5
    done
    echo "local Slurm running: node $host, $slots task slots$( ((gpus)) && echo ", $gpus GPUs"), partition cpu$( ((accounting)) && echo ", accounting (sacct)")"
    echo "export SLURM_CONF=$conf"
    ;;
  stop)
    if [ ! -f "$dir/owner" ]; then
      echo "no local Slurm of this script's at $dir"
      exit 0
    fi
    stop
    ;;
  status)
    if [ -f "$dir/owner" ] && pid_alive "$dir/run/slurmctld.pid" && pid_alive "$dir/run/slurmd.pid"; then
      echo "local Slurm running (export SLURM_CONF=$conf)"
      SLURM_CONF="$conf" sinfo
    else
      echo "local Slurm not running"
      exit 1
    fi
    ;;
  *)
    sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
