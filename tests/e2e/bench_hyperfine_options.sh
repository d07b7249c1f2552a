#!/usr/bin/env bash
# `iobench bench` with hyperfine's options, each with a command whose effect shows: --prepare
# writes a marker the command checks, --setup and --cleanup once per command, -P values, -i with a
# failing command, --show-output, -S, -m/-M, -u, --sort, --style none; then a bad value of each,
# and the hyperfine options bench refuses: exit 2, one line, nothing written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
# --disturbance off: these checks count rows and statuses, and a loaded machine re-runs disturbed runs.
bench() { "$bin" bench -q --disturbance off "$@"; }

# --prepare runs before every run (verification and warmup too): the command needs its marker.
bench -r 3 -w 1 -o prepare.tsv --prepare 'echo ready > marker' \
  'test -f marker && rm marker' 'test -f marker && rm marker && true' >/dev/null 2>err.txt ||
  fail "--prepare exited $?: $(cat err.txt)"
[ "$(col status prepare.tsv | sort -u)" = ok ] || fail "a run found no marker: $(col test,status prepare.tsv)"
# Without it the same command fails: the check above can fail.
set +e
bench -r 1 -w 0 -o unprepared.tsv 'test -f marker && rm marker' >/dev/null 2>&1
code=$?
set -e
[ "$code" -eq 1 ] || fail "without --prepare the marker command exited $code, expected 1"

# With --cache cold, --prepare runs after the eviction: a prepare that reads the input leaves it
# resident, as the rows' cache_pct (measured just before each run) shows. Only where the file
# system lets its pages be evicted (not tmpfs) can the order show.
head -c 2000000 /dev/urandom >cold.bin
bench -r 2 -w 0 -o cold.tsv --input cold.bin --cache cold 'cat {input}' >/dev/null 2>&1 ||
  fail "--cache cold exited $?"
if [ "$(col cache_pct cold.tsv | sort -u)" = 0.0 ]; then
  bench -r 2 -w 0 -o warmed.tsv --input cold.bin --cache cold --prepare 'cat cold.bin >/dev/null' \
    'cat {input}' >/dev/null 2>err.txt || fail "--cache cold --prepare exited $?: $(cat err.txt)"
  [ "$(col cache_pct warmed.tsv | sort -u)" = 100.0 ] ||
    fail "--prepare ran before the eviction: cache_pct $(col cache_pct warmed.tsv)"
else
  echo "note: this file system keeps cold.bin's pages; the order of eviction and --prepare is not shown"
fi

# --setup before a command's first run and --cleanup after its last, once each per -P value.
bench -r 3 -w 1 -o hooks.tsv -P n 1 2 --setup 'echo s{n} >> log' --cleanup 'echo c{n} >> log' \
  'echo r{n} >> log' >/dev/null 2>err.txt || fail "--setup/--cleanup exited $?: $(cat err.txt)"
for n in 1 2; do
  [ "$(grep -c "^s$n\$" log)" -eq 1 ] && [ "$(grep -c "^c$n\$" log)" -eq 1 ] ||
    fail "setup or cleanup of $n not once: $(cat log)"
  [ "$(grep -c "^r$n\$" log)" -eq 4 ] || fail "r$n did not run 4 times (verify standing in for the warmup, 3): $(cat log)"
  first_run=$(grep -n "^r$n\$" log | head -1 | cut -d: -f1)
  last_run=$(grep -n "^r$n\$" log | tail -1 | cut -d: -f1)
  [ "$(grep -n "^s$n\$" log | cut -d: -f1)" -lt "$first_run" ] || fail "s$n after a run: $(cat log)"
  [ "$(grep -n "^c$n\$" log | cut -d: -f1)" -gt "$last_run" ] || fail "c$n before a run: $(cat log)"
done

# -P VAR MIN MAX [-D DELTA]: one test per value, named by it, as hyperfine steps them.
bench -r 1 -w 0 -o scan.tsv -P d 1 2 -D 0.25 'test {d}' >/dev/null 2>err.txt ||
  fail "-P exited $?: $(cat err.txt)"
[ "$(col test scan.tsv | sort | tr '\n' ' ')" = 'test 1 test 1.25 test 1.50 test 1.75 test 2.00 ' ] ||
  fail "-P values: $(col test scan.tsv)"

# -L NAME V1,V2 (hyperfine's two words) between commands: the words after it are still commands,
# in their order; NAME=V1,V2 beside it.
bench -r 1 -w 0 -o twoword.tsv 'echo {n}' -L n 1,2 'echo {n}{n}' -L m=x 'echo {m}' >/dev/null 2>err.txt ||
  fail "-L n 1,2 exited $?: $(cat err.txt)"
[ "$(col test twoword.tsv | sort -u | tr '\n' ' ')" = 'echo 1 echo 11 echo 2 echo 22 echo x ' ] ||
  fail "-L n 1,2: $(col test twoword.tsv)"

# --history keeps only verified rows in its statistics, so it turns verification on.
set +e
bench -r 1 -w 0 -o history.tsv --history="$tmp/history.sqlite" 'echo a' 'echo b' >/dev/null 2>err.txt
code=$?
set -e
[ "$code" -eq 1 ] && grep -q 'echo b: MISMATCH' err.txt || fail "--history did not verify: exit $code, $(cat err.txt)"

# -i: a non-zero exit counts as ok, its code kept; without -i the run failed (exit 1).
bench -r 2 -w 0 -o ignored.tsv -i 'exit 3' >/dev/null 2>err.txt || fail "-i exited $?: $(cat err.txt)"
[ "$(col status,exit_code ignored.tsv | sort -u)" = "$(printf 'ok\t3')" ] ||
  fail "-i rows: $(col status,exit_code ignored.tsv)"
set +e
bench -r 1 -w 0 -o failing.tsv 'exit 3' >/dev/null 2>&1
code=$?
set -e
[ "$code" -eq 1 ] && [ "$(col status failing.tsv)" = failed ] || fail "without -i: exit $code"

# --show-output: the runs print to bench's stdout and stderr (warmup and measured, not the
# verification run, which goes into a hashing pipe); without it nothing of theirs is seen.
bench -r 2 -w 1 -o shown.tsv --show-output 'echo seen-out; echo seen-err >&2' >out.txt 2>err.txt ||
  fail "--show-output exited $?: $(cat err.txt)"
[ "$(grep -c '^seen-out$' out.txt)" -eq 3 ] || fail "stdout: $(cat out.txt)"
[ "$(grep -c '^seen-err$' err.txt)" -eq 3 ] || fail "stderr: $(cat err.txt)"
[ "$(col sink shown.tsv | sort -u)" = inherit ] || fail "sink: $(col sink shown.tsv)"
bench -r 2 -w 1 -o hidden.tsv 'echo seen-out; echo seen-err >&2' >out.txt 2>err.txt ||
  fail "the same without --show-output exited $?: $(cat err.txt)"
grep -q '^seen-out$' out.txt && fail "the output shows without --show-output"

# -S: the shell the commands run in; -N runs them without one.
bench -r 1 -w 0 -o bash.tsv -S 'bash --norc' 'test -n "$BASH_VERSION"' >/dev/null 2>err.txt ||
  fail "-S bash exited $?: $(cat err.txt)"
set +e
bench -r 1 -w 0 -o dash.tsv 'test -n "$BASH_VERSION"' >/dev/null 2>&1
code=$?
set -e
[ "$code" -eq 1 ] || fail "under sh \$BASH_VERSION was set (exit $code): -S shows nothing"
bench -r 1 -w 0 -o noshell.tsv -N 'echo $HOME' >out.txt 2>err.txt ||
  fail "-N exited $?: $(cat err.txt)"
[ "$(col bytes_out noshell.tsv)" -eq 6 ] || fail "-N expanded \$HOME: $(col bytes_out noshell.tsv)"

# -m/-M: as hyperfine, as many runs as fill 3 s within them (a 10 ms command: -M); with --ci-pct,
# between them, stopping at the precision target; the meta file says which.
bench -m 2 -M 4 -w 0 -o fill.tsv 'sleep 0.01' >/dev/null 2>err.txt || fail "-m -M exited $?: $(cat err.txt)"
[ "$(tail -n +2 fill.tsv | wc -l)" -eq 4 ] || fail "-m 2 -M 4 gave $(tail -n +2 fill.tsv | wc -l) rows, not 4"
grep -q '"fill_s": 3' meta/fill.json || fail "meta: $(grep -A10 '"options"' meta/fill.json)"
bench -m 2 -M 4 --ci-pct 2 -w 0 -o target.tsv 'sleep 0.01' >/dev/null 2>err.txt ||
  fail "-m -M --ci-pct exited $?: $(cat err.txt)"
rows=$(tail -n +2 target.tsv | wc -l)
[ "$rows" -ge 2 ] && [ "$rows" -le 4 ] || fail "-m 2 -M 4 --ci-pct 2 gave $rows rows"
grep -q '"repeats_min": 2' meta/target.json && grep -q '"ci_pct": 2' meta/target.json ||
  fail "meta: $(grep -A8 '"options"' meta/target.json)"

# -u: the comparison's times in the unit; --sort command keeps the given order, auto sorts by time.
bench -r 3 -w 0 -o units.tsv -u microsecond 'sleep 0.02' 'sleep 0.05' 'true' >out.txt 2>err.txt ||
  fail "-u exited $?: $(cat err.txt)"
grep -Eq "'sleep 0.02' [0-9]+\.[0-9] µs median" out.txt || fail "-u microsecond: $(cat out.txt)"
lines() { grep -E '^    (true|sleep 0.05) ' "$1" | awk '{ print $1 }' | tr '\n' ' '; }
[ "$(lines out.txt)" = 'true sleep ' ] || fail "--sort auto is not by time: $(cat out.txt)"
bench -r 3 -w 0 -o sorted.tsv --sort command 'sleep 0.02' 'sleep 0.05' 'true' >out.txt 2>&1
[ "$(lines out.txt)" = 'sleep true ' ] || fail "--sort command is not the given order: $(cat out.txt)"

# --style none: nothing on stdout.
bench -r 1 -w 0 -o quiet.tsv --style none 'true' >out.txt 2>err.txt || fail "--style none: $(cat err.txt)"
[ ! -s out.txt ] || fail "--style none printed: $(cat out.txt)"

# A bad value of each option, and each hyperfine option bench refuses: exit 2, one line naming it.
# Each case: its options, the command, what the line must say.
bad=(
  "-m 1 --ci-pct 2" "true" "--min-runs 1: must be 2 or more"
  "-m 0" "true" "--min-runs 0: must be 1 or more"
  "-M 0" "true" "--max-runs 0: must be 1 or more"
  "-r 3 -m 2" "true" "--runs 3: is exactly that many runs"
  "-m 2 --ci-pct 0" "true" "--ci-pct 0: must be a percentage"
  "-P n 3 1" "true {n}" "-P n 3 1: an empty range"
  "-P n 0.5 2" "true {n}" "need a step size: give -D"
  "-D 0.5" "true" "-D 0.5: steps a -P VAR MIN MAX"
  "-P n 1 2 -D 0" "true {n}" "-D 0: must be above 0"
  "-P n 1 2" "true" "-P n: no command uses {n}"
  "-p a -p b" "true" "--prepare is given 2 times for 1 commands"
  "--show-output --sink pipe" "true" "--show-output is the inherit sink"
  "-S bash --no-shell" "true" "-S bash: and --no-shell say different things"
  "--style loud" "true" "--style: loud not in"
  "-u hours" "true" "--time-unit: hours not in"
  "--sort size" "true" "--sort: size not in"
  "-C a -C b" "true" "--conclude is given 2 times for 1 commands"
  "--output out.txt" "true" "--output out.txt: not null, pipe or inherit; --output ./out.txt writes"
  "--output ./a --output ./b" "true" "--output is given 2 times for 1 commands"
  "--output pipe --sink pipe" "true" "--output and --sink both say where the output goes"
  "--output ./a --show-output" "true" "--output and --show-output both say"
  "--min-benchmarking-time 3" "true" "--min-benchmarking-time: iobench fills hyperfine's 3 s"
  "--debug-mode" "true" "--debug-mode: hyperfine's fake times"
)
for ((i = 0; i < ${#bad[@]}; i += 3)); do
  args=${bad[i]} command=${bad[i + 1]} message=${bad[i + 2]}
  set +e
  # shellcheck disable=SC2086
  "$bin" bench $args -o bad.tsv "$command" >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "'$args' exited $code, expected 2: $(cat err.txt)"
  [ "$(wc -l <err.txt)" -eq 1 ] || fail "'$args': not one line: $(cat err.txt)"
  grep -qF -- "$message" err.txt || fail "'$args': $(cat err.txt)"
  [ ! -s out.txt ] && [ ! -e bad.tsv ] || fail "'$args' wrote something"
done
# hyperfine's --output=pipe habit is not a runs file name.
set +e
"$bin" bench -o pipe true >out.txt 2>err.txt
code=$?
set -e
[ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e pipe ] ||
  fail "-o pipe: exit $code, $(cat err.txt)"
grep -qF -- "-o pipe: -o is iobench's runs file; for where the commands' output goes give --output pipe" err.txt ||
  fail "-o pipe: $(cat err.txt)"
# --output (hyperfine's): where each run's stdout goes. Once per command, each its own FILE, the
# file sink's rows; the runs file is -o/--runs-file, and nothing else lands in the working folder.
mkdir output && cd output
bench -r 2 -w 1 --runs-file ../outputs.tsv --output ./a.log --output ./b.log \
  'echo a-$HYPERFINE_ITERATION' 'echo b-$HYPERFINE_ITERATION' >../out.txt 2>../err.txt ||
  fail "--output per command: exit $?: $(cat ../err.txt)"
[ "$(cat a.log)" = a-1 ] && [ "$(cat b.log)" = b-1 ] || fail "--output per command: $(cat a.log b.log)"
[ "$(ls -A | tr '\n' ' ')" = "a.log b.log " ] || fail "--output wrote beside its files: $(ls -A)"
cd ..
[ "$(col sink outputs.tsv | sort -u)" = file ] || fail "--output FILE sink: $(col sink outputs.tsv)"
# --output null, pipe, inherit are those sinks; inherit shows the runs as --show-output does.
bench -r 1 -w 0 -o output-null.tsv --output null 'echo x' >/dev/null 2>err.txt || fail "--output null: $(cat err.txt)"
[ "$(col sink output-null.tsv | sort -u)" = null ] || fail "--output null: $(col sink output-null.tsv)"
bench -r 1 -w 0 -o output-inherit.tsv --output inherit 'echo shown' >out.txt 2>err.txt ||
  fail "--output inherit: $(cat err.txt)"
grep -q '^shown$' out.txt || fail "--output inherit: $(cat out.txt)"
# Commands whose outputs go to different kinds of places are never compared: refused.
set +e
"$bin" bench --output null 'true' --output ./b.log 'echo b' >out.txt 2>err.txt
code=$?
set -e
[ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e b.log ] ||
  fail "--output null and a FILE: exit $code, $(cat err.txt)"
# --conclude (hyperfine 1.19): after every run, through the real spawner, with the command's
# params; once per command when given per command.
"$bin" bench -q -r 3 -w 0 -o conclude.tsv -L n=1,2 -p 'echo p{n} >>hooks.log' \
  -C 'echo c{n} >>hooks.log' 'true {n}' >out.txt 2>err.txt || fail "--conclude: $(cat err.txt)"
for n in 1 2; do
  prepared=$(grep -c "^p$n\$" hooks.log) concluded=$(grep -c "^c$n\$" hooks.log)
  [ "$prepared" -ge 3 ] && [ "$concluded" -eq "$prepared" ] ||
    fail "--conclude ran $concluded times for $prepared prepares of n=$n: $(cat hooks.log)"
done
# Each conclude follows its run's prepare: the log alternates p, c.
awk 'NR % 2 == 1 && !/^p/ || NR % 2 == 0 && !/^c/ { exit 1 }' hooks.log ||
  fail "--conclude is not after each run: $(cat hooks.log)"
# $HYPERFINE_ITERATION (hyperfine after 1.15): each run's number, hyperfine's way, in the
# command's environment and in its prepare's and conclude's, through the real spawner.
"$bin" bench -q -r 2 -w 2 -o iteration.tsv -p 'echo "p $HYPERFINE_ITERATION" >>it.log' \
  -C 'echo "c $HYPERFINE_ITERATION" >>it.log' 'echo "r $HYPERFINE_ITERATION" >>it.log' \
  >out.txt 2>err.txt || fail "HYPERFINE_ITERATION: $(cat err.txt)"
expected=""
for n in warmup-0 warmup-1 0 1; do expected+="p $n"$'\n'"r $n"$'\n'"c $n"$'\n'; done
[ "$(cat it.log)"$'\n' = "$expected" ] || fail "HYPERFINE_ITERATION: $(cat it.log)"
# The same command twice runs twice, as in hyperfine, the second named 'CMD #2'.
"$bin" bench -q -r 2 -o twice.tsv --export-json twice.json 'true' 'true' >out.txt 2>err.txt ||
  fail "the same command twice: exit $?: $(cat err.txt)"
python3 -c 'import json, sys; print(*[b["command"] for b in json.load(open(sys.argv[1]))["results"]], sep="|")' \
  twice.json >names.txt
[ "$(cat names.txt)" = "true|true #2" ] || fail "the same command twice: $(cat names.txt)"
echo "bench_hyperfine_options: ok"
