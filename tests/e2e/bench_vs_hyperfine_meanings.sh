#!/usr/bin/env bash
# Issue 31's table, the rows of bench's options, against the real hyperfine: each case typed the
# same way into both, the run counts read from both JSON exports (len(times)), and what each case
# means (how often a command ran, what a failure or another output does, what is written, the
# exit code) compared; then the cases bench refuses. Skips where hyperfine is not installed.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v hyperfine >/dev/null || skip "hyperfine is not installed (Debian: apt-get install hyperfine)"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
# A loaded machine re-runs disturbed runs; the counts compared are of ok runs either way, and this
# keeps the test's time bounded.
export IOBENCH_DISTURBANCE=off
hf() { hyperfine --style none "$@" >/dev/null 2>>hf.err; }
ib() { "$bin" bench -q --style none "$@" 2>>ib.err; }
counts() { python3 -c 'import json, sys; print(" ".join(str(len(r["times"])) for r in json.load(open(sys.argv[1]))["results"]))' "$1"; }
same_counts() {  # CASE EXPECTED: both exports give EXPECTED
  local hf_counts ib_counts
  hf_counts=$(counts "hf-$1.json") ib_counts=$(counts "ib-$1.json")
  [ "$hf_counts" = "$2" ] || fail "$1: hyperfine made $hf_counts runs, expected $2 (this test's premise)"
  [ "$ib_counts" = "$hf_counts" ] || fail "$1: bench made $ib_counts runs, hyperfine $hf_counts"
}

# -r 10: exactly 10 runs of each command, whatever a comparison would decide.
hf -r 10 --export-json hf-r10.json 'sleep 0.01' 'sleep 0.03'
ib -r 10 --export-json ib-r10.json 'sleep 0.01' 'sleep 0.03' || fail "-r 10 exited $?: $(cat ib.err)"
same_counts r10 "10 10"
help=$("$bin" bench --help)
grep -q -- '-r,--runs INT *Exactly this many measured runs' <<<"$help" ||
  fail "--help does not say -r is exact: $(grep -- '-r,--runs' <<<"$help")"

# -m 5 -M 20 on a fast command: as many as fill 3 s, clamped to 20; -M 5 alone: 5.
hf -m 5 -M 20 --export-json hf-mM.json 'sleep 0.01' 'true'
ib -m 5 -M 20 --export-json ib-mM.json 'sleep 0.01' 'true' || fail "-m 5 -M 20 exited $?: $(cat ib.err)"
same_counts mM "20 20"
hf -M 5 --export-json hf-M.json 'true'
ib -M 5 --export-json ib-M.json 'true' || fail "-M 5 exited $?: $(cat ib.err)"
same_counts M "5"
# -m 12 on a 0.3 s command: 3 s hold 9 of its runs (hyperfine rounds down), so 12; and nothing
# given: at least 10.
hf -m 12 --export-json hf-m.json 'sleep 0.3'
ib -m 12 --export-json ib-m.json 'sleep 0.3' || fail "-m 12 exited $?: $(cat ib.err)"
same_counts m "12"
# -m 2 -M 20: 3 s over the first run's 1.05x s is 2.8, rounded down: 2. (Each timed case is
# chosen far from a count's edges, so that a loaded machine's slower runs give the same count.)
hf -m 2 -M 20 --export-json hf-floor.json 'sleep 1.05'
ib -m 2 -M 20 --export-json ib-floor.json 'sleep 1.05' || fail "-m 2 -M 20 exited $?: $(cat ib.err)"
same_counts floor "2"
# With --prepare, hyperfine adds its time to the first run's: 3 s over 0.4 + 0.4 s, 3 (the run
# alone would give 7).
hf -m 2 -M 50 -p 'sleep 0.4' --export-json hf-prepare.json 'sleep 0.4'
ib -m 2 -M 50 -p 'sleep 0.4' --export-json ib-prepare.json 'sleep 0.4' || fail "-p exited $?: $(cat ib.err)"
same_counts prepare "3"
hf --export-json hf-plain.json 'sleep 0.3'
ib --export-json ib-plain.json 'sleep 0.3' || fail "a plain run exited $?: $(cat ib.err)"
same_counts plain "10"

# -L NAME V1,V2, hyperfine's two words: one result per value, the same commands and parameters.
hf -r 2 -L n 1,2 --export-json hf-L.json 'echo {n}'
ib -r 2 -L n 1,2 --export-json ib-L.json 'echo {n}' || fail "-L n 1,2 exited $?: $(cat ib.err)"
params() { python3 -c 'import json, sys; print([(r["command"], r["parameters"]) for r in json.load(open(sys.argv[1]))["results"]])' "$1"; }
[ "$(params ib-L.json)" = "$(params hf-L.json)" ] || fail "-L n 1,2: $(params ib-L.json), hyperfine $(params hf-L.json)"
ib -r 2 -L n=1,2 --export-json ib-L2.json 'echo {n}' 'echo {n} {n}' || fail "-L n=1,2 exited $?: $(cat ib.err)"
[ "$(counts ib-L2.json)" = "2 2 2 2" ] || fail "-L n=1,2 with two commands: $(params ib-L2.json)"

# -V: the program's name and version, exit 0.
hyperfine -V | grep -Eq '^hyperfine [0-9]+\.' || fail "hyperfine -V: $(hyperfine -V)"
for args in "bench -V" "bench --version" "-V"; do
  # shellcheck disable=SC2086
  out=$("$bin" $args) || fail "iobench $args exited $?"
  [[ $out =~ ^iobench\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "iobench $args printed: $out"
done

# A failing command, no -i: it runs once, one line says so, exit 1 (hyperfine stops the same way).
: >ib.err
set +e
hf 'echo x >> hf-fail.log; false'
hf_code=$?
ib -r 5 'echo x >> ib-fail.log; false' 'true'
ib_code=$?
set -e
[ "$hf_code" -eq 1 ] && [ "$(wc -l <hf-fail.log)" -eq 1 ] || fail "hyperfine's failure: exit $hf_code"
[ "$ib_code" -eq 1 ] || fail "a failing command: bench exited $ib_code, hyperfine $hf_code"
[ "$(wc -l <ib-fail.log)" -eq 1 ] || fail "the failing command ran $(wc -l <ib-fail.log) times, hyperfine's once"
[ "$(grep -c 'not run again' ib.err)" -eq 1 ] || fail "not one line about the failure: $(cat ib.err)"
grep -q 'exit code 1; it is not run again (-i/--ignore-failure' ib.err || fail "the failure line: $(cat ib.err)"
grep -qi 'verif' ib.err && fail "a verification warning for a failure: $(cat ib.err)"
: >ib.err
# --ignore-failure=CODES (hyperfine 1.20): those exit codes are no failure, another one is.
ib -r 3 -w 0 --ignore-failure=3,4 --export-json ib-codes.json 'exit 3' ||
  fail "--ignore-failure=3,4 of an exit 3: bench exited $?: $(cat ib.err)"
[ "$(counts ib-codes.json)" = 3 ] || fail "--ignore-failure=3,4: not 3 runs timed"
set +e
ib -r 3 -w 0 --ignore-failure=2 'exit 3'
ib_code=$?
set -e
[ "$ib_code" -eq 1 ] && grep -q 'exit code 3; it is not run again' ib.err ||
  fail "--ignore-failure=2 of an exit 3: exit $ib_code, $(cat ib.err)"
one_line_exit_2 "--ignore-failure=0" "$bin" bench --ignore-failure=0 'exit 3'
: >ib.err
# Stopped at its warmup run (-w 1) as at its first measured run (-w 0), the command keeps its row:
# in its block, the export's results and its iobench.without_ok_runs, the CSV and the Markdown (it
# vanished from all of them when the warmup failed).
for warmup in 0 1; do
  "$bin" bench -q -w "$warmup" -r 3 --export-json "ib-fail-w$warmup.json" --export-csv fail.csv \
    --export-markdown fail.md 'false' 'true' >fail.out 2>>ib.err && fail "-w $warmup: a failing command, exit 0"
  grep -q '^  no ok run: 1 failed$' fail.out || fail "-w $warmup: no block says it failed: $(cat fail.out)"
  grep -q '^false,,.*,failed: no ok run (1 failed)$' fail.csv || fail "-w $warmup: the CSV: $(cat fail.csv)"
  grep -qF '| `false` | failed: no ok run (1 failed) |' fail.md || fail "-w $warmup: the Markdown: $(cat fail.md)"
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert [r["command"] for r in j["results"]] == ["false", "true"], j["results"]
assert [w["command"] for w in j["iobench"]["without_ok_runs"]] == ["false"], j["iobench"]' "ib-fail-w$warmup.json" ||
    fail "-w $warmup: the failing command is not in the export: $(cat "ib-fail-w$warmup.json")"
done
: >ib.err

# Different outputs: both timed by both, exit 0; one line gives each output's bytes and hash.
for pair in "echo a|echo b" "seq 1 100000 | wc -l|seq 1 100000 >/dev/null"; do
  first=${pair%%|*} second=${pair#*|}
  hf -r 3 --export-json hf-diff.json "$first" "$second"
  ib -r 3 --export-json ib-diff.json "$first" "$second" || fail "'$first' vs '$second' exited $?: $(cat ib.err)"
  same_counts diff "3 3"
  [ "$(grep -c 'outputs differ' ib.err)" -eq 1 ] || fail "'$first' vs '$second': $(cat ib.err)"
  line=$(grep 'outputs differ' ib.err)
  [[ $line == *"'$first' "[0-9]*" bytes (hash "[0-9a-f]*"), '$second' "[0-9]*" bytes (hash "[0-9a-f]*")" ]] ||
    fail "the difference line does not give each output's bytes and hash: $line"
  : >ib.err
done
# --verify on: the mismatch is said after the mismatching command's first run, and it is not run again.
set +e
ib -r 20 --verify on 'echo a' 'echo b; echo x >> mismatch.log'
code=$?
set -e
[ "$code" -eq 1 ] || fail "--verify on with a mismatch exited $code"
[ "$(wc -l <mismatch.log)" -eq 1 ] || fail "the mismatching command ran $(wc -l <mismatch.log) times"
[ "$(grep -c MISMATCH ib.err)" -eq 1 ] || fail "the mismatch: $(cat ib.err)"
: >ib.err

# Export paths are checked before the first run: one line, exit 2, nothing run, no folder made.
set +e
hf -r 2 --export-json missing/x.json 'echo x >> hf-export.log'
hf_code=$?
set -e
[ "$hf_code" -ne 0 ] && [ ! -e hf-export.log ] || fail "hyperfine ran with a missing export folder"
for option in --export-json --export-csv --export-markdown --export-asciidoc --export-orgmode \
  -o --output --report --save-config; do
  set +e
  "$bin" bench -r 2 "$option" missing/x 'echo x >> ib-export.log' >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ] || fail "$option missing/x: exit $code, $(cat err.txt)"
  grep -q "missing/x: the folder .*/missing does not exist" err.txt || fail "$option: $(cat err.txt)"
  [ ! -e ib-export.log ] && [ ! -e missing ] || fail "$option missing/x: ran or made the folder"
done

# --output FILE, hyperfine's: each run writes the file anew (hyperfine's File::create), so both
# leave the last run's two lines; a bare word is no file to either ("Use './f'"), and -o is
# iobench's runs file. (Once per command is hyperfine 1.19's, which 1.15 refuses: docs/bench.md.)
hf -w 1 -r 3 --output ./hf-out.txt 'echo run; date +%N'
ib -w 1 -r 3 --output ./ib-out.txt 'echo run; date +%N' || fail "--output ./ib-out.txt exited $?: $(cat ib.err)"
for file in hf-out.txt ib-out.txt; do
  [ "$(wc -l <$file)" -eq 2 ] && [ "$(head -1 $file)" = run ] || fail "--output: $file holds $(cat $file)"
done
set +e
hyperfine -r 1 --output hf-bare.txt true >/dev/null 2>&1
hf_code=$?
"$bin" bench -r 1 --output ib-bare.txt true >out.txt 2>err.txt
code=$?
set -e
[ "$hf_code" -ne 0 ] && [ ! -e hf-bare.txt ] || fail "hyperfine took --output hf-bare.txt (this test's premise)"
[ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e ib-bare.txt ] || fail "--output ib-bare.txt: exit $code, $(cat err.txt)"
: >ib.err

# Nothing asked for, nothing written to the working folder.
mkdir quiet && cd quiet
"$bin" bench -q -r 2 'true' >/dev/null 2>&1 || fail "a plain bench exited $?"
[ -z "$(ls -A)" ] || fail "bench wrote into the working folder: $(ls -A)"
cd ..

# Refused: -r 0 (hyperfine hangs), -r with -m (hyperfine refuses too).
for args in "-r 0" "-r 3 -m 2"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" bench $args true >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] || fail "'$args': exit $code, $(cat err.txt)"
done
set +e
hyperfine -r 3 -m 2 true >/dev/null 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || fail "hyperfine took -r 3 -m 2 (the premise of refusing it)"
echo "bench_vs_hyperfine_meanings: ok"
