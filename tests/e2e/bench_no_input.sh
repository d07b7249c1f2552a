#!/usr/bin/env bash
# `iobench bench` as a hyperfine user types it: commands that read no file run with stdin from
# /dev/null, no cache step and an empty input column, verified against the first command's output;
# --stdin FILE feeds a file to every run, from its start each time.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"

"$bin" bench -r 2 -w 0 -q -v --disturbance off -o none.tsv 'sleep 0.01' 'sleep 0.02' >out.txt 2>err.txt ||
  fail "two sleeps exited $?: $(cat err.txt)"
[ "$(tail -n +2 none.tsv | wc -l)" -eq 4 ] || fail "expected 4 rows: $(cat none.tsv)"
run_awk 'col("status") != "ok" || col("input") != "" || col("cache_pct") != "" { bad = 1 } END { exit bad }' \
  none.tsv || fail "rows: $(col test,input,status,cache_pct none.tsv)"
# The first line says under what conditions the runs ran (docs/bench.md).
head -1 out.txt | grep -Eq '^Environment: CPU .* \([0-9]+ online\), .*load [0-9.]+, busy CPUs [0-9.]+, cache none \(no input\), sink pipe$' ||
  fail "no environment line first: $(head -3 out.txt)"
# No empty input in any line: "Benchmark 1: sleep 0.01", "'sleep 0.02' (pipe sink) against ...".
grep -E ' on  \(|for , |^  , |\(, ' out.txt err.txt && fail "an empty input is named: $(cat out.txt err.txt)"
grep -qx 'Benchmark 1: sleep 0.01' out.txt || fail "the block names an input: $(cat out.txt)"
grep -q '"cache": "none"' meta/none.json || fail "the config ran has a cache step: $(cat meta/none.json)"
grep -q '"inputs"' meta/none.json && fail "the config ran names an input"

# --sort sorts the blocks it names (docs/bench.md, "Output"): mean-time fastest first; auto and
# command in the order given.
for sort in mean-time auto command; do
  "$bin" bench -r 2 -w 0 -q --disturbance off --sort "$sort" -o "sort-$sort.tsv" 'sleep 0.03' 'sleep 0.01' \
    >out.txt 2>err.txt || fail "--sort $sort exited $?: $(cat err.txt)"
  order=$(grep '^Benchmark ' out.txt | cut -d' ' -f3- | tr '\n' ';')
  want='sleep 0.03;sleep 0.01;'
  [ "$sort" = mean-time ] && want='sleep 0.01;sleep 0.03;'
  [ "$order" = "$want" ] || fail "--sort $sort: blocks $order: $(cat out.txt)"
done

# Their stdin is /dev/null: both count 0 bytes, so both write "0\n" and are verified equal.
"$bin" bench -r 1 -w 0 -q --disturbance off -o devnull.tsv 'wc -c' 'cat | wc -c' >/dev/null 2>err.txt ||
  fail "wc -c of stdin exited $?: $(cat err.txt)"
[ "$(col bytes_out devnull.tsv | sort -u)" = 2 ] || fail "not '0\\n' each: $(col test,bytes_out devnull.tsv)"

# With --verify on, verified against the reference's output as with an input: another answer is a
# mismatch, not run again, exit 1. By default both are timed, the difference said in one line.
set +e
"$bin" bench -r 1 -w 0 -q --disturbance off --verify on -o differ.tsv 'echo a' 'echo b' >/dev/null 2>err.txt
code=$?
set -e
[ "$code" -eq 1 ] || fail "echo a against echo b exited $code, expected 1"
grep -q "echo b: MISMATCH" err.txt || fail "no mismatch said: $(cat err.txt)"
# Its one run's row stays, marked, and it is not run again.
[ "$(run_awk 'col("test") == "echo b" { print col("status") }' differ.tsv)" = mismatch ] ||
  fail "echo b ran again, or lost its row: $(col test,status differ.tsv)"
"$bin" bench -r 1 -w 0 -q --disturbance off -o timed.tsv 'echo a' 'echo b' >/dev/null 2>err.txt ||
  fail "echo a against echo b without --verify on exited $?"
[ "$(col status timed.tsv | sort -u)" = ok ] || fail "not both timed: $(col test,status timed.tsv)"
grep -q "outputs differ" err.txt || fail "the difference is not said: $(cat err.txt)"

# --stdin: every run (verification, warmup, measured) reads the whole file from its start.
printf 'abc\ndef\n' >feed.txt
"$bin" bench --stdin feed.txt -r 3 -w 1 -q --disturbance off -o fed.tsv 'cat' 'tac | tac' >/dev/null 2>err.txt ||
  fail "--stdin exited $?: $(cat err.txt)"
[ "$(col bytes_out fed.tsv | sort -u)" = 8 ] || fail "a run did not read 8 bytes: $(col test,bytes_out fed.tsv)"
[ "$(col output_hash fed.tsv | sort -u | wc -l)" -eq 1 ] || fail "outputs differ: $(col test,output_hash fed.tsv)"
grep -q '"stdin": "feed.txt"' meta/fed.json || fail "no stdin in the config ran: $(cat meta/fed.json)"

# Mistakes: exit 2, one line saying what is wrong, nothing written.
mistakes=("--stdin missing.txt cat" "cat {input}" "--cache cold cat")
messages=("--stdin missing.txt: cannot be read" "no --input is given" "--cache cold: prepares the --input files")
for i in "${!mistakes[@]}"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" bench -o bad.tsv ${mistakes[i]} >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "'${mistakes[i]}' exited $code, expected 2"
  [ "$(wc -l <err.txt)" -eq 1 ] || fail "'${mistakes[i]}': not one line: $(cat err.txt)"
  grep -qF -- "${messages[i]}" err.txt || fail "'${mistakes[i]}': $(cat err.txt)"
  [ ! -s out.txt ] && [ ! -e bad.tsv ] || fail "'${mistakes[i]}' wrote something"
done

# --help says how iobench's --input differs from hyperfine's (which is --stdin here).
"$bin" bench --help >help.txt
grep -q "Not hyperfine's --input: that is --stdin here" help.txt || fail "--help: $(grep -A3 -- --input help.txt)"
grep -q "(hyperfine's --input)" help.txt || fail "--help does not relate --stdin to hyperfine"
echo "bench_no_input: ok"
