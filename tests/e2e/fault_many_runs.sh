#!/usr/bin/env bash
# Fault: very many runs in one matrix. The driver's resident memory and open descriptors (and its
# spawner's) stay flat: sampled from /proc at about 10% and 70% of the runs. The count is
# IOBENCH_MANY_RUNS (default 3000 to keep CI short; 10000 was measured by hand, see
# docs/reliability.md).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
n=${IOBENCH_MANY_RUNS:-3000}
drv=""
on_exit '[ -n "$drv" ] && kill "$drv" 2>/dev/null'
printf 'x\n' >"$tmp/in.txt"
cat >"$tmp/many.json" <<EOF2
{"name": "many", "inputs": [{"path": "in.txt"}],
 "strategies": [{"name": "true", "command": ["true"], "verify": false}],
 "sinks": ["null", "pipe", "file"], "repeats": $(( (n + 2) / 3 )), "warmup": 0, "cache": "none"}
EOF2
total=$(( (n + 2) / 3 * 3 ))
start=$SECONDS
"$bin/iobench" run "$tmp/many.json" -o "$tmp/runs.tsv" --quiet >/dev/null 2>"$tmp/err" &
drv=$!
sample_once() {  # prints "rss_kib fds spawner_rss spawner_fds"
  local spawner
  spawner=$(pgrep -P "$drv" | head -1 || true)
  local r f sr=0 sf=0
  [ -d "/proc/$drv" ] || return 0
  r=$(awk '/^VmRSS/ { print $2 }' "/proc/$drv/status")
  f=$(ls "/proc/$drv/fd" | wc -l)
  if [ -n "$spawner" ] && [ -d "/proc/$spawner" ]; then
    sr=$(awk '/^VmRSS/ { print $2 }' "/proc/$spawner/status" 2>/dev/null || echo 0)
    sf=$(ls "/proc/$spawner/fd" 2>/dev/null | wc -l)
  fi
  echo "$r $f $sr $sf"
}
# The minimum of several samples: a run in flight holds its sink and stderr descriptors.
sample() {
  local i
  for i in 1 2 3 4 5; do sample_once; sleep 0.03; done |
    awk 'NR == 1 || $1 < a { a = $1 } NR == 1 || $2 < b { b = $2 } NR == 1 || $3 < c { c = $3 }
         NR == 1 || $4 < d { d = $4 } END { print a, b, c, d }'
}
has_rows() {
  [ "$( (wc -l <"$tmp/runs.tsv") 2>/dev/null || echo 0)" -ge "$1" ] && return
  kill -0 "$drv" 2>/dev/null || fail "driver ended early: $(cat "$tmp/err")"
  return 1
}
wait_rows() { wait_until 300 "$1 lines in the run file" has_rows "$1"; }
wait_rows $((total / 10))
early=$(sample)
wait_rows $((total * 7 / 10))
late=$(sample)
wait "$drv"; rc=$?; drv=""
secs=$((SECONDS - start))
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
rows=$(run_awk 'col("status") == "ok"' "$tmp/runs.tsv" | wc -l)
[ "$rows" -eq "$total" ] || fail "$rows ok rows of $total"
[ -n "$early" ] && [ -n "$late" ] || fail "could not sample the driver (early '$early', late '$late')"
read -r r1 f1 sr1 sf1 <<<"$early"
read -r r2 f2 sr2 sf2 <<<"$late"
echo "fault_many_runs: $total runs in ${secs}s; driver RSS ${r1}->${r2} KiB, fds ${f1}->${f2}; spawner RSS ${sr1}->${sr2} KiB, fds ${sf1}->${sf2}"
# Minimums over several samples; allow one in-flight descriptor, and a little RSS wobble.
# A sample taken mid-run holds that run's descriptors (a pipe sink's three and the stderr memfd in
# the driver; stdout, stderr, pidfd and /dev/null in the spawner), so two samples may differ by a
# few; a leak of one descriptor per run would show as hundreds.
[ $((f2 - f1)) -le 8 ] || fail "driver fds grew: $f1 -> $f2"
[ $((sf2 - sf1)) -le 8 ] || fail "spawner fds grew: $sf1 -> $sf2"
# Under AddressSanitizer freed memory sits in ASan's quarantine (256 MiB by default), so RSS
# grows until that fills whatever the code does; leaks there are LeakSanitizer's job (it runs
# when the driver exits, and would have failed the run). Only the Release build checks RSS.
if grep -q 'sanitize=' "$tmp/meta/runs.json"; then
  echo "fault_many_runs: RSS not checked in a sanitizer build (ASan quarantine); fds checked"
  exit 0
fi
[ $((r2 - r1)) -le 2048 ] || fail "driver RSS grew by $((r2 - r1)) KiB"
[ $((sr2 - sr1)) -le 1024 ] || fail "spawner RSS grew by $((sr2 - sr1)) KiB"
