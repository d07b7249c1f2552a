#!/usr/bin/env bash
# Every format of run file ever written (tests/fixtures/runfiles/README.md) through every command
# that reads one: summarize, compare, plot, report, merge and history add (SQLite), all through
# the one reader (driver/runfile/rows.hpp). A figure an old format lacks is stored as NULL, never 0; a GNU
# time file, which has no meta file, is a foreign file to merge (exit 1, nothing written) and is
# refused by history add in one line (exit 2).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to read the store (scripts/bootstrap installs it)"
iobench=$bin/iobench
cp -r "$src/tests/fixtures/runfiles" "$tmp/f"
store=$tmp/h.sqlite
iobench_formats=(v1-034049d v1-548687b v2-today v3-wait)

expect_exit() {  # WANT WHAT COMMAND...: runs COMMAND, its output in $tmp/out and $tmp/err
  local want=$1 what=$2 rc=0
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ "$rc" -eq "$want" ] || fail "$what exited $rc, not $want: $(cat "$tmp/out" "$tmp/err")"
}

for format in gnu-time "${iobench_formats[@]}"; do
  for file in "$tmp/f/$format"/*.tsv; do
    name=$format/$(basename "$file")
    expect_exit 0 "summarize $name" "$iobench" summarize --format tsv "$file"
    rows=$(run_awk '{ print col("test") }' "$file" | sort -u | wc -l)
    [ "$(($(wc -l <"$tmp/out") - 1))" -eq "$rows" ] || fail "summarize $name: $(cat "$tmp/out")"
    expect_exit 0 "compare $name with itself" "$iobench" compare "$file" "$file"
    test=$(run_awk '{ print col("test"); exit }' "$file")
    grep -q "$test" "$tmp/out" || fail "compare $name does not name $test: $(cat "$tmp/out")"
    expect_exit 0 "plot $name" "$iobench" plot "$file" -o "$tmp/$format.svg"
    grep -q "$test" "$tmp/$format.svg" || fail "the plot of $name does not name $test"
    expect_exit 0 "report $name" "$iobench" report "$file" -o "$tmp/$format.html"
    grep -q "$test" "$tmp/$format.html" || fail "the report of $name does not name $test"
  done
done

# An old file against today's: the same cell (read-raw on in.txt to a pipe) in both.
for format in v1-034049d v1-548687b; do
  expect_exit 0 "compare $format with today" "$iobench" compare "$tmp/f/$format/s1.tsv" \
    "$tmp/f/v2-today/s1.tsv"
  grep -q 'read-raw' "$tmp/out" || fail "compare $format with today: $(cat "$tmp/out")"
done

# merge: the shards of each format join, rows as written, the header once.
for format in "${iobench_formats[@]}"; do
  dir=$tmp/f/$format
  expect_exit 0 "merge $format" "$iobench" merge "$dir/s1.tsv" "$dir/s2.tsv" -o "$dir/all.tsv"
  diff <(head -1 "$dir/s1.tsv") <(head -1 "$dir/all.tsv") >/dev/null ||
    fail "merge $format changed the header"
  diff <(tail -n +2 "$dir/s1.tsv"; tail -n +2 "$dir/s2.tsv") <(tail -n +2 "$dir/all.tsv") >/dev/null ||
    fail "merge $format changed the rows: $(cat "$dir/all.tsv")"
  expect_exit 0 "summarize the merge of $format" "$iobench" summarize --format tsv "$dir/all.tsv"
done
expect_exit 1 "merge of GNU time files" "$iobench" merge "$tmp/f/gnu-time/dcat.tsv" -o "$tmp/g.tsv"
grep -q 'dcat.tsv: foreign file: no meta file' "$tmp/err" || fail "merge of GNU time: $(cat "$tmp/err")"
[ ! -e "$tmp/g.tsv" ] || fail "a refused merge wrote its output"

# history add: every format `run` wrote lands, the figures it lacks as NULL.
commit=0
for format in "${iobench_formats[@]}"; do
  commit=$((commit + 1))
  expect_exit 0 "history add $format" "$iobench" history add --history="$store" \
    --commit "c$commit" --branch main "$tmp/f/$format/s1.tsv" "$tmp/f/$format/s2.tsv"
  [ "$(grep -c "added .*/$format/s[12].tsv .*: 3 rows\|added .*/$format/s1.tsv .*: 5 rows" "$tmp/err")" -eq 2 ] ||
    fail "history add $format said: $(cat "$tmp/err")"
done
count() { sqlite3 "$store" "SELECT COUNT(*) FROM samples JOIN runs USING (run_id) WHERE $1"; }
[ "$(count "commit_label = 'c1' AND syscalls IS NULL AND context_switches IS NULL AND counted_pct_tenths IS NULL")" -eq 6 ] ||
  fail "the counters a file before them lacks are not NULL"
[ "$(count "commit_label = 'c2' AND syscalls = 2079 AND counted_pct_tenths = 1000")" -eq 3 ] ||
  fail "the counters of 548687b's file were not stored"
[ "$(count "commit_label = 'c2' AND nvcsw = 1 AND minflt > 0")" -eq 6 ] ||
  fail "the rusage of 548687b's file was not stored"
[ "$(count "commit_label = 'c3'")" -eq 8 ] || fail "today's file: not 8 rows stored"

# The reading commands read what was added; none takes a missing figure for a number.
expect_exit 0 "history list" "$iobench" history list --history="$store"
[ "$(grep -c 'read-raw (in.txt, pipe)\|cat (in.txt, pipe)' "$tmp/out")" -ge 4 ] ||
  fail "history list: $(cat "$tmp/out")"
rc=0
"$iobench" history check --history="$store" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -ne 2 ] && [ "$rc" -ne 3 ] || fail "history check could not read the store: $(cat "$tmp/err")"
! grep -q 'syscalls 0\|context_switches 0' "$tmp/out" || fail "check took a missing counter for 0: $(cat "$tmp/out")"

# GNU time's file has no meta file (and no rusage): refused in one line, nothing stored.
before=$(count "1 = 1")
expect_exit 2 "history add of a GNU time file" "$iobench" history add --history="$store" \
  --commit c9 "$tmp/f/gnu-time/dcat.tsv"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line: $(cat "$tmp/err")"
grep -q 'dcat.tsv' "$tmp/err" || fail "the error does not name the file: $(cat "$tmp/err")"
[ "$(count "1 = 1")" -eq "$before" ] || fail "a refused add stored rows"
echo "PASS: every run file format through summarize, compare, plot, report, merge and history add"
