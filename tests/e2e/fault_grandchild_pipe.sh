#!/usr/bin/env bash
# Fault: a worker leaves a grandchild that keeps the sink pipe open. The driver must not hang past
# timeout_s (plus the drain grace), and must leave no stray process (the spawner is a child
# subreaper: whatever the worker leaves comes to it, and is killed after the worker's wait4):
#  a) the grandchild stays in the worker's process group and sleeps: it is killed after the
#     worker is reaped; it still held the sink, so the run is `error`, with a warning naming the
#     test; the grandchild is gone.
#  b) the worker itself hangs past timeout_s with a grandchild: status timeout, both gone.
#  c) the grandchild escapes the group (setsid) and writes without end: killed all the same, the
#     run is `error` with the warning; the driver finishes.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
pids=()
on_exit 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done'
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
printf 'x\n' >"$tmp/in.txt"

run_case() {  # NAME SHELL_COMMAND TIMEOUT_S MAX_SECONDS -> sets rc, secs
  local name=$1 cmd=$2 timeout_s=$3 max=$4
  cat >"$tmp/$name.json" <<EOF2
{"name": "$name", "inputs": [{"path": "in.txt"}],
 "strategies": [{"name": "$name", "command": "$cmd", "shell": true, "verify": false}],
 "sinks": ["pipe"], "repeats": 1, "warmup": 0, "cache": "none", "timeout_s": $timeout_s}
EOF2
  local start=$SECONDS
  set +e
  timeout -k 5 60 "$bin/iobench" run "$tmp/$name.json" -o "$tmp/$name.tsv" --quiet >/dev/null 2>"$tmp/$name.err"
  rc=$?
  set -e
  secs=$((SECONDS - start))
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "$name: the driver hung (killed by timeout(1) after 60 s)"
  [ "$secs" -le "$max" ] || fail "$name: took $secs s (limit $max s)"
}
status_of() { col status "$tmp/$1.tsv" | sed -n 1p; }

# a) grandchild in the group holds stdout open and sleeps.
run_case group "sleep 300 & echo \$! > $tmp/a.pid; echo hi" 30 10
pids+=("$(cat "$tmp/a.pid")")
[ "$rc" -eq 1 ] || fail "group: exit $rc (want 1): $(cat "$tmp/group.err")"
[ "$(status_of group)" = error ] || fail "group: status $(status_of group)"
grep -q "group: left 1 process running.*still held the sink" "$tmp/group.err" ||
  fail "group: no warning naming the test: $(cat "$tmp/group.err")"
sleep 0.5
! alive "$(cat "$tmp/a.pid")" || fail "group: grandchild $(cat "$tmp/a.pid") still running"
echo "a) grandchild in group: driver took ${secs}s, status error, warned, grandchild gone"

# b) the worker hangs with a grandchild; timeout_s 2.
run_case hang "sleep 301 & echo \$! > $tmp/b.pid; sleep 302" 2 15
pids+=("$(cat "$tmp/b.pid")")
[ "$rc" -eq 1 ] || fail "hang: exit $rc (want 1): $(cat "$tmp/hang.err")"
[ "$(status_of hang)" = timeout ] || fail "hang: status $(status_of hang)"
sleep 0.5
! alive "$(cat "$tmp/b.pid")" || fail "hang: grandchild still running"
echo "b) hanging worker + grandchild: driver took ${secs}s, status timeout, grandchild gone"

# c) an escaped grandchild (new session) writing forever.
run_case escape "setsid sh -c 'echo \$\$ > $tmp/c.pid; exec yes' & sleep 0.3; echo hi" 30 15
wait_until 5 "escape: the setsid grandchild's pid file" test -s "$tmp/c.pid"
pids+=("$(cat "$tmp/c.pid")")
grep -q "escape: left 1 process running.*still held the sink" "$tmp/escape.err" ||
  fail "escape: no warning: $(cat "$tmp/escape.err")"
[ "$(status_of escape)" = error ] || fail "escape: status $(status_of escape)"
sleep 0.5
! alive "$(cat "$tmp/c.pid")" || fail "escape: the setsid grandchild is still running"
echo "c) escaped grandchild writing forever: driver took ${secs}s (exit $rc), status error, warned, grandchild gone"
