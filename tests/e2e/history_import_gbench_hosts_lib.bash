# What tests/e2e/history_import_gbench_hosts*.sh share (sourced after lib/common.bash, with
# $iobench set; not a test itself): Google Benchmark files made here from the real file's context
# (tests/fixtures/imports/gbench-1.7.1.json), values fixed, so no verdict depends on the machine
# (docs/history.md, "Google Benchmark"; issue 47). The caller defines `new_store NAME`, which sets
# $store to a fresh, empty store.
#   gbench_hosts_cases   every case below, each in a store of its own.

# FILE HOST CPUS HOUR CHANGED_NS [COUNTER]: BM_Steady at 300 ns and BM_Changed at CHANGED_NS, ten
# repetitions each (a fixed spread of 1 %), measured on HOST with CPUS CPUs at HOUR:00 UTC; each
# repetition with a user counter MyCounter of COUNTER where given.
gbench_file() {
  python3 - "$src/tests/fixtures/imports/gbench-1.7.1.json" "$@" <<'PY' || fail "cannot write $1"
import json, sys
fixture, out, host, cpus, hour, changed = sys.argv[1:7]
counter = float(sys.argv[7]) if len(sys.argv) > 7 else None
doc = json.load(open(fixture))
doc["context"].update(host_name=host, num_cpus=int(cpus), date=f"2026-12-03T{int(hour):02d}:00:00+00:00")
rows = []
for name, ns in (("BM_Steady", 300.0), ("BM_Changed", float(changed))):
    for i in range(10):
        row = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 10,
               "repetition_index": i, "threads": 1, "iterations": 1000,
               "real_time": ns * (1 + 0.001 * i), "cpu_time": ns * (1 + 0.001 * i), "time_unit": "ns"}
        if counter is not None:
            row["MyCounter"] = counter * (1 + 0.001 * i)
        rows.append(row)
doc["benchmarks"] = rows
json.dump(doc, open(out, "w"))
PY
}

gbench_add() {  # FILE COMMIT [OPTION...]: history add into $store, its stderr in $tmp/add.err
  local file=$1 commit=$2
  shift 2
  "$iobench" history add --history="$store" --commit "$commit" "$@" "$file" 2>"$tmp/add.err" ||
    fail "history add $file: $(cat "$tmp/add.err")"
}

gbench_check() {  # EXPECTED_STATUS [OPTION...]: history check of $store, out in $tmp/check.out
  local expected=$1 status=0
  shift
  "$iobench" history check --history="$store" --session-spread 1 "$@" >"$tmp/check.out" \
    2>"$tmp/check.err" || status=$?
  [ "$status" -eq "$expected" ] ||
    fail "check $* exited $status, not $expected: $(cat "$tmp/check.out" "$tmp/check.err")"
}

# 1. Two files that differ only in host_name are two hosts' series: the second host's newest run
#    is not judged against the first host's (before: it joined them, and its 2x slower BM_Changed
#    was a regression of alpha's series).
gbench_hosts_case() {
  new_store hosts
  local d=$tmp/hosts
  mkdir "$d"
  gbench_file "$d/a1.json" alpha 2 6 1000
  gbench_file "$d/a2.json" alpha 2 7 1000
  gbench_file "$d/b3.json" beta 2 8 2000
  gbench_add "$d/a1.json" c1
  gbench_add "$d/a2.json" c2
  gbench_add "$d/b3.json" c3
  grep -q "40 rows, 4 new series (commit c3)" "$tmp/add.err" ||
    fail "beta's file joined alpha's series: $(cat "$tmp/add.err")"
  gbench_check 4
  [ "$(grep -c '^no baseline ' "$tmp/check.out")" -eq 4 ] ||
    fail "beta's series were judged against alpha's: $(cat "$tmp/check.out")"
  grep -q '^regression' "$tmp/check.out" && fail "a regression across hosts: $(cat "$tmp/check.out")"
  local beta
  beta=$(sed -n 's/^no baseline \([0-9a-f]*\)@.*/\1/p' "$tmp/check.out" | head -1)
  "$iobench" history show --history="$store" "$beta" >"$tmp/show.out"
  grep -q 'host class beta | 2 CPUs | 2.6 GHz | caches L1d 48 KiB, L1i 64 KiB' "$tmp/show.out" ||
    fail "show names no host class of beta: $(cat "$tmp/show.out")"
}

# 2. The same host with 4 CPUs where it had 2: the old class's last verdict (c2's regression) is
#    not the newest run's; c3's series are new (exit 4, 0 with --allow-new-series). Before: exit 1.
gbench_cpus_case() {
  new_store cpus
  local d=$tmp/cpus
  mkdir "$d"
  gbench_file "$d/c1.json" x 2 6 1000
  gbench_file "$d/c1b.json" x 2 7 1000
  gbench_file "$d/c2.json" x 2 8 2000
  gbench_file "$d/c3.json" x 4 9 1000
  gbench_add "$d/c1.json" c1
  gbench_add "$d/c1b.json" c1
  gbench_add "$d/c2.json" c2
  gbench_check 1
  grep -q '^regression .* BM_Changed (gbench cpu_time)' "$tmp/check.out" ||
    fail "c2's slowdown is no regression: $(cat "$tmp/check.out")"
  gbench_add "$d/c3.json" c3
  gbench_check 4
  [ "$(grep -c '^no baseline ' "$tmp/check.out")" -eq 4 ] ||
    fail "c3's series: $(cat "$tmp/check.out")"
  [ "$(grep -c '^other machine .*has no run of c3' "$tmp/check.out")" -eq 4 ] ||
    fail "the 2-CPU series: $(cat "$tmp/check.out")"
  grep -q '^regression' "$tmp/check.out" && fail "c2's stale regression: $(cat "$tmp/check.out")"
  grep -q '8 series: 4 no baseline, 4 other machine; exit 4' "$tmp/check.err" ||
    fail "summary: $(cat "$tmp/check.err")"
  gbench_check 0 --allow-new-series
}

# 3. User counters: without a direction, left out and said in one line; --higher-is-better and
#    --lower-is-better import them with it (no unit); a bad regex is exit 2, nothing stored.
gbench_counters_case() {
  local d=$tmp/counters
  mkdir "$d"
  gbench_file "$d/c1.json" x 2 6 1000 100
  gbench_file "$d/c2.json" x 2 7 1000 100
  gbench_file "$d/c3.json" x 2 8 1000 50
  new_store counters_left_out
  gbench_add "$d/c1.json" c1
  [ "$(grep -c 'not imported' "$tmp/add.err")" -eq 1 ] &&
    grep -q "c1.json: 1 counter not imported (MyCounter): the file says not whether higher or lower is better; history add --higher-is-better REGEX or --lower-is-better REGEX imports those the regex names$" "$tmp/add.err" ||
    fail "the add does not say MyCounter was left out: $(cat "$tmp/add.err")"
  "$iobench" history list --history="$store" >"$tmp/list.out"
  grep -q MyCounter "$tmp/list.out" && fail "MyCounter imported without a direction"
  local status=0
  "$iobench" history add --history="$store" --commit c2 --higher-is-better '(' "$d/c2.json" \
    2>"$tmp/bad.err" || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] &&
    grep -q 'history add --higher-is-better (: not a regex' "$tmp/bad.err" ||
    fail "a bad regex: exit $status, $(cat "$tmp/bad.err")"
  "$iobench" history list --history="$store" >"$tmp/list2.out"
  cmp -s "$tmp/list.out" "$tmp/list2.out" || fail "the failed add stored something"
  local way
  for way in higher lower; do
    new_store "counters_$way"
    gbench_add "$d/c1.json" c1 "--$way-is-better" 'My.*'
    grep -q 'not imported' "$tmp/add.err" && fail "--$way-is-better: $(cat "$tmp/add.err")"
    gbench_add "$d/c2.json" c2 "--$way-is-better" 'My.*'
    gbench_add "$d/c3.json" c3 "--$way-is-better" 'My.*'
    if [ "$way" = higher ]; then  # MyCounter halved: a regression where higher is better
      gbench_check 1
      grep -q "^regression .* BM_Steady (gbench MyCounter): MyCounter 100.4 -> 50.22, 2.00 times lower.*(higher is better)" "$tmp/check.out" ||
        fail "MyCounter halved, higher is better: $(cat "$tmp/check.out")"
    else
      gbench_check 0
      grep -q "^faster .* BM_Steady (gbench MyCounter): .*(lower is better)" "$tmp/check.out" ||
        fail "MyCounter halved, lower is better: $(cat "$tmp/check.out")"
    fi
  done
}

gbench_hosts_cases() {
  gbench_hosts_case
  gbench_cpus_case
  gbench_counters_case
}
