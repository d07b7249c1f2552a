#!/usr/bin/env bash
# bench --order duet (docs/bench.md, "Duet"): each round's pair runs at the same moment, each
# pinned to a CPU of its own, under a steady busy loop the test starts itself and stops by pid,
# as a shared runner has. Each command logs when it began and ended and the CPUs it may run on;
# a measured pair overlaps, on two different single CPUs, and each command has each CPU in turn.
# With one CPU for iobench, a duet says why it cannot be one and runs interleaved. A duet with a
# cold cache is one line, exit 2, nothing written. A duet is given up when a loop pinned to one of
# its CPUs leaves every pair out.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
[ "$(nproc)" -ge 2 ] || skip_here "a duet needs two CPUs; this machine has $(nproc)"
iobench=$bin/iobench
cd "$tmp"
bash -c 'while :; do :; done' &
busy=$!
on_exit "kill $busy"

# NAME: a 0.2 s command that logs "NAME BEGIN_NS END_NS CPUS" to log.txt; its stdout is empty,
# so every run verifies alike.
logged() {
  printf '%s' "b=\$(date +%s%N); sleep 0.2; e=\$(date +%s%N); echo $1 \$b \$e \$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) >>log.txt"
}
"$iobench" bench -q -r 4 --order duet --export-json duet.json "$(logged a)" "$(logged b)" \
  >out.txt 2>err.txt || fail "bench --order duet exited $?: $(cat err.txt)"
# Warmup and verification runs go one at a time on every CPU; the measured ones on one each.
awk '$4 ~ /^[0-9]+$/' log.txt >pinned.txt
[ "$(grep -c '^a ' pinned.txt)" -eq 4 ] && [ "$(grep -c '^b ' pinned.txt)" -eq 4 ] ||
  fail "not 4 pinned runs of each: $(cat log.txt)"
# Each a-run has a b-run that overlaps it on another CPU; a has each CPU twice.
python3 - pinned.txt <<'PY' || fail "pairs: $(cat log.txt)"
import sys
runs = [line.split() for line in open(sys.argv[1])]
a = [(int(r[1]), int(r[2]), r[3]) for r in runs if r[0] == "a"]
b = [(int(r[1]), int(r[2]), r[3]) for r in runs if r[0] == "b"]
for begin, end, cpu in a:
    partners = [x for x in b if x[0] < end and begin < x[1]]
    assert len(partners) == 1, f"a at {begin} overlaps {len(partners)} b runs"
    assert partners[0][2] != cpu, f"a and b both on CPU {cpu}"
cpus = sorted(cpu for _, _, cpu in a)
assert len(set(cpus)) == 2 and cpus.count(cpus[0]) == 2, f"a's CPUs: {cpus}"
PY
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"]; assert len(r) == 2 and all(len(x["times"]) == 4 for x in r), r' duet.json ||
  fail "export: $(cat duet.json)"

# One CPU for iobench: said, and the runs go one at a time.
rm -f log.txt
taskset -c 0 "$iobench" bench -q -r 2 --order duet -o one.tsv "$(logged a)" "$(logged b)" \
  >one.out 2>one.err || fail "one CPU: exit $?: $(cat one.err)"
one_cpu="order duet needs two CPUs and iobench may run on 1: the runs go one at a time, interleaved"
grep -qx "iobench: warning: $one_cpu" one.err || fail "no warning for one CPU: $(cat one.err)"
# Kept in the record with the run's other warnings.
grep -qF "\"$one_cpu\"" meta/one.json || fail "the meta file lacks the warning: $(cat meta/one.json)"

one_line_exit_2 "--order duet --cache cold" \
  "$iobench" bench -r 2 --order duet --cache cold --input log.txt 'cat {input}' 'wc -l {input}'

# The rule under the same busy loop: two CPU-bound commands fill both CPUs, so one of each pair
# shares its CPU with the loop and waits (or both do, as the scheduler moves the loop). A pair is
# left out together: the line says so, and each command has as many disturbed rows as the other.
# Which run of a pair waited is the scheduler's choice here; DuetTest checks the partner's row.
spin="awk 'BEGIN { for (i = 0; i < 3000000; i++); }'"
"$iobench" bench -q -r 3 --order duet --disturbance rerun -o spin.tsv "$spin" "$spin " \
  >spin.out 2>spin.err || true
grep -q "it and its duet partner are left out and run again" spin.err ||
  fail "no pair left out under the busy loop: $(cat spin.err)"
# Ten pairs in a row left out give the duet up (DuetTest has the rule exactly): then the first
# twenty rows are those pairs, and the meta file says so; else every pair is in the counts.
gave_up="order duet: 10 pairs in a row were left out as disturbed, so two CPUs are not free for a duet: the rest run one at a time, interleaved"
if grep -qF "$gave_up" spin.err; then
  [ "$(run_awk '{ n++ } n <= 20 && col("status") == "disturbed" { d++ } END { print d + 0 }' spin.tsv)" -eq 20 ] ||
    fail "the duet was given up, but not after 10 pairs: $(col test,status spin.tsv)"
  grep -qF '"order_taken": "duet, then interleave"' meta/spin.json || fail "$(cat meta/spin.json)"
else
  disturbed=$(run_awk 'col("status") == "disturbed" { n[col("test")]++ } END { for (t in n) print n[t] }' spin.tsv | sort -u)
  [ "$(wc -l <<<"$disturbed")" -eq 1 ] && [ "$disturbed" -gt 0 ] ||
    fail "disturbed rows not in pairs: $(col test,status,wait_cpu_s spin.tsv)"
fi

# A loop pinned to the second of the duet's CPUs keeps every pair from a CPU: ten in a row left
# out, the duet is given up, said, recorded, and the runs one at a time (the loop stopped once it
# was given up) are judged.
kill "$busy"
cpu_b=$(python3 -c 'import os; print(sorted(os.sched_getaffinity(0))[1])')
taskset -c "$cpu_b" bash -c 'while :; do :; done' &
pinned=$!
on_exit "kill $pinned"
short="awk 'BEGIN { for (i = 0; i < 1000000; i++); }'"
status=0
"$iobench" bench -M 12 --order duet --fail-if-slower 50 --disturbance rerun -o pinned.tsv \
  "$short" "$short " >pinned.out 2>pinned.err &
bench_pid=$!
for _ in $(seq 600); do
  grep -qF "pairs in a row were left out" pinned.err && break
  kill -0 "$bench_pid" 2>/dev/null || break
  sleep 0.05
done
kill "$pinned"
wait "$bench_pid" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 4 ] || fail "a duet beside a pinned loop exited $status: $(cat pinned.err)"
grep -qF "$gave_up" pinned.err || fail "the duet was not given up: $(cat pinned.err)"
grep -qF '"order_taken": "duet, then interleave"' meta/pinned.json || fail "$(cat meta/pinned.json)"
[ "$(run_awk 'col("status") == "ok"' pinned.tsv | wc -l)" -ge 6 ] || fail "few ok runs: $(col test,status pinned.tsv)"
