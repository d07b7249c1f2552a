# What tests/e2e/history_commit_order*.sh share (sourced after lib/common.bash, with $iobench set
# and new_store NAME setting $store to a store that does not exist yet): issue 47's rule that a
# change is pinned to the commits where it came in, in commit order, whatever order the runs were
# added in (docs/history.md, "Adding runs").

# hyperfine's JSON of two commands, ten times each: `steady` at 20 ms, `work` at $2 s.
write_hyperfine() {  # FILE WORK_SECONDS
  python3 - "$1" "$2" <<'PY'
import json, sys
path, work = sys.argv[1], float(sys.argv[2])
results = []
for name, base in (("steady", 0.020), ("work", work)):
    times = [base * (1 + 0.002 * ((k * 7) % 10)) for k in range(10)]
    results.append({"command": name, "mean": sum(times) / 10, "times": times,
                    "exit_codes": [0] * 10})
json.dump({"results": results}, open(path, "w"))
PY
}

add_to_store() {  # ARGS...: history add into $store, failing the test on any exit but 0
  "$iobench" history add --history="$store" "$@" 2>"$tmp/add.err" ||
    fail "history add $*: exit $?, $(cat "$tmp/add.err")"
}

# 1. Added c3, c1, c2 (work slower from c3 on), each with --date in commit order: check pins the
# change to c2..c3, not to the order of the adds (without --date, c3 added first read as the
# oldest: `faster ... change in c3..c1`). A date with an offset is converted to UTC.
commits_added_out_of_order() {
  write_hyperfine "$tmp/c1.json" 0.020
  write_hyperfine "$tmp/c2.json" 0.020
  write_hyperfine "$tmp/c3.json" 0.030
  new_store order
  add_to_store --commit c3 --date 2026-12-03T10:00:00Z "$tmp/c3.json"
  add_to_store --commit c1 --date 2026-12-01 "$tmp/c1.json"
  add_to_store --commit c2 --date 2026-12-02T12:00:00+02:00 "$tmp/c2.json"
  set +e
  "$iobench" history check --history="$store" --min-effect 25 --session-spread 5 \
    >"$tmp/check.out" 2>"$tmp/check.err"
  local status=$?
  set -e
  [ "$status" -eq 1 ] || fail "check exited $status, not 1: $(cat "$tmp/check.out" "$tmp/check.err")"
  grep -q '^regression .* work (hyperfine real_time): .*, change in c2\.\.c3;' "$tmp/check.out" ||
    fail "the change is not pinned to c2..c3: $(cat "$tmp/check.out")"
  ! grep -q 'steady (hyperfine' "$tmp/check.out" || fail "steady was flagged: $(cat "$tmp/check.out")"
  "$iobench" history show work --history="$store" >"$tmp/show.out" || fail "history show exited $?"
  [ "$(grep -Eo '^20[0-9T:Z-]+  c[0-9]' "$tmp/show.out" | tr -s ' ' | paste -sd,)" = \
    "2026-12-01T00:00:00Z c1,2026-12-02T10:00:00Z c2,2026-12-03T10:00:00Z c3" ] ||
    fail "the runs' dates and order: $(cat "$tmp/show.out")"
}

# 2. A bad --date: one line, exit 2, and nothing written (no store made); run with $store not yet
# made. STORE_MADE is a command that succeeds when a store was made.
bad_dates_write_nothing() {  # STORE_MADE
  local date
  for date in yesterday 2026-12-01T10:00:00 2026-02-30 '2026-12-01 10:00:00Z' 12/01/2026; do
    one_line_exit_2 "--date '$date'" "$iobench" history add --history="$store" --commit c1 \
      --date "$date" "$tmp/c1.json"
    grep -qF "history add --date '$date': not a date" "$tmp/bad.err" ||
      fail "--date '$date' said: $(cat "$tmp/bad.err")"
    ! "$1" || fail "--date '$date' made a store"
  done
}

# 3. The same BMF file (a metric that never changes) added under c1, c2, c3 is three runs of one
# history, exported by commit; under c1 again it is the run already there; under c1 on another
# branch another run. COUNT_RUNS prints the number of runs in $store.
same_file_under_three_commits() {  # COUNT_RUNS
  printf '{"size_check": {"file-size": {"value": 123456}}}\n' >"$tmp/bmf.json"
  new_store same
  local c
  for c in c1 c2 c3; do
    add_to_store --commit "$c" --branch main "$tmp/bmf.json"
    grep -q "added $tmp/bmf.json to .*: 1 rows, [01] new series (commit $c, branch main)" \
      "$tmp/add.err" || fail "add under $c said: $(cat "$tmp/add.err")"
  done
  add_to_store --commit c1 --branch main "$tmp/bmf.json"
  grep -q "bmf.json is already in" "$tmp/add.err" || fail "c1 again said: $(cat "$tmp/add.err")"
  [ "$("$1")" -eq 3 ] || fail "not three runs: $("$1")"
  "$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
  grep -Eq '^[0-9a-f]{8} +3 .*size_check \(bmf file-size\)' "$tmp/list.out" ||
    fail "list: $(cat "$tmp/list.out")"
  "$iobench" history show size_check --history="$store" >"$tmp/show.out" ||
    fail "history show exited $?"
  [ "$(grep -Eo '^20[0-9T:Z-]+  c[0-9]  +main' "$tmp/show.out" | awk '{print $2}' | paste -sd,)" = c1,c2,c3 ] ||
    fail "show: $(cat "$tmp/show.out")"
  "$iobench" history export --history="$store" --format bmf --commit c3 -o "$tmp/c3.json" ||
    fail "export --commit c3 exited $?"
  python3 - "$tmp/c3.json" <<'PY' || fail "export --commit c3: $(cat "$tmp/c3.json")"
import json, sys
assert json.load(open(sys.argv[1])) == {"size_check": {"file-size": {"value": 123456.0}}}
PY
  add_to_store --commit c1 --branch other "$tmp/bmf.json"
  grep -q "added .*(commit c1, branch other)" "$tmp/add.err" || fail "another branch: $(cat "$tmp/add.err")"
  [ "$("$1")" -eq 4 ] || fail "the same bytes on another branch are not a run: $("$1") runs"
}
