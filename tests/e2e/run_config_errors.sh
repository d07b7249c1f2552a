#!/usr/bin/env bash
# Config and usage errors: exit 2, one line naming the file and the place, nothing written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
echo data >"$tmp/in.txt"

expect_error() {  # NAME PATTERN CONFIG-TEXT [extra args]
  local name=$1 pattern=$2 text=$3
  shift 3
  printf '%s\n' "$text" >"$tmp/$name.json"
  set +e
  "$bin/iobench" run "$tmp/$name.json" -o "$tmp/out/$name.tsv" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local code=$?
  set -e
  [ "$code" -eq 2 ] || fail "$name: exit $code, expected 2 ($(cat "$tmp/stderr"))"
  [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "$name: not one line: $(cat "$tmp/stderr")"
  grep -qE -- "$pattern" "$tmp/stderr" || fail "$name: '$(cat "$tmp/stderr")' lacks /$pattern/"
  [ ! -e "$tmp/out" ] || fail "$name: something was written"
}

good='"name": "x", "inputs": ["in.txt"]'
expect_error syntax "syntax.json:3:1: invalid JSON" $'{\n  "name": "x",\n}'
expect_error unknown_key "strategies\[0\].argv: unknown key" "{ $good, \"strategies\": [{\"name\": \"a\", \"argv\": [\"cat\"]}] }"
expect_error bad_reader "--read 'nosuch' is not a worker reader \(known: .*getline" \
  "{ $good, \"strategies\": [{\"name\": \"a\", \"worker\": [\"--read\", \"nosuch\", \"--write\", \"raw\"]}] }"
expect_error bad_writer "--write 'nope' is not a worker writer" \
  "{ $good, \"strategies\": [{\"name\": \"a\", \"worker\": [\"--read\", \"read\", \"--write\", \"nope\"]}] }"
expect_error missing_input "inputs\[0\]: .*nothing.txt does not exist" \
  '{ "name": "x", "inputs": ["nothing.txt"], "strategies": [{"name": "a", "command": ["cat"]}] }'
mkdir -p "$tmp/afolder"  # found before the runs, not by each run failing to read it
expect_error folder_input "inputs\[0\]: .*afolder is a folder; an input is one file" \
  '{ "name": "x", "inputs": ["afolder"], "strategies": [{"name": "a", "command": ["cat"]}] }'
expect_error folder_generated "inputs\[0\].generate.kind: 'edge' writes a folder" \
  '{ "name": "x", "inputs": [{"path": "corpus", "generate": {"kind": "edge"}}], "strategies": [{"name": "a", "command": ["cat"]}] }'
[ ! -e "$tmp/corpus" ] || fail "folder_generated: the corpus was made"
expect_error bad_size "inputs\[0\].generate.size: size '1XB'" \
  '{ "name": "x", "inputs": [{"path": "g.txt", "generate": {"kind": "ngram", "size": "1XB"}}], "strategies": [{"name": "a", "command": ["cat"]}] }'
expect_error bad_baseline "baseline: 'zzz' is not the name of any test" \
  "{ $good, \"strategies\": [{\"name\": \"a\", \"command\": [\"cat\"]}], \"baseline\": \"zzz\" }"
expect_error bad_filter "--filter '\(' : not a valid regular expression|--filter '\(': not a valid" \
  "{ $good, \"strategies\": [{\"name\": \"a\", \"command\": [\"cat\"]}] }" --filter '('
expect_error bad_shard "--shard '3/2'" "{ $good, \"strategies\": [{\"name\": \"a\", \"command\": [\"cat\"]}] }" --shard 3/2
set +e
"$bin/iobench" run "$tmp/no-such-config.json" 2>"$tmp/stderr"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q "no-such-config.json: cannot read: No such file or directory" "$tmp/stderr" || fail "missing config: $code $(cat "$tmp/stderr")"

# Usage errors (CLI11's) are one line too, exit 2.
for args in "run --bogus x.json" "" "run" "nosuchcommand"; do
  set +e
  # shellcheck disable=SC2086  # the words are separate arguments on purpose
  "$bin/iobench" $args >"$tmp/stdout" 2>"$tmp/stderr"
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "'iobench $args': exit $code"
  [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "'iobench $args': not one line: $(cat "$tmp/stderr")"
done

# An existing results file is never overwritten.
printf '%s\n' "{ $good, \"strategies\": [{\"name\": \"a\", \"command\": [\"cat\", \"{input}\"]}], \"repeats\": 1 }" >"$tmp/ok.json"
echo precious >"$tmp/existing.tsv"
set +e
"$bin/iobench" run "$tmp/ok.json" -o "$tmp/existing.tsv" --quiet 2>"$tmp/stderr"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q "never overwritten" "$tmp/stderr" || fail "overwrite: $code $(cat "$tmp/stderr")"
[ "$(cat "$tmp/existing.tsv")" = precious ] || fail "the existing file changed"

# A results folder that cannot be made is an error before the first run.
set +e
"$bin/iobench" run "$tmp/ok.json" -o "$tmp/existing.tsv/sub/runs.tsv" --quiet 2>"$tmp/stderr"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q "cannot create results folder" "$tmp/stderr" || fail "unwritable folder: $code $(cat "$tmp/stderr")"

# --dry-run prints the plan and writes nothing.
"$bin/iobench" run "$tmp/ok.json" --dry-run -o "$tmp/dry/runs.tsv" >"$tmp/plan.txt"
grep -q $'^measure\ta\t' "$tmp/plan.txt" || fail "dry run plan: $(cat "$tmp/plan.txt")"
[ ! -e "$tmp/dry" ] || fail "dry run wrote something"
echo "run_config_errors: ok"
