#!/usr/bin/env bash
# `iobench bench`: two commands over a generated input, -L expansion, the saved config measured
# again by `iobench run` (same cells), a mismatch exits 1, a bad option exits 2 with one line,
# --no-shell runs the command without sh, and both help texts open with examples.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
"$bin" gen lines --size 256KiB --seed 2 -o data/in.txt 2>/dev/null

# Two commands: every run ok, verified against the first, judged against it. (--disturbance off: a
# loaded machine would add re-runs to the 6 rows counted.)
"$bin" bench --input data/in.txt -r 3 -w 0 -q --disturbance off -o two.tsv 'cat {input}' 'tac {input} | tac' \
  >out.txt 2>err.txt || fail "two commands exited $?: $(cat err.txt)"
[ "$(tail -n +2 two.tsv | wc -l)" -eq 6 ] || fail "expected 6 rows: $(cat two.tsv)"
run_awk 'col("status") != "ok" { exit 1 }' two.tsv || fail "a run is not ok: $(col test,status two.tsv)"
[ "$(col test two.tsv | sort -u | tr '\n' '|')" = 'cat {input}|tac {input} | tac|' ] ||
  fail "tests: $(col test two.tsv | sort -u)"
# Quiet by default: one block per command as hyperfine's, then the comparison, then one line.
[ "$(grep -c '^Benchmark [12]: ' out.txt)" -eq 2 ] && head -1 out.txt | grep -qx 'Benchmark 1: cat {input}' ||
  fail "no block per command: $(cat out.txt)"
grep -Eq '^  Time \(median ± 95 % CI\): +[0-9.]+ (ms|µs|s) ± +[0-9.]+ (ms|µs|s)    \[User: [0-9.]+ (ms|µs|s), System: [0-9.]+ (ms|µs|s)\]$' out.txt &&
  grep -Eq '^  Range \(min … max\): +[0-9.]+ (ms|µs|s) … +[0-9.]+ (ms|µs|s)    3 runs$' out.txt ||
  fail "the block's lines: $(cat out.txt)"
grep -q '^Environment: \|^test  *input\|^Shell start-up subtracted' out.txt && fail "tables without --verbose: $(cat out.txt)"
grep -q "^Against the reference 'cat {input}'" out.txt || fail "no summary: $(cat out.txt)"
tail -1 out.txt | grep -q '^Figures: elapsed, shell start-up subtracted (sh -c .* took .*); 6 ok runs; .*--verbose for' ||
  fail "no summary line last: $(tail -2 out.txt)"
grep -Eq "^    tac \{input\} \| tac +(no significant difference \(|too few runs to judge \()?[0-9.]+× (faster|slower)( \[[0-9.]+, [0-9.]+\])?, p" out.txt ||
  fail "no relative speed: $(cat out.txt)"
grep -Eq "p [=<] [01]" out.txt || fail "no p-value: $(cat out.txt)"
[ -f medians/two.tsv ] && [ -f meta/two.json ] || fail "no medians or meta beside the runs file"
# --verbose: the environment and the tables above the blocks; -u every table's unit.
"$bin" bench --input data/in.txt -r 3 -w 0 -q -v -u millisecond --disturbance off -o verbose.tsv \
  'cat {input}' 'tac {input} | tac' >out.txt 2>err.txt || fail "--verbose exited $?: $(cat err.txt)"
head -1 out.txt | grep -Eq '^Environment: CPU .*, cache warm, sink pipe$' || fail "no environment line: $(head -2 out.txt)"
sed -n 2p out.txt | grep -qx "Raw figures (the runs file's; nothing subtracted):" &&
  sed -n 3p out.txt | grep -q '^test  *input  *sink  *n  *elapsed ms  *± MAD  *min  *max  *user ms  *system ms' ||
  fail "no raw medians table in ms under it: $(head -4 out.txt)"
grep -q "^Shell start-up subtracted: sh -c '' took [0-9.]* ms elapsed" out.txt || fail "no corrected table: $(cat out.txt)"
grep -Eq '^  Range \(min … max\): +[0-9.]+ ms … +[0-9.]+ ms    3 runs$' out.txt || fail "-u in the blocks: $(cat out.txt)"
[ "$(grep -c '^Benchmark [12]: ' out.txt)" -eq 2 ] || fail "no blocks under the tables: $(cat out.txt)"

# Exports: hyperfine's JSON and Markdown table (every format: bench_exports.sh).
"$bin" bench --input data/in.txt -r 2 -w 0 -q -o exports.tsv --export-json summary.json \
  --export-markdown summary.md 'cat {input}' 'cat < {input}' >/dev/null 2>err.txt ||
  fail "exports exited $?: $(cat err.txt)"
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' summary.json || fail "summary.json: not JSON"
fi
grep -q 'cat < {input}' summary.json || fail "summary.json lacks a test: $(cat summary.json)"
grep -q '^| Command | Mean \[' summary.md || fail "summary.md: no table: $(cat summary.md)"
grep -qF '| `cat < {input}` |' summary.md || fail "summary.md lacks a test: $(cat summary.md)"

# Commands that do not copy their input are compared with the reference's output, not the input.
"$bin" bench --input data/in.txt -r 1 -w 0 -q -o count.tsv 'grep -c "" {input}' 'wc -l < {input}' \
  >/dev/null 2>err.txt || fail "two counting commands exited $?: $(cat err.txt)"

# -L: one test per combination of values, named by them; every one verified against the first.
"$bin" bench --input data/in.txt -r 1 -w 0 -q -o params.tsv -L bs=512,4096 -L c=a,b \
  'dd if={input} bs={bs} status=none | tr {c} {c}' >/dev/null 2>err.txt ||
  fail "-L exited $?: $(cat err.txt)"
tests=$(col test params.tsv | sort -u | wc -l)
[ "$tests" -eq 4 ] || fail "-L gave $tests tests, expected 4: $(col test params.tsv | sort -u)"
grep -q 'dd if={input} bs=4096 status=none | tr b b' params.tsv || fail "values not in the names"

# --save-config: `iobench run` on the saved file measures the same cells (in a folder that exists:
# bench creates none).
mkdir configs
"$bin" bench --input data/in.txt -r 2 -w 0 -q -o saved.tsv --sink pipe --sink null --disturbance off \
  --save-config configs/saved.json 'cat {input}' 'cat < {input}' >/dev/null 2>err.txt ||
  fail "save run exited $?: $(cat err.txt)"
grep -q 'Made by `iobench bench' configs/saved.json || fail "no description: $(cat configs/saved.json)"
"$bin" run configs/saved.json -o again.tsv -q >/dev/null 2>err.txt || fail "run of saved config: $(cat err.txt)"
cells() { col test,input,sink,repeat "$1" | sort; }
[ "$(cells saved.tsv)" = "$(cells again.tsv)" ] || fail "cells differ: $(diff <(cells saved.tsv) <(cells again.tsv))"

# With --verify on, a command that writes something else: warned, not run again, exit 1.
set +e
"$bin" bench --verify on --input data/in.txt -r 2 -w 0 -q -o mismatch.tsv 'cat {input}' 'head -c 100 {input}' \
  >/dev/null 2>err.txt
code=$?
set -e
[ "$code" -eq 1 ] || fail "mismatch exited $code, expected 1"
grep -q 'MISMATCH' err.txt || fail "no mismatch warning: $(cat err.txt)"
statuses=$(run_awk 'col("test") == "head -c 100 {input}" { print col("status") }' mismatch.tsv)
[ -z "$statuses" ] || [ "$statuses" = mismatch ] || fail "run again after the mismatch: $statuses"
# --no-verify (--verify off, the default) measures the same pair without judging the output.
"$bin" bench --no-verify --input data/in.txt -r 2 -w 0 -q -o noverify.tsv 'cat {input}' \
  'head -c 100 {input}' >/dev/null 2>&1 || fail "--no-verify exited $?"

# Bad options: exit 2, one line on stderr, nothing written.
for args in "--sink disk" "--bogus" "-L nonsense" "--runs 0" "--input data/missing.txt"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" bench --input data/in.txt $args -o bad.tsv 'cat {input}' >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "'$args' exited $code, expected 2"
  [ "$(wc -l <err.txt)" -eq 1 ] || fail "'$args': not one line: $(cat err.txt)"
  [ ! -s out.txt ] && [ ! -e bad.tsv ] || fail "'$args' wrote something"
done
grep -q -- '--input data/missing.txt: not a readable file' err.txt || fail "$(cat err.txt)"
# The disturbance mode's default from the environment: a bad one names the variable, as run's.
set +e
IOBENCH_DISTURBANCE=sometimes "$bin" bench -o bad.tsv true >out.txt 2>err.txt
code=$?
set -e
[ "$code" -eq 2 ] && [ ! -s out.txt ] && [ ! -e bad.tsv ] || fail "bad IOBENCH_DISTURBANCE: exit $code"
[ "$(cat err.txt)" = "iobench: IOBENCH_DISTURBANCE: 'sometimes' is not one of: off, flag, rerun" ] ||
  fail "bad IOBENCH_DISTURBANCE: $(cat err.txt)"
# An error the run finds before any run (here: the runs file exists) saves no config either.
set +e
"$bin" bench --input data/in.txt -o two.tsv --save-config refused.json 'cat {input}' >/dev/null 2>err.txt
code=$?
set -e
[ "$code" -eq 2 ] && [ ! -e refused.json ] || fail "existing -o: exit $code, config saved: $(ls)"
grep -q 'two.tsv: exists' err.txt || fail "$(cat err.txt)"

# --no-shell: the command's parent is the spawner, not sh, and its words are split as sh would.
cat >argv.sh <<'SCRIPT'
#!/bin/sh
{ cat /proc/$PPID/comm; printf '%s|' "$@"; echo; } >>seen.txt
cat "$2"
SCRIPT
chmod +x argv.sh
"$bin" bench --no-shell --input data/in.txt -r 1 -w 0 -q -o noshell.tsv "./argv.sh 'a b' {input}" \
  >/dev/null 2>err.txt || fail "--no-shell exited $?: $(cat err.txt)"
grep -qx 'sh' seen.txt && fail "--no-shell ran the command through sh: $(cat seen.txt)"
grep -qx 'a b|data/in.txt|' seen.txt || fail "argv seen: $(cat seen.txt)"
rm seen.txt
"$bin" bench --input data/in.txt -r 1 -w 0 -q -o shell.tsv "./argv.sh 'a b' {input}" >/dev/null 2>&1
grep -qx 'sh' seen.txt || fail "without --no-shell the parent is not sh: $(cat seen.txt)"

# Help: examples first, then the options.
# (Whole outputs into files: `| head | grep -q` may end the writer by SIGPIPE, which pipefail
# would report.)
"$bin" --help >help.txt
head -3 help.txt | grep -q '^Examples:' || fail "iobench --help does not open with examples"
"$bin" bench --help >help.txt
[ "$(grep -n '^Examples:' help.txt | cut -d: -f1)" -lt "$(grep -n '^Usage:' help.txt | cut -d: -f1)" ] ||
  fail "bench --help: examples not before usage"
[ "$(grep -c '^  iobench bench' help.txt)" -eq 4 ] || fail "bench --help: not four examples"
grep -q 'sh -c' help.txt || fail "bench --help does not say commands run through sh -c"
echo "bench: ok"
