#!/usr/bin/env bash
# Tables at scale (docs/reports.md, "Tables at scale"): `summarize --top 3` of a file of many tests
# prints a section per input and sink, 3 rows each and a count of the rest; tsv keeps every row;
# `run`'s end table shows 20 rows a section by default and names how to see them all.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench

# 40 tests on two sinks, 3 runs each.
LC_ALL=C awk 'BEGIN {
  OFS = "\t"; print "test", "elapsed", "user", "system", "cpu_pct", "mem", "input", "sink", "status"
  for (s = 0; s < 2; s++) for (r = 0; r < 3; r++) for (t = 0; t < 40; t++)
    print "t" t, 1 + t / 100 + r / 1000, 0.5, 0.1, 60, 2048, "in.txt", (s ? "file" : "pipe"), "ok"
}' >"$tmp/many.tsv"
"$iobench" summarize --top 3 "$tmp/many.tsv" >"$tmp/top.out" 2>"$tmp/top.err" ||
  fail "summarize --top 3 exited $?: $(cat "$tmp/top.err")"
[ "$(grep -c '^input in.txt, sink ' "$tmp/top.out")" -eq 2 ] || fail "not two sections: $(cat "$tmp/top.out")"
[ "$(grep -c '^t[0-9]' "$tmp/top.out")" -eq 6 ] || fail "not 3 rows a section: $(cat "$tmp/top.out")"
[ "$(grep -cx '… and 37 more (all of them with --format tsv)' "$tmp/top.out")" -eq 2 ] ||
  fail "no count line in each section: $(cat "$tmp/top.out")"
# The first three in the file's order, in each section.
awk '/^input/ { s++ } /^t[0-9]/ { print s, $1 }' "$tmp/top.out" | tr '\n' ' ' |
  grep -qx '1 t0 1 t1 1 t2 2 t0 2 t1 2 t2 ' || fail "not the first rows: $(cat "$tmp/top.out")"
"$iobench" summarize --top 3 --format tsv "$tmp/many.tsv" >"$tmp/top.tsv" 2>/dev/null
[ "$(wc -l <"$tmp/top.tsv")" -eq 81 ] || fail "tsv does not have every group: $(wc -l <"$tmp/top.tsv")"
# Into a file: through `| grep -q` a match would end the pipe by SIGPIPE, which pipefail counts as
# the pipe's failure, and the test would pass.
"$iobench" summarize "$tmp/many.tsv" 2>/dev/null >"$tmp/all.out"
grep -q 'more (' "$tmp/all.out" && fail "summarize cut without --top"

# run's end table: 25 tests, 20 shown by default, all with --top 0.
echo x >"$tmp/in.txt"
cat >"$tmp/wide.json" <<'JSON'
{"name": "wide", "inputs": ["in.txt"],
 "strategies": [{"name": "t{i}", "command": ["true"], "verify": false}],
 "params": {"i": ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12",
                  "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24"]},
 "sinks": ["null"], "repeats": 1, "warmup": 0, "cache": "none", "disturbance": "off"}
JSON
"$iobench" run -q "$tmp/wide.json" -o "$tmp/wide.tsv" >"$tmp/run.out" 2>"$tmp/run.err" ||
  fail "run exited $?: $(cat "$tmp/run.err")"
[ "$(grep -c '^t[0-9]' "$tmp/run.out")" -eq 20 ] || fail "end table not cut to 20: $(cat "$tmp/run.out")"
grep -qxF "… and 5 more (all of them: iobench summarize $tmp/wide.tsv)" "$tmp/run.out" ||
  fail "no count line naming summarize: $(cat "$tmp/run.out")"
"$iobench" run -q --top 0 "$tmp/wide.json" -o "$tmp/wide0.tsv" >"$tmp/run0.out" 2>/dev/null ||
  fail "run --top 0 exited $?"
[ "$(grep -c '^t[0-9]' "$tmp/run0.out")" -eq 25 ] || fail "--top 0 cut the table: $(cat "$tmp/run0.out")"
echo "report_summarize_top: 3 rows a section and the count; run's end table cut at 20"
