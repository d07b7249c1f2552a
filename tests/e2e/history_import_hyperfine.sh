#!/usr/bin/env bash
# End to end: hyperfine's own --export-json, written here by Debian's hyperfine, into the history
# (docs/history.md, "Other harnesses"): two commands over three commits, the second made slower in
# the third (sleep 0.02 -> 0.03): check flags it (exit 1) and not the steady one; a file of no
# known format is refused (exit 2, naming the formats, nothing stored); the export as hyperfine
# JSON gives back each command's times.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v hyperfine >/dev/null || skip "hyperfine is not installed (apt-get install hyperfine)"
command -v python3 >/dev/null || skip "python3 is needed to read JSON"
iobench=$bin/iobench
store=$tmp/history.sqlite
source "$src/tests/e2e/history_import_lib.bash"

measure() {  # COMMIT SECONDS_OF_WORK
  hyperfine -N -r 10 -w 1 --style none --export-json "$tmp/$1.json" \
    -n steady 'sleep 0.02' -n work "sleep $2" >/dev/null 2>&1 ||
    fail "hyperfine failed for $1"
  "$iobench" history add --history="$store" --commit "$1" --branch main "$tmp/$1.json" \
    2>"$tmp/add-$1.err" || fail "history add $1: $(cat "$tmp/add-$1.err")"
}
measure c1 0.02
measure c2 0.02
grep -q "added $tmp/c1.json to .*: 20 rows, 2 new series (commit c1, branch main)" \
  "$tmp/add-c1.err" || fail "add said: $(cat "$tmp/add-c1.err")"
measure c3 0.03

# The change is +50 %; a loaded machine moves sleep 0.02 by several per cent, so the minimum effect
# is 25 % (the default 5 % is for a quiet machine). Two earlier sessions say nothing of how far
# sessions drift: the spread is stated (docs/history.md, "Sessions"), 5 %, so that one session's
# interval can rule out the 25 % (at 10 % it reaches [0.80, 1.26]: underpowered, not judged).
expect_one_slower "$store" '^regression .* work \(hyperfine real_time\): real_time [0-9.]+ ms -> [0-9.]+ ms' \
  ' steady (hyperfine real_time)' '2 series: 1 regression, 1 (steady|faster); exit 1' --min-effect 25 \
  --session-spread 5
grep -q 'change in c2..c3' "$tmp/check.out" || fail "no commit range: $(cat "$tmp/check.out")"

# Not a format history add knows: refused, naming them, and nothing stored.
echo '{"results": 3}' >"$tmp/other.json"
before=$(sha256sum "$store")
set +e
"$iobench" history add --history="$store" "$tmp/other.json" 2>"$tmp/other.err"
status=$?
set -e
[ "$status" -eq 2 ] || fail "an unknown file exited $status, not 2"
grep -q "other.json: neither an iobench run file nor a file of hyperfine, gbench, pytest-benchmark, bmf" \
  "$tmp/other.err" || fail "refusal said: $(cat "$tmp/other.err")"
[ "$(sha256sum "$store")" = "$before" ] || fail "a refused add changed the store"
# --format is obeyed, not second-guessed: hyperfine's file read as Google Benchmark's is refused,
# naming what it lacks; an unknown --format names the formats.
set +e
"$iobench" history add --history="$store" --format gbench "$tmp/c1.json" 2>"$tmp/forced.err"
status=$?
"$iobench" history add --history="$store" --format junit "$tmp/c1.json" 2>"$tmp/unknown.err"
unknown=$?
set -e
[ "$status" -eq 2 ] && grep -q "c1.json: the file: no object 'context'" "$tmp/forced.err" ||
  fail "--format gbench on hyperfine's file: exit $status, $(cat "$tmp/forced.err")"
[ "$unknown" -eq 2 ] && grep -q "history add --format junit: not a format history add reads (hyperfine, gbench" \
  "$tmp/unknown.err" || fail "--format junit: exit $unknown, $(cat "$tmp/unknown.err")"
[ "$(sha256sum "$store")" = "$before" ] || fail "a refused add changed the store"

# hyperfine JSON back out: each command's times, in order, as hyperfine wrote them.
"$iobench" history export --history="$store" --format hyperfine --commit c3 -o "$tmp/back.json"
python3 - "$tmp/c3.json" "$tmp/back.json" <<'PY' || fail "the exported times differ"
import json, sys
given = {r["command"]: r["times"] for r in json.load(open(sys.argv[1]))["results"]}
back = {r["command"]: r["times"] for r in json.load(open(sys.argv[2]))["results"]}
assert given == back, (given, back)
PY
echo "history_import_hyperfine: ok"
