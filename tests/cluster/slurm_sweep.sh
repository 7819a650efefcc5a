#!/usr/bin/env bash
# End-to-end test of `articulate-cli sweep --slurm` on a real single-node Slurm cluster (Debian's
# slurmctld, slurmd and munge), started here on localhost with a generated slurm.conf and
# stopped afterwards:
#   1. the sweep is submitted with --slurm (sbatch job array, 3 tasks of 1 core);
#   2. the job runs to the end (squeue), each task its slice;
#   3. --collect merges the slices, and results.csv equals a local run's, byte for byte.
# Never faked: where the daemons cannot start (not root, packages missing, no control groups at
# /sys/fs/cgroup: a bare chroot) it says why and exits 77, which CTest reports as skipped.
#   tests/cluster/slurm_sweep.sh ARTICULATE_CLI MODELS_DIR
set -euo pipefail
cli=$(readlink -f "$1")
models=$(readlink -f "$2")
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "starting munged, slurmctld and slurmd needs root"
# Slurm 22.05's slurmd starts only with a control-group filesystem (a chroot without one, such
# as ../shared/tools/fresh-debian's, has none; .ci/fresh-root binds the machine's)
mountpoint -q /sys/fs/cgroup || skip "slurmd needs the control groups at /sys/fs/cgroup, which are not mounted here"
for b in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$b" >/dev/null || skip "$b is not installed (Debian: munge, slurmctld, slurmd, slurm-client)"
done

work=$(mktemp -d /tmp/articulate-slurm.XXXXXX)
# every Slurm client call is bounded (a controller that never answers would otherwise retry
# for minutes), and so is the whole test: each wait has a deadline
slurm() { timeout 10 "$@"; }
deadline() { echo $(( $(date +%s) + $1 )); }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ "${keep:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for log in "$work"/log/*.log "$work"/results/slurm/*.out; do
    [ -f "$log" ] && { echo "--- $log"; tail -n 20 "$log"; }
  done
  keep=0
  exit 1
}

# munge: its own key, socket and state under $work (the system's, if any, is not touched)
mkdir -p "$work"/munge "$work"/log "$work"/state "$work"/spool
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$work/munge" && chmod 400 "$work/munge/munge.key"
socket=$work/munge/munge.socket
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$socket" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" \
  --log-file="$work/log/munged.log" >"$work/log/munged.out.log" 2>&1 &
pids+=($!)
until=$(deadline 10)
while [ ! -S "$socket" ] && [ "$(date +%s)" -lt "$until" ]; do sleep 0.1; done
[ -S "$socket" ] || fail "munged did not start"

host=$(hostname -s)
cpus=$(nproc)
port=$((20000 + $$ % 20000))
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=articulate-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=1001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=articulate Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i >"$work/log/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D >"$work/log/slurmd.out.log" 2>&1 &
pids+=($!)
until=$(deadline 40)
while ! slurm sinfo -h -o "%T" 2>/dev/null | grep -qE "^idle" && [ "$(date +%s)" -lt "$until" ]; do sleep 0.5; done
slurm sinfo -h -o "%T" 2>/dev/null | grep -qE "^idle" || fail "the node did not come up idle ($(slurm sinfo -h -o '%T %E' 2>&1))"

# the sweep: the double pendulum's initial angle and rate on a 4 x 3 grid
cat > "$work/sweep.json" <<JSON
{"format": "articulate-sweep", "model": "$models/tree_double_pendulum.json",
 "parameters": [{"name": "theta1", "initial_q": 0, "range": {"from": -1, "to": 1, "count": 4}},
                {"name": "omega2", "initial_qd": 1, "values": [0, 1.5, -3]}],
 "duration": 2, "every": 10, "metrics": [{"max": "q1"}, {"period": "q0"}, "energy_drift"]}
JSON
out=$(timeout 30 "$cli" sweep "$work/sweep.json" -o "$work/results" --slurm --tasks 3 --partition articulate) || fail "--slurm: $out"
echo "$out"
job=$(echo "$out" | sed -n 's/^submitted job \([0-9]*\):.*/\1/p')
[ -n "$job" ] || fail "no job id in: $out"
until=$(deadline 120)
while [ -n "$(slurm squeue -h -j "$job" 2>/dev/null)" ] && [ "$(date +%s)" -lt "$until" ]; do sleep 0.5; done
[ -z "$(slurm squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job did not finish in 120 s"
ls "$work/results/parts" | grep -q "task-2-of-3.jsonl" || fail "no part from array task 2"
"$cli" sweep --collect "$work/results" || fail "--collect"
"$cli" sweep "$work/sweep.json" -o "$work/local" -q >/dev/null || fail "the local run"
cmp "$work/results/results.csv" "$work/local/results.csv" || fail "the Slurm table differs from the local one"
cmp "$work/results/manifest.json" "$work/local/manifest.json" || fail "the Slurm manifest differs from the local one"
echo "PASS: job $job ran 12 runs in 3 array tasks on $host; the collected table equals the local run's"
