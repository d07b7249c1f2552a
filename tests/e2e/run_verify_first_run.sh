#!/usr/bin/env bash
# With "warmup": 0, copies into a pipe run no verification run: --dry-run has no `verify` line and
# counts them, and the first ok measured run is compared with the input, so a wrong copy's rows
# are all `mismatch` and `run` exits 1 (docs/driver.md, "Verification"). A warmup keeps them.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

seq 1 5000 >"$tmp/in.txt"
config() {
  cat >"$tmp/$1.json" <<JSON
{
  "name": "$1", "inputs": ["$tmp/in.txt"], "repeats": 2, "warmup": $2, "disturbance": "off",
  "strategies": [
    {"name": "copy", "worker": ["--read", "read", "--write", "buffered"]},
    {"name": "short", "command": ["head", "-c", "100", "{input}"]}
  ]
}
JSON
}
config first 0
config warm 1

plan=$("$bin/iobench" run "$tmp/first.json" --dry-run)
grep -q '2 cells verified by their first ok measured run instead' <<<"$plan" ||
  fail "the dry run does not count them: $(head -1 <<<"$plan")"
[ "$(awk -F'\t' '$1 == "verify"' <<<"$plan" | wc -l)" -eq 0 ] || fail "a verify line: $plan"
[ "$(awk -F'\t' '$1 == "verify"' <<<"$("$bin/iobench" run "$tmp/warm.json" --dry-run)" | wc -l)" -eq 2 ] ||
  fail "with a warmup, not one verification run per test"

code=0
"$bin/iobench" run "$tmp/first.json" -o "$tmp/runs.tsv" --quiet >/dev/null 2>"$tmp/err.txt" || code=$?
[ "$code" -eq 1 ] || { cat "$tmp/err.txt" >&2; fail "exit $code, expected 1 (a mismatch)"; }
[ "$(col test,status "$tmp/runs.tsv" | sort | uniq -c | awk '{print $1, $2, $3}' | tr '\n' ';')" = \
  "2 copy ok;2 short mismatch;" ] || fail "statuses: $(col test,status "$tmp/runs.tsv" | tr '\n' ';')"
grep -q 'short on .*MISMATCH.*the input' "$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "no mismatch warning"; }
echo "run_verify_first_run: ok"
