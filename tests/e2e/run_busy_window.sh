#!/usr/bin/env bash
# The busy-CPU window overlaps the first runs (docs/driver.md, "Order, failures, interrupts"), so
# iobench's own CPU time in it is left out: a strategy that keeps both CPUs busy in the window must
# not be blamed on others, while a busy loop of someone else's still is. The figure is
# provenance.busy_cpus_start in the meta file.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

echo x >"$tmp/in.txt"
busy_cpus() { sed -n 's/^ *"busy_cpus_start": \(.*\),$/\1/p' "$tmp/meta/$1.json"; }

# iobench's own work: two shell loops, 0.35 s each, so at least 0.6 CPU-seconds fall inside the
# window (which closes at the end of this first run) on a machine of 2 CPUs or more. Others may
# really be busy for a moment (another test, a build), so three tries.
cat >"$tmp/burn.json" <<'JSON'
{"name": "burn", "inputs": ["in.txt"],
 "strategies": [{"name": "burn", "verify": false, "command": ["bash", "-c",
   "burn() { local end=$(( ${EPOCHREALTIME/./} + 350000 )); while (( ${EPOCHREALTIME/./} < end )); do :; done; }; burn & burn & wait"]}],
 "sinks": ["null"], "repeats": 1, "warmup": 0, "cache": "none"}
JSON
[ "$(nproc)" -ge 2 ] || skip_here "two CPUs are needed to keep both busy"
report=""
for try in 1 2 3; do
  "$bin/iobench" run "$tmp/burn.json" -o "$tmp/burn$try.tsv" >/dev/null 2>"$tmp/burn$try.err" ||
    fail "burn: exit $?: $(cat "$tmp/burn$try.err")"
  cpu_s=$(run_awk 'FNR == 2 { print col("user") + col("system") }' "$tmp/burn$try.tsv")
  figure=$(busy_cpus "burn$try")
  report+="try $try: busy_cpus_start $figure with $cpu_s CPU-s of its own; $(cat "$tmp/burn$try.err")"$'\n'
  # A try counts only when the burn had its 0.6 CPU-seconds (others may have taken a CPU).
  if awk -v b="$figure" -v s="$cpu_s" 'BEGIN { exit !(s >= 0.6 && b ~ /^[0-9]/ && b < 0.5) }' &&
    ! grep -q 'other processes kept' "$tmp/burn$try.err"; then
    echo "run_busy_window: own work left out ($figure busy CPUs, $cpu_s CPU-s of its own)"
    break
  fi
  [ "$try" -lt 3 ] || fail "iobench's own CPU time counted as others' (or others busy)"$'\n'"$report"
done

# Someone else's busy loop, running through the whole window: warned about, mid-run (the window
# closes at the run boundary after 250 ms) and in the meta file.
cat >"$tmp/nap.json" <<'JSON'
{"name": "nap", "inputs": ["in.txt"],
 "strategies": [{"name": "nap", "command": ["sleep", "0.1"], "verify": false}],
 "sinks": ["null"], "repeats": 5, "warmup": 0, "cache": "none", "disturbance": "off"}
JSON
# (disturbance off: the loop disturbs every run, which would be re-run; this test is the window's.)
bash -c 'while :; do :; done' &
loop=$!
on_exit "kill $loop"
sleep 0.1
"$bin/iobench" run "$tmp/nap.json" -o "$tmp/nap.tsv" >/dev/null 2>"$tmp/nap.err" ||
  fail "nap: exit $?: $(cat "$tmp/nap.err")"
kill "$loop"
grep -q 'other processes kept .* CPUs busy in the [0-9]* ms as the runs started' "$tmp/nap.err" ||
  fail "no busy warning with a busy loop running: $(cat "$tmp/nap.err")"
figure=$(busy_cpus nap)
awk -v b="$figure" 'BEGIN { exit !(b ~ /^[0-9]/ && b >= 0.5) }' ||
  fail "busy_cpus_start $figure with a busy loop running"
[ "$(tail -n +2 "$tmp/nap.tsv" | wc -l)" -eq 5 ] || fail "rows: $(cat "$tmp/nap.tsv")"
echo "run_busy_window: a busy loop warned about ($figure busy CPUs)"
