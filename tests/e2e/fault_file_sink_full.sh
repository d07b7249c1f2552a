#!/usr/bin/env bash
# Fault: a worker writes far more than fits to a file sink on a full disk. The sink's private
# folder lives beside the results, on a small tmpfs (needs root; skipped with the reason
# otherwise). That run is `error` (the driver sees the sink's disk full), the matrix goes on (the next strategy's rows are there),
# the results file stays well-formed and the sink file is removed.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
mount_small_tmpfs fault_file_sink_full 1m

printf 'x\n' >"$tmp/in.txt"
cat >"$tmp/big.json" <<'EOF2'
{"name": "big", "inputs": [{"path": "in.txt"}],
 "strategies": [
   {"name": "huge", "command": ["head", "-c", "64M", "/dev/zero"], "verify": false},
   {"name": "after", "command": ["echo", "hi"], "verify": false}],
 "sinks": ["file"], "repeats": 2, "warmup": 0, "cache": "none", "order": "grouped"}
EOF2
set +e
timeout -k 5 120 "$bin/iobench" run "$tmp/big.json" -o "$mnt/runs.tsv" --quiet >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "exit $rc (want 1: a run failed, the matrix went on): $(cat "$tmp/err")"
huge=$(run_awk 'col("test") == "huge" { print col("status") }' "$mnt/runs.tsv" | sort -u)
[ "$huge" = error ] || fail "huge runs: status '$huge' (want error)"
after=$(run_awk 'col("test") == "after" && col("status") == "ok"' "$mnt/runs.tsv" | wc -l)
[ "$after" -eq 2 ] || fail "after the full disk: $after ok rows (want 2)"
grep -qi "no space left" "$tmp/err" || fail "the warning does not say the disk is full: $(cat "$tmp/err")"
bad=$(malformed_lines "$mnt/runs.tsv" | sed -n 1,3p)
[ -z "$bad" ] || fail "malformed rows: $bad"
! ls -d "$mnt"/.sinks-* >/dev/null 2>&1 || fail "private sink folder left behind"
[ "$(df --output=used -k "$mnt" | tail -1)" -lt 200 ] || fail "sink data left on the disk"
echo "fault_file_sink_full: huge status '$huge', the matrix went on (2 ok rows after), exit 1"
