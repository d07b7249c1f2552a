#!/usr/bin/env bash
# A run during which others keep a CPU busy is marked disturbed (docs/driver.md, "Disturbance"):
# the row stays in the run file with the figure, the run is re-run at the end of its round, and
# summarize leaves it out of the statistics. The busy loop is the test's own, started by the first
# run (it touches "go") and stopped by it (it touches "stop"); the measured command only sleeps.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

echo x >"$tmp/in.txt"
cat >"$tmp/nap.json" <<JSON
{"name": "nap", "inputs": ["in.txt"],
 "strategies": [{"name": "nap", "verify": false, "command": ["sh", "-c",
   "if [ -e '$tmp/go' ]; then sleep 0.3; else touch '$tmp/go'; sleep 0.6; touch '$tmp/stop'; fi"]}],
 "sinks": ["null"], "repeats": 3, "warmup": 0, "cache": "none"}
JSON
(
  while [ ! -e "$tmp/go" ]; do sleep 0.01; done
  while [ ! -e "$tmp/stop" ]; do :; done
) &
loop=$!
on_exit "kill $loop 2>/dev/null"
"$bin/iobench" run "$tmp/nap.json" -o "$tmp/nap.tsv" >/dev/null 2>"$tmp/nap.err" ||
  fail "nap: exit $?: $(cat "$tmp/nap.err")"
wait "$loop" || true

# The first row: repeat 1, disturbed, with about a CPU of others over its 0.6 s.
first=$(run_awk 'FNR == 2 { print col("repeat"), col("status"), col("others_cpu_s") }' "$tmp/nap.tsv")
read -r repeat status others <<<"$first"
[ "$repeat" = 1 ] && [ "$status" = disturbed ] ||
  fail "first row not disturbed: $first"$'\n'"$(col repeat,status,elapsed,others_cpu_s "$tmp/nap.tsv")"
awk -v o="$others" 'BEGIN { exit !(o >= 0.3) }' || fail "others_cpu_s $others with a busy loop"
# Re-run at the end of its round (round 1 is this one run), before repeat 2.
[ "$(run_awk 'FNR == 3 { print col("repeat") }' "$tmp/nap.tsv")" = 1 ] ||
  fail "no re-run of repeat 1 after it: $(col repeat,status,others_cpu_s "$tmp/nap.tsv")"
# Out of the statistics, counted like the other statuses that are not ok.
"$bin/iobench" summarize "$tmp/nap.tsv" >"$tmp/summary.txt" 2>"$tmp/summary.err" ||
  fail "summarize: exit $?: $(cat "$tmp/summary.err")"
disturbed=$(run_awk 'col("status") == "disturbed"' "$tmp/nap.tsv" | wc -l)
cat "$tmp/summary.txt" "$tmp/summary.err" |
  grep -q "nap.*excluded from the statistics (${disturbed} disturbed)" ||
  fail "summarize does not leave the disturbed runs out: $(cat "$tmp/summary.txt" "$tmp/summary.err")"
echo "run_disturbance: the busy run disturbed (others_cpu_s $others), re-run and excluded"
