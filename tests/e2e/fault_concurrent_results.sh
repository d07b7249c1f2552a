#!/usr/bin/env bash
# Fault: two `iobench run` into the same results file. The second refuses (exit 2, nothing
# written, the file named); the first finishes untouched with every row.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
first=""
on_exit '[ -n "$first" ] && kill "$first" 2>/dev/null'
printf 'x\n' >"$tmp/in.txt"
cat >"$tmp/slow.json" <<'EOF2'
{"name": "slow", "inputs": [{"path": "in.txt"}],
 "strategies": [{"name": "nap", "command": ["sleep", "0.2"], "verify": false}],
 "sinks": ["null"], "repeats": 12, "warmup": 0, "cache": "none", "disturbance": "off"}
EOF2
"$bin/iobench" run "$tmp/slow.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err1" &
first=$!
wait_until 10 "the first run to create its results file" test -e "$tmp/out/runs.tsv"
set +e
"$bin/iobench" run "$tmp/slow.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err2"
rc2=$?
wait "$first"; rc1=$?
set -e
first=""
[ "$rc2" -eq 2 ] || fail "second run: exit $rc2 (want 2)"
grep -q "runs.tsv" "$tmp/err2" || fail "second run's error does not name the file: $(cat "$tmp/err2")"
[ "$rc1" -eq 0 ] || fail "first run: exit $rc1: $(cat "$tmp/err1")"
rows=$(run_awk 'col("status") == "ok"' "$tmp/out/runs.tsv" | wc -l)
[ "$rows" -eq 12 ] || fail "first run has $rows ok rows (want 12)"
bad=$(malformed_lines "$tmp/out/runs.tsv")
[ -z "$bad" ] || fail "malformed rows: $bad"
grep -q '"finished": true' "$tmp/out/meta/runs.json" || fail "first run's meta not finished"
echo "fault_concurrent_results: second refused (exit 2), first intact with 12 rows"
