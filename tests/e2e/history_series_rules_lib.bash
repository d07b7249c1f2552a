# What tests/e2e/history_series_rules.sh (SQLite) and history_series_rules_postgresql.sh share
# (sourced after lib/common.bash, with $iobench set, and new_store NAME setting $store to a fresh
# store and store_state printing what a refused command must leave as it was): issue 47's three
# rules on imports written here, value for value, so that no verdict depends on the machine.
#   series_rules   runs the three cases below.

# gbench_file FILE DATE UNIT NAME=VALUE...: Google Benchmark's JSON with ten repetitions of each
# NAME around VALUE (in UNIT; a fixed spread of +-1 %), real_time and cpu_time alike.
gbench_file() {
  python3 - "$@" <<'PY' || fail "cannot write $1"
import json, sys
path, date, unit, *benchmarks = sys.argv[1:]
rows = []
for spec in benchmarks:
    name, value = spec.split("=")
    for i in range(10):
        t = float(value) * (0.99 + 0.002 * i)
        rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 10,
                     "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": t,
                     "cpu_time": t, "time_unit": unit})
context = {"date": date, "host_name": "vm", "num_cpus": 2, "cpu_scaling_enabled": False,
           "library_build_type": "release"}
json.dump({"context": context, "benchmarks": rows}, open(path, "w"))
PY
}

series_id() {  # LABEL: the id of the series history list shows as LABEL ("BM_Copy (gbench real_time)")
  "$iobench" history list --history="$store" | awk -v label="$1" 'index($0, "  " label ":") {print $1}'
}

add_import() {  # COMMIT FILE
  "$iobench" history add --history="$store" --commit "$1" "$2" 2>"$tmp/add.err" ||
    fail "history add $2: $(cat "$tmp/add.err")"
}

# 1. A series never mixes units or tools: a rename of BM_Copy in µs onto BM_Copy2 in ns, or of a
# gbench series onto a BMF one, is refused (one line, exit 2), the store left as it was; check
# then still sees two series, not 314 µs -> 710 ns "442.60 times lower".
rename_across_units() {
  new_store units
  gbench_file "$tmp/u1.json" 2026-01-01T00:01:00+00:00 us BM_Copy=314
  gbench_file "$tmp/u2.json" 2026-01-01T00:02:00+00:00 us BM_Copy=314
  gbench_file "$tmp/u3.json" 2026-01-01T00:03:00+00:00 ns BM_Copy2=710000
  printf '{"BM_Other": {"real_time": {"value": 700000.0}}}\n' >"$tmp/u4.json"
  add_import c1 "$tmp/u1.json"
  add_import c2 "$tmp/u2.json"
  add_import c3 "$tmp/u3.json"
  add_import c4 "$tmp/u4.json"
  local before copy copy2 other
  copy=$(series_id 'BM_Copy (gbench real_time)')
  copy2=$(series_id 'BM_Copy2 (gbench real_time)')
  other=$(series_id 'BM_Other (bmf real_time)')
  [ -n "$copy" ] && [ -n "$copy2" ] && [ -n "$other" ] ||
    fail "the series: $("$iobench" history list --history="$store")"
  before=$(store_state)
  one_line_exit_2 "a rename across units" \
    "$iobench" history rename --history="$store" "$copy" "$copy2" --by e2e
  grep -q ': only the command may change, and these differ: unit us vs ns$' "$tmp/bad.err" ||
    fail "the refusal does not name both units: $(cat "$tmp/bad.err")"
  [ "$(store_state)" = "$before" ] || fail "a refused rename changed the store"
  one_line_exit_2 "a rename across tools" \
    "$iobench" history rename --history="$store" "$copy2" "$other" --by e2e
  grep -q 'tool gbench vs bmf' "$tmp/bad.err" || fail "the refusal: $(cat "$tmp/bad.err")"
  [ "$(store_state)" = "$before" ] || fail "a refused rename changed the store"
  "$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
  [ "$(grep -c 'BM_Copy (gbench real_time)' "$tmp/list.out")" -eq 1 ] &&
    [ "$(grep -c 'BM_Copy2 (gbench real_time)' "$tmp/list.out")" -eq 1 ] ||
    fail "the series were joined: $(cat "$tmp/list.out")"
}

# 2. One change, one id: c1 to c3 at 100 ns, c4 and c5 at 200 ns (too few for a change point):
# check's id in every format is the feed's entry's, list's and the one ack takes; acking it
# passes check.
one_change_one_id() {
  new_store ids
  local c value id
  for c in 1 2 3 4 5; do
    value=100
    [ "$c" -lt 4 ] || value=200
    gbench_file "$tmp/i$c.json" "2026-01-01T00:0$c:00+00:00" ns BM_Changed=$value BM_Steady=50
    add_import "c$c" "$tmp/i$c.json"
  done
  set +e
  "$iobench" history check --history="$store" --session-spread 1 >"$tmp/check.out" 2>"$tmp/check.err"
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "check exited $rc, not 1: $(cat "$tmp/check.out" "$tmp/check.err")"
  id=$(awk '/^regression .* BM_Changed \(gbench real_time\)/ {print $2}' "$tmp/check.out")
  [ -n "$id" ] || fail "no regression of BM_Changed: $(cat "$tmp/check.out")"
  local format
  for format in markdown github; do  # each names the change by the same id
    "$iobench" history check --history="$store" --session-spread 1 --format "$format" \
      >"$tmp/check.$format" 2>/dev/null || true
    grep -F 'BM_Changed (gbench real_time)' "$tmp/check.$format" | grep -qF "$id" ||
      fail "check --format $format names another id than $id: $(cat "$tmp/check.$format")"
  done
  "$iobench" history check --history="$store" --session-spread 1 --format json \
    >"$tmp/check.json" 2>/dev/null || true
  python3 - "$tmp/check.json" "$id" <<'PY' || fail "check's JSON names another id: $(cat "$tmp/check.json")"
import json, sys
cells = [c for c in json.load(open(sys.argv[1]))["series"] if c["test"] == "BM_Changed"
         and c["sink"] == "real_time"]
assert [c["change_id"] for c in cells] == [sys.argv[2]], cells
assert cells[0]["commits"]["to"] == "c4", cells  # the run it came in, not the newest (c5)
PY
  "$iobench" history publish --history="$store" -o "$tmp/site" 2>"$tmp/publish.err" ||
    fail "publish exited $?: $(cat "$tmp/publish.err")"
  python3 - "$tmp/site/feed.atom" "$id" <<'PY' || fail "the feed names another id: $(cat "$tmp/site/feed.atom")"
import sys, xml.etree.ElementTree as ET
atom = "{http://www.w3.org/2005/Atom}"
entries = [e for e in ET.parse(sys.argv[1]).getroot().findall(atom + "entry")
           if "BM_Changed (gbench real_time)" in e.findtext(atom + "title")]
assert len(entries) == 1, [e.findtext(atom + "title") for e in entries]
series, run = sys.argv[2].split("@")
assert entries[0].findtext(atom + "title").startswith(f"regression {sys.argv[2]} "), entries[0].findtext(atom + "title")
assert entries[0].findtext(atom + "id").startswith(f"urn:iobench:change:{series}"), entries[0].findtext(atom + "id")
assert f"@{run}" in entries[0].findtext(atom + "id"), entries[0].findtext(atom + "id")
PY
  "$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
  grep -q "BM_Changed (gbench real_time): no change point yet; check: regression $id (+[0-9.]* % since c4)" \
    "$tmp/list.out" || fail "list names another id than $id: $(cat "$tmp/list.out")"
  "$iobench" history ack --history="$store" "$id" --why "twice the work, on purpose" --by e2e \
    2>"$tmp/ack.err" || fail "ack exited $?: $(cat "$tmp/ack.err")"
  # cpu_time is the same change under its own id: acknowledged too, so that the gate can pass.
  local cpu_id
  cpu_id=$(awk '/^regression .* BM_Changed \(gbench cpu_time\)/ {print $2}' "$tmp/check.out")
  [ -n "$cpu_id" ] && [ "$cpu_id" != "$id" ] || fail "cpu_time's id: $(cat "$tmp/check.out")"
  "$iobench" history ack --history="$store" "$cpu_id" --why "the same change" --by e2e 2>/dev/null ||
    fail "ack of $cpu_id exited $?"
  "$iobench" history check --history="$store" --session-spread 1 >"$tmp/check.out" 2>"$tmp/check.err" ||
    fail "check after the acks exited $?: $(cat "$tmp/check.out" "$tmp/check.err")"
  "$iobench" history publish --history="$store" -o "$tmp/site" 2>"$tmp/publish.err" ||
    fail "publish exited $?: $(cat "$tmp/publish.err")"
  ! grep -q '<entry>' "$tmp/site/feed.atom" || fail "an acknowledged change is still in the feed"
}

# 3. A trend is never a bare "none": BMF gives one value a run, too few for check and for a
# change point; list says so beside the +98.4 %.
trend_without_a_change() {
  new_store trend
  printf '{"bench": {"latency": {"value": 1000.0}}}\n' >"$tmp/t1.json"
  printf '{"bench": {"latency": {"value": 1984.0}}}\n' >"$tmp/t2.json"
  add_import c1 "$tmp/t1.json"
  add_import c2 "$tmp/t2.json"
  "$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
  grep -q '+98.4 %  bench (bmf latency): none: too few runs to tell (2 with a row that counts, a change point needs 8; check: too few rows to judge (1 of the baseline, 1 of the newest run))$' \
    "$tmp/list.out" || fail "list: $(cat "$tmp/list.out")"
}

series_rules() {
  rename_across_units
  one_change_one_id
  trend_without_a_change
}
