#!/usr/bin/env bash
# SIGINT or SIGTERM: stop scheduling, end the running worker and its children, keep every
# finished row in a well-formed file, exit 130.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# The rows are counted: "disturbance": "off", or a run that tests beside it disturb is re-run as
# one row more (docs/driver.md, "Disturbance").

echo hello >"$tmp/input.txt"
cat >"$tmp/slow.json" <<'JSON'
{
  "name": "slow",
  "inputs": ["input.txt"],
  "strategies": [
    {"name": "quick", "command": ["cat", "{input}"]},
    {"name": "slow", "command": "sleep 41.5 & sleep 41.5; cat {input}", "shell": true, "verify": false}
  ],
  "repeats": 3, "warmup": 0, "order": "grouped", "disturbance": "off"
}
JSON
driver=""
on_exit '[ -z "$driver" ] || kill "$driver" 2>/dev/null'  # it ends its worker's group
# The three quick runs are written and the slow one is running.
slow_run_started() {
  [ "$(tail -n +2 "$tmp/runs.tsv" 2>/dev/null | wc -l)" -ge 3 ] && pgrep -f 'sleep 41.5' >/dev/null
}
for signal in INT TERM; do
  rm -f "$tmp/runs.tsv"
  "$bin/iobench" run "$tmp/slow.json" -o "$tmp/runs.tsv" --quiet >/dev/null 2>"$tmp/err.txt" &
  driver=$!
  wait_until 30 "SIG$signal: the three quick rows and the slow run" slow_run_started
  sleep 0.3  # the busy-CPU window (250 ms) is over, to close at the interrupted run's end
  kill -"$signal" "$driver"
  set +e
  wait "$driver"
  code=$?
  set -e
  driver=""
  [ "$code" -eq 130 ] || { cat "$tmp/err.txt"; fail "SIG$signal: exit code $code, expected 130"; }
  [ "$(tail -n +2 "$tmp/runs.tsv" | wc -l)" -eq 3 ] || fail "SIG$signal: rows: $(cat "$tmp/runs.tsv")"
  bad=$(malformed_lines "$tmp/runs.tsv")
  [ -z "$bad" ] || fail "SIG$signal: malformed rows: $bad"
  run_awk 'col("status") != "ok" { exit 1 }' "$tmp/runs.tsv" || fail "SIG$signal: rows not ok: $(col test,status "$tmp/runs.tsv")"
  grep -q interrupted "$tmp/err.txt" || fail "SIG$signal: no word about the interruption"
  grep -Eq '^ *"busy_cpus_start": [0-9]' "$tmp/meta/runs.json" ||
    fail "SIG$signal: the busy-CPU figure is not in the meta file: $(grep busy_cpus "$tmp/meta/runs.json")"
  sleep 0.2
  pgrep -f 'sleep 41.5' >/dev/null && fail "SIG$signal: the worker or its child is still running"
done
echo "run_interrupt: ok"
