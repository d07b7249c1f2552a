#!/usr/bin/env bash
# bench's gate (docs/bench.md, "A gate"), on a machine with a steady busy loop the test starts
# itself and stops by pid, as a shared runner has: `--fail-if-slower PCT` exits 1 for a command
# decided slower than the reference by more than PCT, 0 when the runs rule that out, 4 when they
# can do neither (or there is nothing to compare), and 2 for a PCT that is no percentage, before
# anything runs. --gate-format writes the verdict as history check writes its own.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
bash -c 'while :; do :; done' &
busy=$!
on_exit "kill $busy"

gate() {  # EXPECTED_EXIT NAME ARGS...: runs bench, fails unless it exits EXPECTED_EXIT
  local expected=$1 name=$2 status=0
  shift 2
  "$bin" bench -q -w 1 --export-json "$name.json" "$@" >"$name.out" 2>"$name.err" || status=$?
  [ "$status" -eq "$expected" ] ||
    fail "$name: exit $status, not $expected: $(cat "$name.out" "$name.err")"
}

# 1.5 times slower in sleep, less once each run's start is added (1.39× in CI's sanitizer pass):
# red at 10 %, decided by the rule on round pairs.
gate 1 slower --fail-if-slower 10 'sleep 0.02' 'sleep 0.03'
grep -Eq "^iobench: 'sleep 0.03' \(pipe sink\) is 1\.[2-5][0-9]?× slower \[[0-9.]+, [0-9.]+\] against 'sleep 0.02', more than the 10 % --fail-if-slower allows \(decided: different after [0-9]+ runs, sequential rule on round pairs\)$" slower.err ||
  fail "no gate line: $(cat slower.err)"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' slower.json ||
  fail "the red gate left no export"
# The same pair at 80 %: the interval rules out a slowdown beyond it. --gate-format github: the
# verdict as workflow commands on stdout, as history check writes them.
gate 0 allowed --fail-if-slower 80 --style none --gate-format github 'sleep 0.02' 'sleep 0.03'
grep -q "fail-if-slower" allowed.err && fail "a passed gate spoke: $(cat allowed.err)"
[ "$(wc -l <allowed.out)" -eq 2 ] &&
  grep -Eq "^::notice title=passed%3A 'sleep 0.03' \(pipe sink\)::'sleep 0.03' \(pipe sink\) is 1\.[0-9]+× slower \[[0-9.]+, [0-9.]+\] against 'sleep 0.02', within the 80 %25 --fail-if-slower allows \(" allowed.out &&
  grep -qx "::notice title=iobench bench --fail-if-slower 80::1 command against 'sleep 0.02': 1 passed; exit 0: every command judged, none slower" allowed.out ||
  fail "--gate-format github: $(cat allowed.out)"
# An identical pair passes at 10 %.
gate 0 same --fail-if-slower 10 'sleep 0.02' 'sleep 0.02 '
# Three runs a side have no 95 % interval: nothing is shown or ruled out.
gate 4 few --fail-if-slower 10 -r 3 --style none --gate-format json 'sleep 0.02' 'sleep 0.02 '
grep -q "cannot rule out a slowdown of more than 10 %: .*too few runs for an interval (Mann-Whitney U" few.err ||
  fail "no line for the comparison not judged: $(cat few.err)"
python3 - few.out <<'PY' || fail "--gate-format json: $(cat few.out)"
import json, sys
gate = json.load(open(sys.argv[1]))
assert gate["exit_status"] == 4 and gate["reason"] == "1 not judged", gate
assert gate["reference"] == "sleep 0.02" and gate["fail_if_slower_pct"] == 10, gate
[command] = gate["commands"]
assert command["verdict"] == "not judged" and command["interval"] is None, command
assert command["line"].startswith("'sleep 0.02 ' (pipe sink) against 'sleep 0.02': cannot rule out"), command
PY
# --gate-format is the gate's: without --fail-if-slower it is a usage error.
one_line_exit_2 "--gate-format alone" "$bin" bench --gate-format json true

# A gate's runs fill 15 s, not hyperfine's 3 s, unless -r, -m or -M count them; the rule's
# equivalence margin is the gate's PCT unless --decide-margin says otherwise.
"$bin" bench --dry-run --fail-if-slower 2 true 'true ' >plan.txt 2>&1 || fail "dry run: $(cat plan.txt)"
grep -q "as many as fill 15 s" plan.txt || fail "the gate's plan: $(head -1 plan.txt)"
"$bin" bench --dry-run --fail-if-slower 2 -M 50 true 'true ' >plan.txt 2>&1 || fail "dry run: $(cat plan.txt)"
grep -q "as many as fill 3 s" plan.txt || fail "-M kept the gate's fill: $(head -1 plan.txt)"
"$bin" bench -q --fail-if-slower 7 --save-config gate.json -o gate.tsv --dry-run true 'true ' >/dev/null 2>&1 ||
  fail "the gate's config was not saved"
grep -q '"decide_margin_pct": 7' gate.json || fail "the margin is not the gate's 7 %: $(grep margin gate.json)"

# One command: nothing to judge, which is no green gate.
gate 4 alone --fail-if-slower 10 -r 3 'sleep 0.02'
grep -q "no command to judge against 'sleep 0.02'" alone.err || fail "one command: $(cat alone.err)"

for bad in -3 abc; do
  status=0
  "$bin" bench -q -o "bad$bad.tsv" --fail-if-slower "$bad" true 'true ' 2>bad.err || status=$?
  [ "$status" -eq 2 ] || fail "--fail-if-slower $bad: exit $status: $(cat bad.err)"
  [ "$(wc -l <bad.err)" -eq 1 ] || fail "--fail-if-slower $bad: not one line: $(cat bad.err)"
  [ -e "bad$bad.tsv" ] && fail "--fail-if-slower $bad wrote its runs file"
done
echo "bench_fail_if_slower: ok"
