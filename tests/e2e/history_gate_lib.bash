# What tests/e2e/history_gate*.sh share (sourced after lib/common.bash and history_lib.bash; not a
# test itself): real `bench` runs of sleeps, measured once, added in different sets to fresh
# stores, and every exit of `history check` as a merge gate (docs/history.md, "Exit statuses").
# The caller defines `new_store NAME`, which sets $store to a fresh, empty store.

mkdir "$tmp/gate" "$tmp/g"
gate_work() { printf 'sleep %s\n' "$2" >"$tmp/gate/$1.sh"; }  # NAME SECONDS: the "code" of Y
X='sleep 0.05'
Y="sh $tmp/gate/y.sh"   # its text stays while its work changes: one series
Y2="sh $tmp/gate/y2.sh" # Y's command under a new text: a new series, until renamed
Z='sleep 0.07'          # a command the change adds

gate_bench() {  # NAME REPEATS COMMAND...
  local name=$1 repeats=$2
  shift 2
  # From the scratch folder, outside any git repository: the runs have the commits the test gives.
  (cd "$tmp" && "$iobench" bench -r "$repeats" -w 0 --decide off --verify on -o "$tmp/g/$name.tsv" -q "$@") >/dev/null 2>"$tmp/bench.err" ||
    { rc=$?; cat "$tmp/bench.err" >&2; fail "bench for $name exited $rc"; }
  set_busy "$tmp/g/meta/$name.json" 0
}

# Another run with the same rows (other bytes, so another run to the store): the rows' status set
# to STATUS (as `run` writes `disturbed` when others kept the machine busy during every run; a
# quiet test machine cannot be made to disturb each of them for sure), the busy figure to BUSY.
gate_copy() {  # FROM TO STATUS BUSY
  awk -F'\t' -v OFS='\t' -v status="$3" '
    FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; if (!c) exit 2; print; next }
    status != "" { $c = status } { print }' "$tmp/g/$1.tsv" >"$tmp/g/$2.tsv" ||
    fail "$1.tsv has no status column"
  printf '\n' >>"$tmp/g/$2.tsv"
  cp "$tmp/g/meta/$1.json" "$tmp/g/meta/$2.json"
  set_busy "$tmp/g/meta/$2.json" "$4"
}

gate_measure() {
  gate_work y 0.06
  gate_work y2 0.06
  gate_bench a1 5 "$X" "$Y"
  gate_bench a2 5 "$X" "$Y"
  gate_bench a3 5 "$X" "$Y"  # three sessions of the base: enough to learn how far they drift
  gate_bench b1 5 "$X" "$Y"
  gate_work y 0.09  # Y 50 % slower, and Z added
  gate_bench g1 5 "$X" "$Y" "$Z"
  gate_work y 0.06
  gate_bench n1 5 "$X" "$Y" "$Z"
  gate_bench m1 5 "$X"  # Y dropped
  gate_bench r1 5 "$X" "$Y2"
  gate_work y2 0.09
  gate_bench s1 5 "$X" "$Y2"
  gate_bench t0 2 "$X" "$Y"
  gate_bench t1 2 "$X" "$Y"
  gate_copy b1 d1 disturbed 0
  gate_copy b1 c1 "" 1.5
}

gate_store() {  # NAME COMMIT:RUN...: a fresh store with these runs, each under its commit
  new_store "$1"
  shift
  local pair
  for pair; do add "${pair%%:*}" "$tmp/g/${pair#*:}.tsv"; done
}

said() {  # PATTERN FILE: a line of FILE matches the extended regex PATTERN
  grep -Eq -- "$1" "$2" || fail "no line like '$1' in: $(cat "$2")"
}

# Every exit of the gate, against the store new_store makes.
gate_cases() {
  local label
  # A/A: every series judged, none regressed: 0.
  gate_store aa aaaa1111:a1 aaaa1111:a2 bbbb2222:b1
  check 0 --session-spread 3
  said '^iobench history check: 2 series: 2 steady; exit 0: every series judged, none regressed$' "$tmp/check.err"

  # --base that names nothing, too little or several commits: exit 2, one line naming them.
  gate_store base aaaa1111:a1 aaaa1111:a2 aaaa2222:b1
  check 2 --base ffff0000
  [ "$(wc -l <"$tmp/check.err")" -eq 1 ] && [ ! -s "$tmp/check.out" ] || fail "--base ffff0000: not one line"
  said '^iobench: history check --base ffff0000: no run in the store has that commit or branch \(branches: main; commits: aaaa1111, aaaa2222\)$' "$tmp/check.err"
  check 2 --base aaa
  said 'history check --base aaa: too short to name a commit \(4 or more digits\) and no branch has that name; it could be aaaa1111, aaaa2222$' "$tmp/check.err"
  check 2 --base aaaa
  said 'history check --base aaaa: ambiguous, 2 commits start with it: aaaa1111, aaaa2222$' "$tmp/check.err"
  check 0 --session-spread 3 --base aaaa1111
  check 0 --session-spread 3 --base main

  # A new series: 4, unless --allow-new-series.
  gate_store new aaaa1111:a1 aaaa1111:a2 cccc3333:n1
  check 4 --session-spread 3
  said "^no baseline [0-9a-f]{8}@[0-9a-f]{8} $Z \(pipe\): a new series: no earlier run to compare with; not judged \(exit 4; --allow-new-series accepts it\)$" "$tmp/check.out"
  [ "$(wc -l <"$tmp/check.out")" -eq 1 ] || fail "not one line for the new series: $(cat "$tmp/check.out")"
  check 0 --session-spread 3 --allow-new-series
  said 'not judged, accepted by --allow-new-series$' "$tmp/check.out"

  # A series gone from the newest run: 4, unless --allow-missing-series.
  gate_store gone aaaa1111:a1 aaaa1111:a2 dddd4444:m1
  check 4 --session-spread 3
  said "^missing [0-9a-f]{8}@[0-9a-f]{8} $Y \(pipe\): in the runs before \(the last at aaaa1111\), not in the newest run \(dddd4444\); not judged \(exit 4; --allow-missing-series accepts it\)$" "$tmp/check.out"
  check 0 --session-spread 3 --allow-missing-series

  # Every row of the newest run disturbed: nothing counts, 4, and no option accepts it.
  gate_store disturbed aaaa1111:a1 aaaa1111:a2 eeee5555:d1
  check 4 --allow-new-series --allow-missing-series --allow-conditions-changed
  [ "$(grep -c '^nothing counts .*: the newest run has no ok, verified row (5 disturbed); not judged (exit 4)$' "$tmp/check.out")" -eq 2 ] ||
    fail "not two 'nothing counts': $(cat "$tmp/check.out")"

  # Too few rows for the U test (2 against 2): 4.
  gate_store few ffff0001:t0 ffff0002:t1
  check 4
  [ "$(grep -c '^too few runs .*; not judged (exit 4)$' "$tmp/check.out")" -eq 2 ] ||
    fail "not two 'too few runs': $(cat "$tmp/check.out")"

  # A busy machine: conditions changed, 4, unless --allow-conditions-changed.
  gate_store busy aaaa1111:a1 aaaa1111:a2 abab6666:c1
  check 4
  said '^conditions changed .*: a busy machine \(1.50 CPUs.*; not judged \(exit 4; --allow-conditions-changed accepts it\)$' "$tmp/check.out"
  check 0 --session-spread 3 --allow-conditions-changed

  # Two sessions of the base cannot say how far sessions drift: the slowdown is not judged (4), and
  # no --allow option accepts it, nor the steady series (no spread, no power); a stated spread
  # judges them.
  gate_store short aaaa1111:a1 aaaa1111:a2 bbbb2222:g1
  check 4 --allow-new-series
  said "^too few sessions [0-9a-f]{8}@[0-9a-f]{8} $Y \(pipe\): elapsed .*× slower .*; 2 earlier sessions cannot say how far sessions drift \(3 in one level needed, or --session-spread PCT\);.* not judged \(exit 4\)$" "$tmp/check.out"
  said '^iobench history check: 3 series: 2 too few sessions, 1 no baseline; exit 4: 2 series not judged$' "$tmp/check.err"
  check 1 --allow-new-series --session-spread 10
  said "^regression .* $Y \(pipe\): .*; sessions spread 10\.0 % \(stated by --session-spread\): the newest [0-9.]+ \[[0-9.]+, [0-9.]+\] of the baseline's 2, p [=<] [0-9.]+; why: " "$tmp/check.out"

  # A regression and a new series at once: the regression wins, exit 1; both are said.
  gate_store both aaaa1111:a1 aaaa1111:a2 aaaa1111:a3 bbbb2222:g1
  check 1
  said "^regression [0-9a-f]{8}@[0-9a-f]{8} $Y \(pipe\): elapsed .*× slower \[[0-9.]+, [0-9.]+\].*, change in aaaa1111..bbbb2222; sessions spread [0-9.]+ % \(learnt from 3 sessions\): .*; why: .*" "$tmp/check.out"
  said "^no baseline .* $Z \(pipe\): " "$tmp/check.out"
  said '^iobench history check: 3 series: 1 regression, 1 steady, 1 no baseline; exit 1: 1 regression, and 1 series not judged$' "$tmp/check.err"
  check 1 --allow-new-series
  gate_formats

  # A command whose text changed: a new series and a missing one, until renamed; then check
  # compares the new runs with the old ones.
  for label in same slower; do
    if [ "$label" = same ]; then gate_store renamed aaaa1111:a1 aaaa1111:a2 bbbb2222:r1; else gate_store renamed2 aaaa1111:a1 aaaa1111:a2 aaaa1111:a3 bbbb2222:s1; fi
    check 4 --session-spread 3
    said '^iobench history check: 3 series: 1 steady, 1 no baseline, 1 missing; exit 4: 2 series not judged$' "$tmp/check.err"
    "$iobench" history rename "$Y" "$Y2" --by e2e --history="$store" 2>"$tmp/rename.err" ||
      fail "history rename exited $?: $(cat "$tmp/rename.err")"
    said '^iobench history: series [0-9a-f]{8} continues as [0-9a-f]{8}, renamed by e2e$' "$tmp/rename.err"
    if [ "$label" = same ]; then
      check 0 --session-spread 3
      said '^iobench history check: 2 series: 2 steady; exit 0' "$tmp/check.err"
    else
      check 1
      said "^regression .* $Y2 \(pipe\): elapsed .* against 15 rows of 3 runs, over the 20 % allowed, change in aaaa1111..bbbb2222; " "$tmp/check.out"
    fi
  done
  set +e
  "$iobench" history rename "$Y2" "$Y" --history="$store" >/dev/null 2>"$tmp/rename.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/rename.err")" -eq 1 ] && grep -q 'would make a loop' "$tmp/rename.err" ||
    fail "a rename back: exit $rc, $(cat "$tmp/rename.err")"
}

# --format github and markdown, line by line, and json, on the store with a regression (Y), a
# steady series (X) and a new one (Z).
gate_formats() {
  local n='[0-9.]+ (µs|ms|s)' id='[0-9a-f]{8}@[0-9a-f]{8}' re
  check 1 --format github
  mapfile -t lines <"$tmp/check.out"
  [ "${#lines[@]}" -eq 4 ] || fail "github: not 4 lines: $(cat "$tmp/check.out")"
  re="^::notice title=steady%3A $X \\(pipe\\)::steady $id $X \\(pipe\\): elapsed $n -> $n, .*, against 15 rows of 3 runs$"
  [[ ${lines[0]} =~ $re ]] || fail "github line 1: ${lines[0]}"
  re="^::error title=regression%3A $Y \\(pipe\\)::regression $id $Y \\(pipe\\): elapsed $n -> $n, [0-9.]+× slower \\[[0-9.]+, [0-9.]+\\], .*, over the 20 %25 allowed, change in aaaa1111\\.\\.bbbb2222; sessions spread [0-9.]+ %25 \\(learnt from 3 sessions\\): .+; why: .+$"
  [[ ${lines[1]} =~ $re ]] || fail "github line 2: ${lines[1]}"
  [[ ${lines[2]} == "::error title=no baseline%3A $Z (pipe)::no baseline "*" $Z (pipe): a new series: no earlier run to compare with; not judged (exit 4; --allow-new-series accepts it)" ]] ||
    fail "github line 3: ${lines[2]}"
  [[ ${lines[3]} == '::error title=iobench history check::3 series: 1 regression, 1 steady, 1 no baseline; exit 1: 1 regression, and 1 series not judged' ]] ||
    fail "github line 4: ${lines[3]}"

  check 1 --format markdown
  mapfile -t lines <"$tmp/check.out"
  [ "${#lines[@]}" -eq 7 ] || fail "markdown: not 7 lines: $(cat "$tmp/check.out")"
  [[ ${lines[0]} == '**iobench history check**: 3 series: 1 regression, 1 steady, 1 no baseline; exit 1: 1 regression, and 1 series not judged' ]] ||
    fail "markdown line 1: ${lines[0]}"
  [ -z "${lines[1]}" ] || fail "markdown line 2: ${lines[1]}"
  [[ ${lines[2]} == '| series | verdict | baseline → newest | ratio [interval] | p | change | why |' ]] || fail "markdown line 3: ${lines[2]}"
  [[ ${lines[3]} == '|---|---|---|---|---|---|---|' ]] || fail "markdown line 4: ${lines[3]}"
  # A two-sided p is 1.000 where the samples interleave evenly (CI saw it for the steady X).
  # The regression first, then what was not judged, then the rest (issue 47); a series without
  # an input is "(pipe)", and a regression's row has the id history ack takes.
  local ratio='[0-9]\.[0-9]{3} \[[0-9]\.[0-9]{3}, [0-9]\.[0-9]{3}\]' p='(< 0\.001|0\.[0-9]{3}|1\.000)'
  re="^\\| $Y \\(pipe\\) \\| \\*\\*regression\\*\\* in aaaa1111\\.\\.bbbb2222 \\| $n → $n \\| $ratio \\| $p \\| \`[0-9a-f]{8}@[0-9a-f]{8}\` \\| .+ \\|$"
  [[ ${lines[4]} =~ $re ]] || fail "markdown line 5: ${lines[4]}"
  [[ ${lines[5]} == "| $Z (pipe) | **no baseline**, not judged |  |  |  |  | a new series: no earlier run to compare with; --allow-new-series accepts it |" ]] ||
    fail "markdown line 6: ${lines[5]}"
  re="^\\| $X \\(pipe\\) \\| steady \\| $n → $n \\| $ratio \\| $p \\|  \\|  \\|$"
  [[ ${lines[6]} =~ $re ]] || fail "markdown line 7: ${lines[6]}"

  check 1 --format json
  python3 - "$tmp/check.out" "$Y" "$Z" <<'PY' || fail "json: $(cat "$tmp/check.out")"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["exit_status"] == 1, report
by_test = {s["test"]: s for s in report["series"]}
y, z = by_test[sys.argv[2]], by_test[sys.argv[3]]
assert y["verdict"] == "regression" and y["gate"] == "regression", y
assert 1.3 < y["ratio"] < 1.8 and y["interval"][0] <= y["ratio"] <= y["interval"][1], y
assert y["p"] < 0.05 and y["why"] and y["commits"] == {"from": "aaaa1111", "to": "bbbb2222"}, y
sessions = y["sessions"]
assert y["rows_verdict"] == "regression" and sessions["spread_from"] == "learnt", y
assert sessions["learnt_sessions"] == 3 and sessions["learnt_df"] == 2, y
assert sessions["baseline_sessions"] == 3 and sessions["p"] < 0.05, y
assert sessions["interval"][0] <= sessions["ratio"] <= sessions["interval"][1], y
assert z["verdict"] == "no baseline" and z["gate"] == "not judged" and z["ratio"] is None, z
assert z["commits"] == {"from": None, "to": "bbbb2222"}, z
PY
}
