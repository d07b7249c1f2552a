# What `history check` judges a series against, and by how much (docs/history.md, "The baseline",
# "Check"): its own branch and the default branch, never another feature branch; a threshold per
# measure. Shared by history_baseline.sh (SQLite) and history_baseline_postgresql.sh (a real
# server). Sourced after lib/common.bash with $iobench set and new_store NAME defined (it sets
# $store). Results are hyperfine and gbench JSON made here with fixed seeds, so every verdict is
# the same on every machine.

# hyperfine_result FILE MEAN_S SEED [RUNS [SPREAD]]: RUNS runs (10) of `work` around MEAN_S,
# spread SPREAD (0.01: 1 %), never below a tenth of it.
hyperfine_result() {
  python3 - "$@" <<'PY'
import json, random, sys
out, mean, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
n = int(sys.argv[4]) if len(sys.argv) > 4 else 10
spread = float(sys.argv[5]) if len(sys.argv) > 5 else 0.01
r = random.Random(seed)
times = [max(mean * (1 + r.gauss(0, spread)), mean / 10) for _ in range(n)]
json.dump({"results": [{"command": "work", "mean": sum(times) / n, "stddev": 0.0,
                        "median": sorted(times)[n // 2], "user": 0.001, "system": 0.001,
                        "min": min(times), "max": max(times), "times": times,
                        "exit_codes": [0] * n}]}, open(out, "w"))
PY
}
seed=0
add_at() {  # COMMIT BRANCH MEAN_S
  seed=$((seed + 1))
  hyperfine_result "$tmp/$1.json" "$3" "$seed"
  "$iobench" history add --history="$store" --commit "$1" --branch "$2" "$tmp/$1.json" 2>/dev/null ||
    fail "history add $1 failed"
}
check_says() {  # EXPECTED_STATUS REGEX [CHECK_OPTION...]: the check's stdout and stderr match
  local want=$1 regex=$2 status
  shift 2
  set +e
  "$iobench" history check --history="$store" --session-spread 2 "$@" >"$tmp/check.out" 2>&1
  status=$?
  set -e
  [ "$status" -eq "$want" ] && grep -Eq "$regex" "$tmp/check.out" ||
    fail "check $*: exit $status (expected $want), not matching $regex: $(cat "$tmp/check.out")"
}

branches_cases() {
  # Issue 47's case: main fast twice, feature branch pr-a slow twice, then pr-c as slow as pr-a.
  # Against pr-a's runs it looked steady; against main (the default branch) it is 30 % slower, and
  # the change is pr-c's own commit, not pr-a's.
  new_store default
  add_at a1 main 0.010
  add_at b2 main 0.010
  add_at p1 pr-a 0.013
  add_at p2 pr-a 0.013
  add_at c1 pr-c 0.013
  check_says 1 '^regression .* against 20 rows of 2 runs, .*change in b2\.\.c1;'
  # CI names the target branch: GITHUB_BASE_REF=pr-a makes pr-a the line's other branch.
  GITHUB_BASE_REF=pr-a check_says 0 'exit 0: every series judged'
  check_says 0 'exit 0: every series judged' --default-branch pr-a
  # --base main names the same runs; the range is still the pull request's own commit.
  check_says 1 '^regression .*change in b2\.\.c1;' --base main
  check_says 1 '"default_branch": "main"' --format json

  # A pull request's second commit, --base main: the slowdown came in at its first (c3), and
  # another branch's slow run added between them is no part of it.
  new_store range
  add_at a1 main 0.010
  add_at b2 main 0.010
  add_at x1 pr-x 0.013
  add_at c3 pr 0.013
  add_at d4 pr 0.013
  check_says 1 '^regression .*change in b2\.\.c3;' --base main
  echo "history_baseline: the default branch, --default-branch, GITHUB_BASE_REF and --base ranges"
}

# gbench_result FILE REAL_NS CPU_NS SEED: ten repetitions of BM_Copy, spread 1 %.
gbench_result() {
  python3 - "$@" <<'PY'
import json, random, sys
out, real, cpu, seed = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
r = random.Random(seed)
rows = [{"name": "BM_Copy", "run_name": "BM_Copy", "run_type": "iteration", "repetitions": 10,
         "repetition_index": i, "threads": 1, "iterations": 1000,
         "real_time": real * (1 + r.gauss(0, 0.01)), "cpu_time": cpu * (1 + r.gauss(0, 0.01)),
         "time_unit": "ns"} for i in range(10)]
context = {"host_name": "ci", "num_cpus": 2, "mhz_per_cpu": 2600, "cpu_scaling_enabled": False,
           "library_build_type": "release"}
json.dump({"context": context, "benchmarks": rows}, open(out, "w"))
PY
}

# A threshold for one measure of a benchmark (issue 47: --min-effect saw the test name alone).
measure_cases() {
  new_store measure
  local commit real cpu
  for commit in c1 c2 c3; do
    real=1000 cpu=500
    [ "$commit" = c3 ] && real=1200 cpu=600  # both 20 % slower
    seed=$((seed + 1))
    gbench_result "$tmp/$commit.json" "$real" "$cpu" "$seed"
    "$iobench" history add --history="$store" --commit "$commit" --branch main "$tmp/$commit.json" \
      2>/dev/null || fail "history add $commit failed"
  done
  check_says 1 '2 series: 1 regression, 1 steady; exit 1' --min-effect 10 \
    --min-effect 'BM_Copy cpu_time=30'
  grep -q '^regression .*BM_Copy (gbench real_time)' "$tmp/check.out" ||
    fail "real_time is not the regression: $(cat "$tmp/check.out")"
  check_says 0 'exit 0: every series judged' --min-effect '.*_time=30'
  echo "history_baseline: --min-effect for one measure of a benchmark"
}

# Too weak to decide is not steady (issue 47: 1.32, p = 0.065, [0.42, 1.70] on 6 runs against 6
# was "steady", exit 0): six runs a side spread 30 %, the newest 20 % slower, the rows alone
# deciding (--session-spread 0). Not judged, exit 4, unless --allow-underpowered.
underpowered_cases() {
  new_store weak
  local status
  hyperfine_result "$tmp/w1.json" 0.010 101 6 0.3
  hyperfine_result "$tmp/w2.json" 0.012 102 6 0.3
  "$iobench" history add --history="$store" --commit w1 --branch main "$tmp/w1.json" 2>/dev/null
  "$iobench" history add --history="$store" --commit w2 --branch main "$tmp/w2.json" 2>/dev/null
  set +e
  "$iobench" history check --history="$store" --session-spread 0 >"$tmp/weak.out" 2>&1
  status=$?
  set -e
  [ "$status" -eq 4 ] &&
    grep -Eq '^underpowered .* work \(hyperfine real_time\): .*too weak to judge: the ratio.s interval \[[0-9.]+, [0-9.]+\] reaches past the 5 % allowed.*not judged \(exit 4; --allow-underpowered accepts it\)$' "$tmp/weak.out" ||
    fail "a weak comparison: exit $status: $(cat "$tmp/weak.out")"
  "$iobench" history check --history="$store" --session-spread 0 --allow-underpowered \
    >"$tmp/weak.out" 2>&1 || fail "--allow-underpowered: exit $?: $(cat "$tmp/weak.out")"
  grep -q 'accepted by --allow-underpowered' "$tmp/weak.out" || fail "$(cat "$tmp/weak.out")"
  echo "history_baseline: a comparison too weak to rule out the allowed slowdown is not judged"
}

# A command whose output mismatches the reference's at its first run keeps that run's row, so the
# history has its series and check says it could not judge it (issue 47: it never got a series,
# and check said "every series judged").
mismatch_cases() {
  new_store mismatch
  set +e
  "$iobench" bench -q -r 3 --history="$store" -o "$tmp/mismatch.tsv" 'echo same' 'echo other' \
    >/dev/null 2>"$tmp/mismatch.err"
  local status=$?
  set -e
  [ "$status" -eq 1 ] || fail "bench with a mismatch: exit $status: $(cat "$tmp/mismatch.err")"
  set +e
  "$iobench" history check --history="$store" --allow-new-series >"$tmp/check.out" 2>&1
  status=$?
  set -e
  [ "$status" -eq 4 ] &&
    grep -q "^nothing counts .* echo other (pipe): the newest run has no ok, verified row (1 mismatch); not judged (exit 4)$" "$tmp/check.out" ||
    fail "check of a mismatched command: exit $status: $(cat "$tmp/check.out")"
  echo "history_baseline: a command that mismatched at its first run is in the history, not judged"
}
