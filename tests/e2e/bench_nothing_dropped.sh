#!/usr/bin/env bash
# A cell without an ok run fails the run and is never dropped from an export (issue 30): every
# run disturbed (iobench and a busy loop of the test's own pinned to one CPU, so that every run
# waits for it; --disturbance flag) is exit 1 for bench and for run, with one line naming the
# cells, and the figures of the disturbed runs are still shown, marked (issue 45); a command whose
# every run fails is in --export-json (marked failed, its times empty), --export-csv and the
# tables.
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

# Every run disturbed: no failed row, yet nothing was measured on a quiet machine. iobench and a
# busy loop of the test's own share one CPU, and the commands need a CPU (awk counting): each run
# waits for about half its time.
command -v taskset >/dev/null || skip "needs taskset (util-linux) to share a CPU with the load"
spin="awk 'BEGIN { for (i = 0; i < 3000000; i++); }'"
busy() {
  taskset -c 0 sh -c "while [ ! -e '$tmp/stop' ]; do :; done" &
  loop=$!
  on_exit "touch '$tmp/stop'; kill $loop 2>/dev/null"
  sleep 0.5  # the loop is running before the first run
}
busy
set +e
taskset -c 0 "$bin" bench -r 3 -w 0 -q --disturbance flag -o busy.tsv --export-json busy.json \
  -n a -n b "$spin" "$spin; true" >out.txt 2>err.txt
code=$?
set -e
disturbed=$(run_awk 'col("status") == "disturbed"' busy.tsv | wc -l)
rows=$(tail -n +2 busy.tsv | wc -l)
[ "$disturbed" -eq "$rows" ] || fail "a shared CPU disturbed $disturbed of $rows runs, not all: $(col test,status,elapsed,wait_cpu_s busy.tsv)"
[ "$code" -eq 1 ] || fail "every run disturbed: bench exit $code, expected 1: $(cat err.txt)"
grep -q "^iobench: 2 cells without an ok run (every run disturbed): 'a' (pipe sink), 'b' (pipe sink)$" err.txt ||
  fail "no line naming the cells: $(cat err.txt)"
# Figures, not dashes: the blocks and the export show the disturbed runs' times, marked.
[ "$(grep -c '^  Every run was disturbed: these figures are of its 3 disturbed runs' out.txt)" -eq 2 ] ||
  fail "the blocks do not show the disturbed figures: $(cat out.txt)"
python3 - busy.json <<'PY' || fail "busy.json: $(cat busy.json)"
import json, sys
document = json.load(open(sys.argv[1]))
results = document["results"]
assert [r["command"] for r in results] == ["a", "b"], results
for r in results:
    assert r["iobench"]["status"] == "disturbed" and r["iobench"]["ok_runs"] == 0, r["iobench"]
    assert r["iobench"]["figures_from_disturbed_runs"] is True, r["iobench"]
    assert len(r["times"]) == 3 and r["median"] > 0, r
assert all(w["every_run_disturbed"] for w in document["iobench"]["without_ok_runs"]), document["iobench"]
PY

# `run` decides its exit status the same way.
echo x >in.txt
cat >nap.json <<JSON
{"name": "nap", "inputs": ["in.txt"],
 "strategies": [{"name": "nap", "verify": false, "command": ["sh", "-c", "$spin"]}],
 "sinks": ["null"], "repeats": 3, "warmup": 0, "cache": "none", "disturbance": "flag"}
JSON
set +e
taskset -c 0 "$bin" run nap.json -o nap.tsv -q >/dev/null 2>err.txt
code=$?
set -e
[ "$(run_awk 'col("status") != "disturbed"' nap.tsv | wc -l)" -eq 0 ] ||
  fail "run: not every run disturbed: $(col status,elapsed,wait_cpu_s nap.tsv)"
[ "$code" -eq 1 ] || fail "run, every run disturbed: exit $code, expected 1: $(cat err.txt)"
grep -q "^iobench: 1 cell without an ok run (every run disturbed): 'nap' on in.txt (null sink)$" err.txt ||
  fail "run: no line naming the cell: $(cat err.txt)"
echo "bench_nothing_dropped: ok"
