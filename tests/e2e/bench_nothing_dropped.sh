#!/usr/bin/env bash
# A cell without an ok run fails the run and is never dropped from an export (issue 30): every
# run disturbed (a busy loop of the test's own keeps a CPU busy through them, --disturbance flag)
# is exit 1 for bench and for run, with one line naming the cells; a command whose every run
# fails is in --export-json (marked failed, its times empty), --export-csv and the tables.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
command -v python3 >/dev/null || skip "python3 reads the exports"

# A command that always fails, beside one that works: its rows are failed, exit 1, and the
# exports keep it.
set +e
"$bin" bench -r 3 -w 0 -q --disturbance off -o fail.tsv --export-json fail.json --export-csv fail.csv \
  --export-markdown fail.md 'sleep 0.001' 'sleep 0.001; exit 3' >out.txt 2>err.txt
code=$?
set -e
[ "$code" -eq 1 ] || fail "a failing command: exit $code, expected 1: $(cat err.txt)"
python3 - fail.json <<'PY' || fail "fail.json: $(cat fail.json)"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
assert [r["command"] for r in results] == ["sleep 0.001", "sleep 0.001; exit 3"], results
ok, failed = results
assert ok["iobench"]["status"] == "ok" and ok["iobench"]["ok_runs"] == 3, ok["iobench"]
assert failed["iobench"]["status"] == "failed" and failed["iobench"]["ok_runs"] == 0, failed["iobench"]
assert failed["times"] == [] and failed["mean"] is None and "exit_codes" in failed, failed
assert failed["iobench"]["excluded"].get("failed", 0) >= 1, failed["iobench"]
PY
grep -Eq '^sleep 0.001; exit 3,,,,,,,,,pipe,failed: no ok run \([0-9]+ failed\)$' fail.csv || fail "fail.csv: $(cat fail.csv)"
grep -qF '| `sleep 0.001; exit 3` | failed: no ok run (' fail.md || fail "fail.md: $(cat fail.md)"
grep -q '^Benchmark 2: sleep 0.001; exit 3$' out.txt && grep -q '^  no ok run: ' out.txt ||
  fail "the terminal's block does not say it: $(cat out.txt)"

# Every run disturbed: no failed row, yet nothing was measured. A CPU kept busy by the test.
busy() {
  ( while [ ! -e "$tmp/stop" ]; do :; done ) &
  loop=$!
  on_exit "touch '$tmp/stop'; kill $loop 2>/dev/null"
  sleep 0.5  # the loop is running before the first run
}
busy
set +e
"$bin" bench -r 3 -w 0 -q --disturbance flag -o busy.tsv --export-json busy.json \
  'sleep 0.05' 'sleep 0.06' >out.txt 2>err.txt
code=$?
set -e
disturbed=$(run_awk 'col("status") == "disturbed"' busy.tsv | wc -l)
rows=$(tail -n +2 busy.tsv | wc -l)
[ "$disturbed" -eq "$rows" ] || skip "the busy loop disturbed $disturbed of $rows runs here, not all: $(col test,status,others_cpu_s busy.tsv)"
[ "$code" -eq 1 ] || fail "every run disturbed: bench exit $code, expected 1: $(cat err.txt)"
grep -q "^iobench: 2 cells without an ok run (every run disturbed): 'sleep 0.05' (pipe sink), 'sleep 0.06' (pipe sink)$" err.txt ||
  fail "no line naming the cells: $(cat err.txt)"
python3 - busy.json <<'PY' || fail "busy.json: $(cat busy.json)"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
assert [r["command"] for r in results] == ["sleep 0.05", "sleep 0.06"], results
assert all(r["iobench"]["status"] == "failed" and r["times"] == [] for r in results), results
PY

# `run` decides its exit status the same way.
echo x >in.txt
cat >nap.json <<JSON
{"name": "nap", "inputs": ["in.txt"],
 "strategies": [{"name": "nap", "verify": false, "command": ["sleep", "0.05"]}],
 "sinks": ["null"], "repeats": 3, "warmup": 0, "cache": "none", "disturbance": "flag"}
JSON
set +e
"$bin" run nap.json -o nap.tsv -q >/dev/null 2>err.txt
code=$?
set -e
[ "$(run_awk 'col("status") != "disturbed"' nap.tsv | wc -l)" -eq 0 ] ||
  skip "run: not every run disturbed: $(col status,others_cpu_s nap.tsv)"
[ "$code" -eq 1 ] || fail "run, every run disturbed: exit $code, expected 1: $(cat err.txt)"
grep -q "^iobench: 1 cell without an ok run (every run disturbed): 'nap' on in.txt (null sink)$" err.txt ||
  fail "run: no line naming the cell: $(cat err.txt)"
echo "bench_nothing_dropped: ok"
