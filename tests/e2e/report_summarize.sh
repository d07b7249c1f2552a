#!/usr/bin/env bash
# iobench summarize end to end: formats, GNU time recipe files, stdout/stderr split, exit codes.
# Usage: bash report_summarize.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
fixtures=$src/tests/fixtures/reports
cd "$src"  # the fixtures name their input relative to the source folder (MB/s)

# Pretty (default) to stdout, warnings to stderr, exit 0.
"$iobench" summarize "$fixtures/runs-small.tsv" >"$tmp/out" 2>"$tmp/err" || fail "summarize exited $?"
grep -q '^getlineInRawOut ' "$tmp/out" || fail "no getlineInRawOut row: $(cat "$tmp/out")"
grep -q 'warning: .*1 failed' "$tmp/err" || fail "no failed-run warning: $(cat "$tmp/err")"
grep -q warning "$tmp/out" && fail "warnings leaked to stdout"

# Every format; tsv equals the golden file.
"$iobench" summarize --format tsv "$fixtures/runs-small.tsv" 2>/dev/null >"$tmp/out.tsv"
diff -u "$fixtures/golden/runs-small.summary.tsv" "$tmp/out.tsv" || fail "tsv differs from golden"
# Into files, not `| grep -q`: grep stops at its first match, and the summarize still writing then
# dies of SIGPIPE, which pipefail counts as a failure (ci20's sanitizer pass).
"$iobench" summarize --format markdown "$fixtures/runs-small.tsv" 2>/dev/null >"$tmp/out.md"
grep -q '^| --- |' "$tmp/out.md" || fail "markdown has no rule"
"$iobench" summarize --format json "$fixtures/runs-small.tsv" 2>/dev/null >"$tmp/out.json"
grep -q '"command": "getlineInRawOut"' "$tmp/out.json" || fail "json has no command"
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"])==3' "$tmp/out.json" ||
    fail "json does not parse"
fi

# The GNU time recipe file, and several files with --group-by, and stdin.
"$iobench" summarize --format tsv "$fixtures/gnu-time.tsv" >"$tmp/gnu.tsv" 2>/dev/null || fail "gnu time file"
grep -q $'^readInBufOut\t3\t0.21\t' "$tmp/gnu.tsv" || fail "gnu time medians: $(cat "$tmp/gnu.tsv")"
"$iobench" summarize --group-by test --format tsv "$fixtures/runs-small.tsv" "$fixtures/gnu-time.tsv" \
  2>/dev/null >"$tmp/merged.tsv"
grep -q $'^getlineInRawOut\t8\t' "$tmp/merged.tsv" || fail "merged: $(cat "$tmp/merged.tsv")"
"$iobench" summarize --format tsv - <"$fixtures/gnu-time.tsv" 2>/dev/null >"$tmp/stdin.tsv"
grep -q '^wc' "$tmp/stdin.tsv" || fail "stdin"

# Malformed input: one line naming file, line and column; exit 2.
printf 'test\telapsed\tuser\tsystem\tcpu_pct\tmem\nA\tslow\t1\t0\t99%%\t10\n' >"$tmp/bad.tsv"
set +e
"$iobench" summarize "$tmp/bad.tsv" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "malformed file exited $rc, not 2"
grep -q "bad.tsv:2: column 'elapsed'" "$tmp/err" || fail "error message: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "error is not one line: $(cat "$tmp/err")"

set +e
"$iobench" summarize --format html "$fixtures/runs-small.tsv" >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--format html exited $rc, not 2"
# A warm run file and one with the cache left as it is ("none"): never pooled by default
# (issue 48: 12 ms warm and 84 ms cold runs made one median of 48.4 ms); --group-by pools them.
printf 'a\nb\n' >"$tmp/in.txt"
for mode in warm none; do
  cat >"$tmp/$mode.json" <<JSON
{"name": "$mode", "inputs": ["in.txt"], "sinks": ["null"], "repeats": 2, "warmup": 0,
 "cache": "$mode", "disturbance": "off",
 "strategies": [{"name": "copy", "command": ["cat", "{input}"]}]}
JSON
  "$iobench" run "$tmp/$mode.json" -o "$tmp/runs-$mode.tsv" -q >/dev/null 2>&1 || fail "run $mode exited $?"
done
"$iobench" summarize --format tsv "$tmp/runs-warm.tsv" "$tmp/runs-none.tsv" >"$tmp/modes.tsv" 2>/dev/null ||
  fail "summarize of two cache modes exited $?"
[ "$(grep -c '^copy' "$tmp/modes.tsv")" -eq 2 ] && head -1 "$tmp/modes.tsv" | grep -q $'\tcache\t' &&
  grep -q $'\twarm\t' "$tmp/modes.tsv" && grep -q $'\tnone\t' "$tmp/modes.tsv" ||
  fail "warm and none pooled: $(cat "$tmp/modes.tsv")"
"$iobench" summarize --group-by test --format tsv "$tmp/runs-warm.tsv" "$tmp/runs-none.tsv" \
  2>/dev/null >"$tmp/pooled.tsv"
grep -q $'^copy\t4\t' "$tmp/pooled.tsv" || fail "--group-by test does not pool them: $(cat "$tmp/pooled.tsv")"
# A --filter that leaves the baseline out: run's table and summarize say so, once (issue 48: it was
# "has no successful run", then "has no runs here (left out by --filter?)" for each input and sink).
cat >"$tmp/filtered.json" <<'JSON'
{"name": "filtered", "inputs": ["in.txt"], "sinks": ["null", "pipe"], "repeats": 2, "warmup": 0,
 "disturbance": "off", "baseline": "base",
 "strategies": [{"name": "base", "command": ["cat", "{input}"], "verify": false},
                {"name": "other", "command": ["cat", "{input}"], "verify": false}]}
JSON
left_out="warning: baseline 'base' was left out by --filter 'oth'; relative is to the fastest"
"$iobench" run "$tmp/filtered.json" --filter oth -o "$tmp/runs-filtered.tsv" >/dev/null \
  2>"$tmp/filtered.err" || fail "run --filter exited $?"
"$iobench" summarize --baseline base "$tmp/runs-filtered.tsv" >/dev/null 2>>"$tmp/filtered.err" ||
  fail "summarize of a filtered run exited $?"
[ "$(grep -cxF "iobench: $left_out" "$tmp/filtered.err")" -eq 2 ] &&
  ! grep -q "no successful run\|no runs here" "$tmp/filtered.err" ||
  fail "a baseline the filter left out: $(cat "$tmp/filtered.err")"
# plot, compare and the HTML report group the same way, each naming the cache mode.
"$iobench" plot "$tmp/runs-warm.tsv" "$tmp/runs-none.tsv" -o "$tmp/modes.svg" 2>/dev/null ||
  fail "plot of two cache modes exited $?"
grep -q 'sink null · cache warm' "$tmp/modes.svg" && grep -q 'sink null · cache none' "$tmp/modes.svg" &&
  grep -q 'not pooled: the run files differ in cache (warm, none)' "$tmp/modes.svg" ||
  fail "plot pooled warm and none"
"$iobench" compare "$tmp/runs-warm.tsv" "$tmp/runs-none.tsv" >"$tmp/cmp.out" 2>"$tmp/cmp.err" ||
  fail "compare of two cache modes exited $?"
grep -q 'not pooled: the run files differ in cache (warm, none)' "$tmp/cmp.err" &&
  grep -q '^0 comparisons' "$tmp/cmp.out" || fail "compare compared warm with none: $(cat "$tmp/cmp.out" "$tmp/cmp.err")"
"$iobench" report "$tmp/runs-warm.tsv" "$tmp/runs-none.tsv" -o "$tmp/modes.html" 2>/dev/null ||
  fail "report of two cache modes exited $?"
[ "$(grep -c '<h2>input .*cache \(warm\|none\)</h2>' "$tmp/modes.html")" -eq 2 ] ||
  fail "the report pooled warm and none"
# A strategy with "verify": false is marked.
cat >"$tmp/unverified.json" <<JSON
{"name": "unverified", "inputs": ["in.txt"], "sinks": ["pipe"], "repeats": 2, "warmup": 0,
 "disturbance": "off",
 "strategies": [{"name": "copy", "command": ["cat", "{input}"]},
                {"name": "date", "command": ["date", "+%N"], "verify": false}]}
JSON
"$iobench" run "$tmp/unverified.json" -o "$tmp/runs-unverified.tsv" -q >/dev/null 2>&1 ||
  fail "run unverified exited $?"
"$iobench" summarize "$tmp/runs-unverified.tsv" >"$tmp/unverified.out" 2>/dev/null ||
  fail "summarize unverified exited $?"
grep -q '^date (unverified) ' "$tmp/unverified.out" && ! grep -q '^copy (unverified)' "$tmp/unverified.out" ||
  fail "verify: false not marked: $(cat "$tmp/unverified.out")"
# Into a file, as above.
"$iobench" summarize --format json "$tmp/runs-unverified.tsv" >"$tmp/unverified.json" 2>/dev/null ||
  fail "summarize --format json exited $?"
grep -q '"verified": false' "$tmp/unverified.json" ||
  fail "JSON does not say verified: false: $(cat "$tmp/unverified.json")"
echo "report_summarize: ok"
