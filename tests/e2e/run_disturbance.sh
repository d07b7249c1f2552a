#!/usr/bin/env bash
# The disturbance rule under real load (docs/driver.md, "Disturbance"): a run is disturbed by what
# it suffered, its own processes' wait for a CPU, not by what the rest of the machine did. The
# loads are the test's own, each stopped by its pid:
# - a steady busy loop, not pinned: on two CPUs it leaves the runs a CPU of their own, so every
#   cell gets its runs ok and `run` exits 0 (the rule before this one condemned every run);
# - a light load, busy 3 ms in every 10 ms: the same;
# - bursts on the other CPU, the runs pinned to theirs: no run waits, but the runs a burst
#   overlapped are judged against the calm of their session (the burst rule), re-run, and said;
# - a busy loop pinned to the one CPU the runs are pinned to (config "cpus"): each run (a copy of
#   96 MiB, some 70 ms or more) waits for about half its time. Every run is disturbed, the first said in one line with its figure and
#   the setting that changes the rule, and the figures are still shown, marked; exit 1, as a cell
#   without an ok run has.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
[ "$(nproc)" -ge 2 ] || skip_here "needs two CPUs: one for the load, one for the runs"
command -v taskset >/dev/null || skip "needs taskset (util-linux)"
command -v python3 >/dev/null || skip "needs python3 for the light load"

"$bin/iobench" gen lines --size 4MiB --seed 1 -q -o "$tmp/lines.txt"
# Runs long enough to wait many times the rule's 4 ms resolution when their CPU is taken, and for
# what others did to show in /proc/stat's 10 ms ticks, less one: a 25 ms run (a 32 MiB copy into
# the null sink on Linux 6.18 here) that waited half its time, or that a burst overlapped, could
# show none of it.
"$bin/iobench" gen lines --size 96MiB --seed 1 -q -o "$tmp/long.txt"
config() {  # $1: extra keys; $2: the input
  cat <<JSON
{"name": "copy", "inputs": ["${2:-lines.txt}"],
 "strategies": [{"name": "copy", "command": ["$bin/iobench-worker", "--read", "read",
                                              "--write", "buffered", "{input}"]}],
 "sinks": ["pipe", "null"], "repeats": 8, "warmup": 1, "cache": "warm"$1}
JSON
}
load_pid=""
start_load() {  # $@: the command of the load
  "$@" &
  load_pid=$!
  on_exit "kill $load_pid 2>/dev/null"
  sleep 0.5  # running before the first run
}
stop_load() { kill "$load_pid" 2>/dev/null; wait "$load_pid" 2>/dev/null || true; }

# A load that leaves a CPU free: exit 0, each cell its 8 ok runs; a re-run now and then is the
# machine's (a kernel thread), so at most one run in ten of all may be disturbed.
free_cpu_case() {  # $1: name; the load is running
  config "" >"$tmp/$1.json"
  "$bin/iobench" run "$tmp/$1.json" -o "$tmp/$1.tsv" -q >/dev/null 2>"$tmp/$1.err" ||
    fail "$1: exit $? with a CPU free: $(cat "$tmp/$1.err")"$'\n'"$(col sink,status,elapsed,wait_cpu_s,others_cpu_s "$tmp/$1.tsv")"
  disturbed=$(run_awk 'col("status") == "disturbed"' "$tmp/$1.tsv" | wc -l)
  # A sanitizer build's spawner, the pipe's reader, is several times slower, and beside the load it
  # shares the worker's CPU: the worker's wait is real there (4 of 18 runs disturbed in one CI try
  # of 3; in another the re-run budget left 5 ok runs of 8). The rate and the re-runs are the
  # Release pass's to judge; here the run must still end with exit 0.
  if grep -q 'sanitize=' "$tmp/meta/$1.json"; then
    echo "$1: exit 0, $disturbed disturbed (re-runs and rate not judged in a sanitizer build)"
    return
  fi
  for sink in pipe null; do
    ok=$(run_awk -v s="$sink" 'col("sink") == s && col("status") == "ok"' "$tmp/$1.tsv" | wc -l)
    [ "$ok" -eq 8 ] || fail "$1: $ok ok runs into $sink, not 8: $(cat "$tmp/$1.err")"
  done
  [ "$disturbed" -le 2 ] ||
    fail "$1: $disturbed of 18 runs disturbed with a CPU free: $(col sink,status,elapsed,wait_cpu_s,steal_s,others_cpu_s "$tmp/$1.tsv")"
  # Others' CPU time is recorded as context: the load's shows there.
  run_awk 'col("others_cpu_s") != "" && col("wait_cpu_s") != ""' "$tmp/$1.tsv" | grep -q . ||
    fail "$1: the figures are missing: $(col status,wait_cpu_s,others_cpu_s "$tmp/$1.tsv")"
  echo "$1: exit 0, 8 ok runs a cell, $disturbed disturbed"
}

# Quiet, a pipeline of three processes on two CPUs: they wait for each other, not for others, and
# that is no disturbance.
cat >"$tmp/pipeline.json" <<JSON
{"name": "pipeline", "inputs": ["lines.txt"], "sinks": ["null"], "repeats": 5, "warmup": 1, "cache": "none",
 "strategies": [{"name": "seq-grep-wc", "verify": false,
                 "command": ["sh", "-c", "seq 1 2000000 | grep 7 | wc -l"]}]}
JSON
"$bin/iobench" run "$tmp/pipeline.json" -o "$tmp/pipeline.tsv" -q >/dev/null 2>"$tmp/pipeline.err" ||
  fail "pipeline: exit $?: $(cat "$tmp/pipeline.err")"
# (A run the hypervisor stole time from is disturbed, rightly: this VM's steal shows now and then.)
run_awk 'col("status") != "ok" && col("steal_s") + 0 == 0' "$tmp/pipeline.tsv" | grep -q . &&
  fail "pipeline: a run waiting for its own processes was disturbed: $(col status,elapsed,wait_cpu_s,others_cpu_s,steal_s "$tmp/pipeline.tsv")"
echo "pipeline: its 5 runs ok ($(run_awk '{ printf "%s ", col("wait_cpu_s") }' "$tmp/pipeline.tsv")s of waiting for each other)"

start_load sh -c 'while :; do :; done'
free_cpu_case busy
stop_load
start_load python3 -c '
import time
while True:
    end = time.monotonic() + 0.003
    while time.monotonic() < end: pass
    time.sleep(0.007)'
free_cpu_case light
stop_load

# Bursts on the other CPU (busy 150 ms, idle 300 ms), the runs pinned to theirs: no run waits, but
# others ran a CPU's worth during the runs a burst overlapped and none during the rest, the
# session's calm. Those runs are disturbed by the burst rule, said once a cell, and run again:
# each cell still gets its 8 ok runs, exit 0. The 96 MiB copy (45 to 70 ms here): a 32 MiB one took
# 15 ms on Linux 6.18 here, too short for /proc/stat's 10 ms ticks to show a burst. A third of the
# time busy: about 44 % of the runs meet a burst, so a cell's 16 re-runs are spent with a chance
# near 1e-3 (half the time busy: a few in a hundred), and none of 16 or more runs meets one with
# about 1e-4.
start_load taskset -c 1 python3 -c '
import time
while True:
    end = time.monotonic() + 0.15
    while time.monotonic() < end: pass
    time.sleep(0.3)'
config ', "cpus": [0]' long.txt >"$tmp/bursts.json"
"$bin/iobench" run "$tmp/bursts.json" -o "$tmp/bursts.tsv" -q >/dev/null 2>"$tmp/bursts.err" ||
  fail "bursts: exit $?: $(cat "$tmp/bursts.err")"
stop_load
for sink in pipe null; do
  ok=$(run_awk -v s="$sink" 'col("sink") == s && col("status") == "ok"' "$tmp/bursts.tsv" | wc -l)
  [ "$ok" -eq 8 ] || fail "bursts: $ok ok runs into $sink, not 8: $(cat "$tmp/bursts.err")"
done
disturbed=$(run_awk 'col("status") == "disturbed"' "$tmp/bursts.tsv" | wc -l)
[ "$disturbed" -ge 1 ] ||
  fail "bursts: no run disturbed: $(col sink,status,elapsed,wait_cpu_s,others_cpu_s "$tmp/bursts.tsv")"
# Each was overlapped by a burst: others ran over 0.2 of a CPU during it.
run_awk 'col("status") == "disturbed" && col("others_cpu_s") < 0.2 * col("elapsed")' "$tmp/bursts.tsv" | grep -q . &&
  fail "bursts: a run disturbed without a burst: $(col sink,status,elapsed,wait_cpu_s,others_cpu_s "$tmp/bursts.tsv")"
grep -Eq "was disturbed: others ran [0-9.]+ ms of its [0-9.]+ ms \([0-9.]+ of a CPU\), where this session's calm runs saw [0-9.]+, more than the 0.2 of a CPU beyond the calm that the burst rule allows \(twice the threshold\); it is left out and run again" "$tmp/bursts.err" ||
  fail "bursts: no line saying why: $(cat "$tmp/bursts.err")"
echo "bursts: exit 0, 8 ok runs a cell, $disturbed overlapped by a burst re-run"

# The runs' one CPU taken half the time: every run waits, and is disturbed.
start_load taskset -c 0 sh -c 'while :; do :; done'
config ', "cpus": [0], "disturbance": "flag"' long.txt >"$tmp/pinned.json"
set +e
"$bin/iobench" run "$tmp/pinned.json" -o "$tmp/pinned.tsv" >"$tmp/pinned.out" 2>"$tmp/pinned.err"
code=$?
set -e
stop_load
rows=$(tail -n +2 "$tmp/pinned.tsv" | wc -l)
disturbed=$(run_awk 'col("status") == "disturbed"' "$tmp/pinned.tsv" | wc -l)
[ "$disturbed" -eq "$rows" ] ||
  fail "pinned: $disturbed of $rows runs disturbed: $(col sink,status,elapsed,wait_cpu_s "$tmp/pinned.tsv")"
# Each waited for a good part of its time (a busy loop's slice at a time): the rule's own figure.
run_awk 'col("wait_cpu_s") < 0.15 * col("elapsed")' "$tmp/pinned.tsv" | grep -q . &&
  fail "pinned: a run waited under 15 % of its time: $(col sink,elapsed,wait_cpu_s "$tmp/pinned.tsv")"
[ "$code" -eq 1 ] || fail "pinned: exit $code with every run disturbed, expected 1"
# One line a cell: its figure, and the settings that change the rule.
said=$(grep -Ec "run [0-9]+ was disturbed: its processes waited [0-9.]* ms of its [0-9.]* ms for a CPU(, and [0-9.]+ ms of the CPUs' time went to other guests \(steal\))?, more than the [0-9.]* ms the rule allows \(0.1 of a CPU\); it is left out\." "$tmp/pinned.err" || true)
[ "$said" -eq 2 ] || fail "pinned: $said lines saying why, not one a cell: $(cat "$tmp/pinned.err")"
grep -q 'IOBENCH_DISTURBANCE=off' "$tmp/pinned.err" || fail "pinned: no setting named: $(cat "$tmp/pinned.err")"
# Figures, not dashes: the table shows them, marked.
grep -q '^copy (disturbed) ' "$tmp/pinned.out" ||
  fail "pinned: the table does not show the disturbed figures: $(cat "$tmp/pinned.out")"
"$bin/iobench" summarize --format json "$tmp/pinned.tsv" >"$tmp/pinned.json.out"
python3 - "$tmp/pinned.json.out" <<'PY' || fail "summarize json: $(cat "$tmp/pinned.json.out")"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
assert len(results) == 2, results
for r in results:
    assert r["iobench"]["disturbance"]["figures_of"] == "disturbed", r["iobench"]
    assert r["median"] > 0 and len(r["times"]) == 8, r
PY
# The record says the rule the runs were judged by.
meta="$tmp/meta/pinned.json"
python3 - "$meta" <<'PY' || fail "meta: $(cat "$meta")"
import json, sys
options = json.load(open(sys.argv[1]))["options"]
assert options["disturbance"] == "flag", options
assert options["disturbance_threshold_cpus"] == 0.1, options
assert options["disturbance_wait_scope"] == "tree" or options["disturbance_wait_scope"].startswith("worker: "), options
PY
echo "run_disturbance: a free CPU leaves every run ok; a taken one disturbs every run, said and shown"
