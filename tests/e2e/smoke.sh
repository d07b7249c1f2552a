#!/usr/bin/env bash
# End to end: `iobench run configs/smoke.json` into a temporary folder, then `summarize`.
# Checks the header, one ok row per test and repeat, and that summarize names every test.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

cd "$src"
"$bin/iobench" run configs/smoke.json -o "$tmp/runs.tsv" --quiet >"$tmp/table.txt" 2>"$tmp/stderr.txt" \
  || { rc=$?; cat "$tmp/stderr.txt" >&2; fail "iobench run exited $rc"; }

head -1 "$tmp/runs.tsv" | grep -q $'^test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\t' \
  || fail "header: $(head -1 "$tmp/runs.tsv")"

# Every test in the plan, three repeats each, all ok.
"$bin/iobench" run configs/smoke.json --dry-run | awk -F'\t' '$1 == "measure" { print $2 }' | sort -u >"$tmp/tests.txt"
tests=$(wc -l <"$tmp/tests.txt")
[ "$tests" -ge 70 ] || fail "only $tests tests in the smoke plan"
rows=$(tail -n +2 "$tmp/runs.tsv" | wc -l)
[ "$rows" -eq $((tests * 3)) ] || fail "$rows rows for $tests tests x 3 repeats"
bad=$(run_awk 'col("status") != "ok"' "$tmp/runs.tsv" | sed -n 1,5p)
[ -z "$bad" ] || fail "rows not ok:"$'\n'"$bad"
# Every hashed copy agrees with the input (the column is filled for pipe sinks).
run_awk 'col("output_hash") == "" && col("test") != "wc-l" { exit 1 }' "$tmp/runs.tsv" || fail "missing output_hash"

# The smoke matrix covers every reader and writer the worker lists.
"$bin/iobench" list | awk '$1 == "reader" || $1 == "writer" { print $2 }' >"$tmp/strategies.txt"
[ "$(wc -l <"$tmp/strategies.txt")" -ge 15 ] || fail "iobench list shows too few strategies"
while read -r name; do
  grep -q "\"$name\"" configs/smoke.json || fail "smoke.json lacks worker strategy $name"
done <"$tmp/strategies.txt"

[ -s "$tmp/medians/runs.tsv" ] || fail "no medians file"
[ -s "$tmp/meta/runs.json" ] || fail "no meta file"
"$bin/iobench" summarize "$tmp/runs.tsv" >"$tmp/summary.txt"
while read -r test; do
  grep -qF -- "$test" "$tmp/summary.txt" || fail "summarize does not name $test"
done <"$tmp/tests.txt"
echo "smoke: $rows rows, $tests tests, all ok"
