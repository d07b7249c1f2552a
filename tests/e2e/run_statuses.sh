#!/usr/bin/env bash
# `iobench run` records every way a run can end (ok, failed, signal, timeout, error, mismatch),
# keeps going, names them on stderr, and exits 1. Relative inputs resolve against the config.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# The rows are counted: "disturbance": "off", or a run that tests beside it disturb is re-run as
# one row more (docs/driver.md, "Disturbance").

mkdir "$tmp/cfg"
seq 1 20000 >"$tmp/cfg/input.txt"
cat >"$tmp/cfg/statuses.json" <<'JSON'
{
  "name": "statuses",
  "inputs": ["input.txt"],
  "strategies": [
    {"name": "ok", "command": ["cat", "{input}"]},
    {"name": "failed", "command": "cat {input}; exit 3", "shell": true},
    {"name": "signal", "command": "kill -9 $$", "shell": true, "verify": false},
    {"name": "timeout", "command": ["sleep", "7.25"], "verify": false},
    {"name": "error", "command": ["/nonexistent/iobench-test-program"], "verify": false},
    {"name": "mismatch", "command": "head -c 100 {input}", "shell": true}
  ],
  "repeats": 2, "warmup": 0, "timeout_s": 0.5, "disturbance": "off"
}
JSON
cd "$tmp"
set +e
"$bin/iobench" run cfg/statuses.json -o "$tmp/runs.tsv" --quiet >"$tmp/out.txt" 2>"$tmp/err.txt"
code=$?
set -e
[ "$code" -eq 1 ] || { cat "$tmp/err.txt"; fail "exit code $code, expected 1"; }

status_of() { run_awk -v t="$1" 'col("test") == t { print col("status") "/" col("exit_code") }' "$tmp/runs.tsv" | sort -u | tr '\n' ' '; }
[ "$(status_of ok)" = "ok/0 " ] || fail "ok: $(status_of ok)"
[ "$(status_of failed)" = "failed/3 " ] || fail "failed: $(status_of failed)"
[ "$(status_of signal)" = "signal/137 " ] || fail "signal: $(status_of signal)"
[ "$(status_of timeout)" = "timeout/143 " ] || fail "timeout: $(status_of timeout)"
[ "$(status_of error)" = "error/ " ] || fail "error: $(status_of error)"
[ "$(status_of mismatch)" = "mismatch/0 " ] || fail "mismatch: $(status_of mismatch)"
[ "$(tail -n +2 "$tmp/runs.tsv" | wc -l)" -eq 12 ] || fail "expected 12 rows"
# The timed-out runs were ended near timeout_s, not after the 7.25 s sleep.
run_awk 'col("test") == "timeout" && col("elapsed") > 4 { exit 1 }' "$tmp/runs.tsv" || fail "timeout run lasted too long"
pgrep -f 'sleep 7.25' >/dev/null && fail "a timed-out sleep is still running"

grep -q "MISMATCH" "$tmp/err.txt" || fail "no mismatch warning"
grep -q "could not start" "$tmp/err.txt" || fail "no warning for the program that could not start"
grep -q "exit code 3" "$tmp/err.txt" || fail "no warning for the failed run"
grep -q "10 of 12 runs did not end ok" "$tmp/err.txt" || { cat "$tmp/err.txt"; fail "no summary of failures"; }
# Relative input resolved against the config's folder, and written so from the current folder.
run_awk 'col("input") != "cfg/input.txt" { exit 1 }' "$tmp/runs.tsv" || fail "input column: $(col input "$tmp/runs.tsv" | sort -u)"
# Every row has every column.
bad=$(malformed_lines "$tmp/runs.tsv")
[ -z "$bad" ] || fail "a row without every column: $bad"
echo "run_statuses: ok"
