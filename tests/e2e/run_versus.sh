#!/usr/bin/env bash
# `run --versus DIR` (docs/driver.md, "Two builds"): a config's tests measured with a base build
# and a candidate build in one session, beside a steady busy loop the test starts and stops by pid,
# as a shared runner has: every test twice (NAME@base beside NAME), each candidate judged against
# its own twin, and `--fail-if-slower PCT` gating on those comparisons: 1 for a candidate decided
# slower by more than PCT, 0 for one the runs rule that out, 4 for neither; 1 for a candidate whose
# output differs from its base build's. What cannot be measured as two builds is exit 2, nothing
# written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)
cd "$tmp"
bash -c 'while :; do :; done' &
busy=$!
on_exit "kill $busy"

build() {  # DIR SLEEP_S [EXTRA]: a build folder: its worker, and a tool that sleeps, then copies
  mkdir -p "$1"
  cp "$bin/iobench-worker" "$1/"
  printf '#!/bin/sh\nsleep %s\ncat "$1"\n%s\n' "$2" "${3:-}" >"$1/tool"
  chmod +x "$1/tool"
}
build base 0.02
build same 0.02
build slow 0.03
build wrong 0.02 'echo one more line'
seq 1 20000 >in.txt
cat >c.json <<'JSON'
{"name": "vs", "inputs": ["in.txt"],
 "strategies": [{"name": "tool", "command": ["{build}/tool", "{input}"]},
                {"name": "copy", "worker": ["--read", "read", "--write", "buffered"]}],
 "repeats": 100, "warmup": 0}
JSON

versus() {  # EXPECTED_EXIT NAME ARGS...: run; fails unless it exits EXPECTED_EXIT
  local expected=$1 name=$2 status=0
  shift 2
  "$bin/iobench" run -q c.json -o "$name.tsv" "$@" >"$name.out" 2>"$name.err" || status=$?
  [ "$status" -eq "$expected" ] ||
    fail "$name: exit $status, not $expected: $(cat "$name.out" "$name.err")"
}

# The plan: each test's base twin beside it in every round, made with the base build.
"$bin/iobench" run c.json --build slow --versus base --dry-run >plan.txt 2>&1 ||
  fail "dry run: $(cat plan.txt)"
grep -qP "^measure\ttool@base\tin.txt\tpipe\t1\t$tmp/base/tool in.txt$" plan.txt &&
  grep -qP "^measure\tcopy\tin.txt\tpipe\t1\t$tmp/slow/iobench-worker --read read" plan.txt ||
  fail "the twins' argv: $(cat plan.txt)"
awk -F'\t' '$1 == "measure" { n++; t = $2; sub(/@base$/, "", t); if (n % 2) first = t; else if (t != first) exit 1 }' plan.txt ||
  fail "a run is not beside its twin: $(cat plan.txt)"

# 1.5 times slower in sleep: red at 10 %, against its own twin, the worker (the same binary) not.
versus 1 slower --build slow --versus base --fail-if-slower 10
grep -Eq "^iobench: 'tool' on in.txt \(pipe sink\) is 1\.[2-5][0-9]?× slower \[[0-9.]+, [0-9.]+\] against 'base build', more than the 10 % --fail-if-slower allows \(decided: different after [0-9]+ runs, sequential rule on round pairs\)$" slower.err ||
  fail "no gate line: $(cat slower.err)"
grep -q "'copy' on in.txt (pipe sink).*more than the 10 %" slower.err &&
  fail "the unchanged worker was called slower: $(cat slower.err)"
grep -q "^Against the base build (median over its twin's, NAME@base" slower.out &&
  grep -Eq "^    tool  [0-9.]+ ms from [0-9.]+ ms: 1\.[2-5][0-9]?× slower \[" slower.out ||
  fail "no comparison block: $(cat slower.out)"
cut -f1 slower.tsv | sort -u | tr '\n' ' ' | grep -qx "copy copy@base test tool tool@base " ||
  fail "the run file's tests: $(cut -f1 slower.tsv | sort -u)"

# The same build twice passes at 15 %; --gate-format json says so on stdout.
versus 0 same --build same --versus base --fail-if-slower 15 --gate-format json
python3 - same.out <<'PY' || fail "--gate-format json: $(cat same.out)"
import json, sys
text = open(sys.argv[1]).read()
gate = json.loads(text[text.index('\n{') + 1:])
assert gate["exit_status"] == 0 and gate["reference"] == "base build", gate
assert gate["summary"] == "2 tests against 'base build': 2 passed", gate
assert sorted(c["command"] for c in gate["commands"]) == [
    "'copy' on in.txt (pipe sink)", "'tool' on in.txt (pipe sink)"], gate
PY

# Three runs a side have no interval: nothing is shown or ruled out.
versus 4 few --build same --versus base --fail-if-slower 10 --repeats 3
grep -q "cannot rule out a slowdown of more than 10 %: .*; more runs would tell (--repeats)" few.err ||
  fail "no line for a comparison not judged: $(cat few.err)"

# A candidate whose output is not its base build's: its rows mismatch, exit 1.
versus 1 wrong --build wrong --versus base --repeats 3
grep -q "mismatch" wrong.tsv || fail "no mismatch row: $(cut -f1,6 wrong.tsv)"

# What cannot be measured as two builds: one line, exit 2, nothing written.
mkdir refused empty
cd refused
refused() {  # WHAT ARGS...: run of ../c.json refused
  local what=$1
  shift
  one_line_exit_2 "$what" "$bin/iobench" run ../c.json -o x.tsv "$@"
}
refused "{build} without --build"
refused "--versus with --shard" --build ../same --versus ../base --shard 1/2
refused "--versus with --history" --build ../same --versus ../base --history=h.sqlite
refused "--gate-format alone" --build ../same --gate-format json
refused "a base build without a worker" --build ../same --versus ../empty
[ -z "$(ls -A)" ] || fail "a refused run wrote: $(ls -A)"
