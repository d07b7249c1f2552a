#!/usr/bin/env bash
# `iobench report` and `run --report` end to end, without a browser (report_browser.sh has one):
# the page is written whole or not at all, bad input is one line and exit 2, a report that cannot
# be written after a run is exit 3 with every row and the medians kept, and the page's
# Content-Security-Policy allows exactly its one script (its SHA-256, computed here by Python).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
fixtures=$src/tests/fixtures/reports

"$iobench" report "$fixtures/runs-ngram.tsv" "$fixtures/gnu-time.tsv" -o "$tmp/fixtures.html" ||
  fail "report of the fixtures exited $?"
head -1 "$tmp/fixtures.html" | grep -qx '<!DOCTYPE html>' || fail "not an HTML page"
tail -1 "$tmp/fixtures.html" | grep -qx '</html>' || fail "page not closed"
grep -q '<tr data-test="readInBufOut-4KiB">' "$tmp/fixtures.html" || fail "a test is missing"
grep -q 'no meta file beside it' "$tmp/fixtures.html" || fail "the missing meta file is not said"

# The CSP's hash is the script's, so the browser runs it and nothing else.
python3 - "$tmp/fixtures.html" <<'PY' || fail "the CSP does not allow the page's script"
import base64, hashlib, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
assert len(scripts) == 1, len(scripts)
digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
assert f"script-src 'sha256-{digest}'" in policy, policy
assert "default-src 'none'" in policy, policy
PY

# Bad input: one line, exit 2, nothing written.
expect_usage_error() {  # WHAT ARGS...
  local what=$1
  shift
  set +e
  "$iobench" report "$@" -o "$tmp/bad.html" 2>"$tmp/bad.err"
  local code=$?
  set -e
  [ "$code" -eq 2 ] || fail "$what: exit $code, not 2: $(cat "$tmp/bad.err")"
  [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] || fail "$what: not one line: $(cat "$tmp/bad.err")"
  [ ! -e "$tmp/bad.html" ] || fail "$what: a page was written"
}
expect_usage_error "a missing file" "$tmp/nope.tsv"
expect_usage_error "an unknown baseline" "$fixtures/runs-ngram.tsv" --baseline nope
expect_usage_error "standard input" -
printf 'test\telapsed\n' >"$tmp/short.tsv"
expect_usage_error "a malformed run file" "$tmp/short.tsv"

# run --report: the page after the medians; one that cannot be written is exit 3, rows kept.
seq 1 2000 >"$tmp/input.txt"
cat >"$tmp/tiny.json" <<'JSON'
{"name": "tiny", "inputs": ["input.txt"],
 "strategies": [{"name": "read", "worker": ["--read", "read", "--write", "buffered"]},
                {"name": "cat", "command": ["cat", "{input}"]},
                {"name": "noisy", "command": "cat {input}; echo oops >&2", "shell": true}],
 "repeats": 2, "warmup": 0, "cache": "none",
 "disturbance": "off"}
JSON
"$iobench" run "$tmp/tiny.json" -o "$tmp/r/ok.tsv" --report "$tmp/r/ok.html" --quiet \
  >/dev/null 2>"$tmp/ok.err" || { code=$?; cat "$tmp/ok.err" >&2; fail "run --report exited $code"; }
grep -q "report in $tmp/r/ok.html" "$tmp/ok.err" || fail "where the report is, not said: $(cat "$tmp/ok.err")"
grep -q '<tr data-test="cat">' "$tmp/r/ok.html" || fail "run --report: cat is not in the page"
grep -q 'iobench run '"$tmp"'/tiny.json' "$tmp/r/ok.html" || fail "run --report: no command to run it again"
# What the run only printed (a worker's stderr) is kept in its record and shown beside its row.
grep -q '<li data-test="noisy"><b>noisy</b>: noisy: wrote to stderr on a run that ended ok: oops</li>' \
  "$tmp/r/ok.html" || fail "run --report: the stderr warning is not beside its row"

# bench --report: the same page after bench's summary, its commands in it.
"$iobench" bench -q --disturbance off -r 2 -w 0 -o "$tmp/r/bench.tsv" --report "$tmp/r/bench.html" \
  'seq 1 500' 'seq 500 | cat' >/dev/null 2>"$tmp/bench.err" ||
  { code=$?; cat "$tmp/bench.err" >&2; fail "bench --report exited $code"; }
grep -q "report in $tmp/r/bench.html" "$tmp/bench.err" || fail "bench --report: where, not said"
grep -q '<tr data-test="seq 500 | cat">' "$tmp/r/bench.html" || fail "bench --report: a command is not in the page"

mkdir "$tmp/a-folder"
set +e
"$iobench" run "$tmp/tiny.json" -o "$tmp/r/three.tsv" --report "$tmp/a-folder" --quiet \
  >/dev/null 2>"$tmp/three.err"
code=$?
set -e
[ "$code" -eq 3 ] || fail "an unwritable report: exit $code, not 3: $(cat "$tmp/three.err")"
grep -q "the report cannot be written: .*every row is kept in $tmp/r/three.tsv" "$tmp/three.err" ||
  fail "exit 3 without saying why: $(cat "$tmp/three.err")"
[ "$(run_awk 1 "$tmp/r/three.tsv" | wc -l)" -eq 6 ] || fail "rows lost: $(cat "$tmp/r/three.tsv")"
[ -s "$tmp/r/medians/three.tsv" ] || fail "the medians were not written before the report"

# --dry-run runs nothing and writes no page.
"$iobench" run "$tmp/tiny.json" --dry-run --report "$tmp/dry.html" >/dev/null || fail "dry run exited $?"
[ ! -e "$tmp/dry.html" ] || fail "a dry run wrote a page"
echo "report_html: ok"
