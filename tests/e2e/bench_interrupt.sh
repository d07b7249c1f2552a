#!/usr/bin/env bash
# Ctrl-C on bench (issue 49): the figures of the runs that finished are printed and exported, and
# both say the result is partial ("PARTIAL: ..." first on the summary line, "partial": true in
# the JSON); exit 130. A bench that ran to its end says nothing of the kind.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 reads the exports"
cd "$tmp"
driver=""
on_exit '[ -z "$driver" ] || kill "$driver" 2>/dev/null'
# -r 40 of two commands: the fourth row is written long before the 80th.
"$bin/iobench" bench -r 40 -w 0 --export-json partial.json -o runs.tsv 'sleep 0.05' 'sleep 0.06' \
  >out.txt 2>err.txt &
driver=$!
four_rows() { [ "$(tail -n +2 runs.tsv 2>/dev/null | wc -l)" -ge 4 ]; }
wait_until 30 "four rows of the 80" four_rows
kill -INT "$driver"
set +e
wait "$driver"
code=$?
set -e
driver=""
[ "$code" -eq 130 ] || fail "exit $code after SIGINT, not 130: $(cat err.txt)"
grep -q "^PARTIAL: the runs stopped before the plan's end (every finished run kept); Figures: " out.txt ||
  fail "the summary line does not say the result is partial: $(cat out.txt)"
python3 - partial.json <<'PY' || fail "the JSON does not say it is partial: $(cat partial.json)"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["iobench"]["partial"] is True, doc["iobench"]
assert 0 < len(doc["results"][0]["times"]) < 40, doc["results"][0]["times"]
PY

"$bin/iobench" bench -r 2 -w 0 --export-json whole.json -o whole.tsv 'sleep 0.01' >out.txt 2>err.txt ||
  fail "a whole bench failed: $(cat err.txt)"
! grep -q PARTIAL out.txt || fail "a bench that ran to its end is called partial: $(cat out.txt)"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["iobench"]["partial"] is False' whole.json ||
  fail "the JSON of a whole bench is not partial: false: $(cat whole.json)"
echo "bench_interrupt: a partial result is said to be one"
