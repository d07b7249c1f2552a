#!/usr/bin/env bash
# `counters`: each becomes a column (docs/formats.md), filled from perf_event_open for the worker
# and its descendants. A counter this machine cannot count (cycles without a PMU) leaves its
# cells empty, with exactly one warning and an entry in the meta file, and the run still exits 0.
# An unknown counter name is a config error (exit 2) naming its place.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

seq 1 3000 >"$tmp/input.txt"
write_config() {  # COUNTERS_JSON
  cat >"$tmp/counters.json" <<JSON
{
  "name": "counters",
  "inputs": ["input.txt"],
  "strategies": [
    {"name": "raw", "worker": ["--read", "read", "--write", "raw"]},
    {"name": "pipeline", "command": "cat {input} | cat", "shell": true}
  ],
  "sinks": ["pipe"], "repeats": 2, "warmup": 0, "cache": "none", "disturbance": "off",
  "counters": $1
}
JSON
}

# Unknown name: exit 2 before anything runs, with the JSON path.
write_config '["syscalls", "context_switches"]'
set +e
"$bin/iobench" run "$tmp/counters.json" -o "$tmp/bad.tsv" --quiet >/dev/null 2>"$tmp/bad.err"
code=$?
set -e
[ "$code" -eq 2 ] || fail "unknown counter: exit $code, want 2: $(cat "$tmp/bad.err")"
grep -q "counters\[1\]: unknown counter 'context_switches'" "$tmp/bad.err" ||
  fail "unknown counter: $(cat "$tmp/bad.err")"
[ ! -e "$tmp/bad.tsv" ] || fail "unknown counter: a run file was written"

write_config '["syscalls", "page-faults", "context-switches", "cycles"]'
set +e
"$bin/iobench" run "$tmp/counters.json" -o "$tmp/runs.tsv" --quiet >/dev/null 2>"$tmp/err.txt"
code=$?
set -e
[ "$code" -eq 0 ] || fail "exit $code: $(cat "$tmp/err.txt")"

# The columns, in schema order, after the standard ones.
head -1 "$tmp/runs.tsv" | grep -q $'\thost\tothers_cpu_s\tsteal_s\twait_cpu_s\tblock_io_wait_s\tsyscalls\tcontext_switches\tpage_faults\tcycles\tcounted_pct$' ||
  fail "header: $(head -1 "$tmp/runs.tsv")"
# cells COLUMN TEST: COLUMN of TEST's rows.
cells() { run_awk -v name="$1" -v test="$2" 'col("test") == test { print col(name) }' "$tmp/runs.tsv"; }

lines=3000
for v in $(cells page_faults raw); do [ "$v" -gt 0 ] || fail "raw: page_faults '$v'"; done
for v in $(cells counted_pct raw); do [ "$v" = 100 ] || [ "${v%%.*}" = 100 ] || fail "raw: counted_pct '$v'"; done

syscalls_note=""
if [ -n "$(cells syscalls raw | head -1)" ]; then
  # One write(2) per line: at least as many syscalls as lines.
  for v in $(cells syscalls raw); do [ "$v" -ge "$lines" ] || fail "raw: $v syscalls for $lines lines"; done
  syscalls_note="syscalls $(cells syscalls raw | head -1)"
else
  grep -q "syscalls (" "$tmp/err.txt" || fail "syscalls empty without a reason: $(cat "$tmp/err.txt")"
  syscalls_note="syscalls not countable here"
fi

meta=$(find "$tmp" -path '*meta*' -name '*.json' | head -1)
[ -n "$meta" ] || fail "no meta file"
warnings=$(grep -c "counters not counted" "$tmp/err.txt" || true)
if grep -q '"cycles"' <(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["counters"]["unavailable"]))' "$meta"); then
  [ "$warnings" -eq 1 ] || fail "want exactly one counters warning, got $warnings: $(cat "$tmp/err.txt")"
  grep "counters not counted" "$tmp/err.txt" | grep -Eq "cycles \((ENOENT|EOPNOTSUPP|EACCES)" ||
    fail "the warning does not say why: $(cat "$tmp/err.txt")"
  [ "$(cells cycles raw | grep -c .)" -eq 0 ] || fail "cycles cells should be empty: $(cells cycles raw)"
  [ "$(cells cycles raw | wc -l)" -eq 2 ] || fail "want 2 raw rows"
  echo "no PMU: cycles empty, one warning ($(grep "counters not counted" "$tmp/err.txt" | head -1))"
else
  [ "$warnings" -eq 0 ] || fail "a counters warning although all counted: $(cat "$tmp/err.txt")"
  echo "PMU present: cycles $(cells cycles raw | head -1)"
fi
echo "raw: $syscalls_note for $lines lines, page_faults $(cells page_faults raw | head -1)"
