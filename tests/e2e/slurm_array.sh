#!/usr/bin/env bash
# A real one-node Slurm (Debian's slurm-wlm and munge), started here and stopped by pid file:
# configs/smoke.json as a 4-task job array through scripts/slurm/iobench-array.sh (--shard auto);
# the merged cell set equals an unsharded run's, and 3 of the 4 shards do not merge (exit 1).
# Skips (exit 77) without root or without the packages; scripts/test installs them.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
[ "$(id -u)" -eq 0 ] || skip_here "slurm_array needs root to start munged, slurmctld and slurmd"
# slurmd reads the CPU topology from sysfs (hwloc) and will not start without it (a chroot).
[ -d /sys/devices/system/cpu ] || skip_here "slurm_array: no /sys/devices/system/cpu here, which slurmd needs"
for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$tool" >/dev/null || skip "slurm_array: $tool missing (apt-get install slurm-wlm munge)"
done

# Stops a daemon by its pid file and waits until it is gone (or a zombie), so that $tmp can go.
stop_daemon() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    [ -e "/proc/$pid" ] && [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

host=$(hostname -s)
# Ports of our own, so a system Slurm (or a second copy of this test) is not disturbed.
port=$((20000 + RANDOM % 20000))
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/work"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket.2
munged --force --key-file="$tmp/munge/munge.key" --socket="$socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" 2>"$tmp/munged.err" \
  || fail "munged did not start: $(cat "$tmp/munged.err" "$tmp/munge/munged.log" 2>/dev/null)"
on_exit 'stop_daemon "$tmp/munge/munged.pid"'

export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=iobenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i 2>"$tmp/slurmctld.err" || fail "slurmctld did not start: $(cat "$tmp/slurmctld.err")"
on_exit 'stop_daemon "$tmp/slurmctld.pid"'
slurmd 2>"$tmp/slurmd.err" || fail "slurmd did not start: $(cat "$tmp/slurmd.err")"
on_exit 'stop_daemon "$tmp/slurmd.pid"'
for _ in $(seq 1 60); do
  [ "$(sinfo -h -n "$host" -o '%t' 2>/dev/null)" = idle ] && break
  sleep 0.5
done
state=$(sinfo -h -n "$host" -o '%t' 2>&1) || true
[ "$state" = idle ] || fail "node $host is '$state', not idle: $(tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>&1)"

cd "$tmp/work"
config=$src/configs/smoke.json
export IOBENCH=$bin/iobench
sbatch --wait --array=0-3 --time=5 --output="$tmp/work/task-%a.out" \
  "$src/scripts/slurm/iobench-array.sh" "$config" --repeats 1 >"$tmp/sbatch.out" 2>&1 \
  || fail "the job array failed: $(cat "$tmp/sbatch.out" task-*.out 2>/dev/null | tail -20)"
shards=(results/smoke-*-shard-{1,2,3,4}-of-4.tsv)
for f in "${shards[@]}"; do [ -s "$f" ] || fail "no $f: $(ls results) $(cat task-*.out)"; done

"$bin/iobench" run "$config" --repeats 1 --quiet -o whole.tsv >/dev/null 2>whole.err \
  || fail "unsharded run: $(cat whole.err)"
"$bin/iobench" merge "${shards[@]}" -o merged.tsv >/dev/null 2>merge.err \
  || fail "merge of the 4 shards exited $?: $(cat merge.err)"
cells() { col test,input,sink,repeat "$1" | sort; }
[ "$(cells merged.tsv)" = "$(cells whole.tsv)" ] || fail "merged cells differ from the unsharded run's"
[ "$(cells merged.tsv | wc -l)" -gt 0 ] || fail "no rows"

set +e
"$bin/iobench" merge "${shards[@]:0:3}" -o three.tsv >/dev/null 2>three.err
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "merging 3 of 4 shards exited $rc"
grep -q 'missing: shard 4/4' three.err || fail "no line names shard 4/4: $(cat three.err)"
[ ! -e three.tsv ] || fail "a failed merge wrote three.tsv"
for f in "${shards[@]}"; do echo "$f: $(($(wc -l <"$f") - 1)) rows"; done
echo "slurm_array: 4 tasks on $host, $(($(wc -l <merged.tsv) - 1)) rows merged"
