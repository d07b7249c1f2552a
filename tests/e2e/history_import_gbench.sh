#!/usr/bin/env bash
# End to end: Google Benchmark's own JSON (Debian's libbenchmark-dev) into the history
# (docs/history.md, "Other harnesses"): a tiny benchmark built here, run with 10 repetitions over
# three commits, BM_Changed's loop count tripled in the third: check flags it (exit 1) and not
# BM_Steady; each repetition is a sample.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
[ -e /usr/include/benchmark/benchmark.h ] ||
  skip "libbenchmark-dev is not installed (apt-get install libbenchmark-dev)"
command -v g++ >/dev/null || skip "g++ is needed to build the benchmark"
command -v python3 >/dev/null || skip "python3 is needed to read JSON"
iobench=$bin/iobench
store=$tmp/history.sqlite
source "$src/tests/e2e/history_import_lib.bash"

build() {  # NAME LOOPS: BM_Changed runs LOOPS additions an iteration, BM_Steady 1000
  g++ -O2 -DLOOPS="$2" -o "$tmp/$1" "$src/tests/fixtures/imports/gbench_tiny.cc" -lbenchmark \
    -lpthread || fail "cannot build the benchmark"
}
# Ten rounds of c1, c2 and c3 in turn, one repetition each, merged into one file a commit (its
# 10 repetitions, the aggregates left out): the machine's drift reaches the three alike, as in
# iobench's own interleaved runs. Measured one after another, this host's speed moved 30-70 %
# between benchmark processes a tenth of a second apart (BM_Steady 309, 382, 445 ns), and in
# episodes of several processes (340 to 620 ns in 20 runs of one binary): five rounds of two
# repetitions still left CI's c1 and c2 31-54 % apart in 3 of 3 tries.
rounds=$(seq 1 10)
run_rounds() {
  local round commit_binary
  for round in $rounds; do
    for commit_binary in c1:before c2:before c3:after; do
      "$tmp/${commit_binary#*:}" --benchmark_repetitions=1 --benchmark_min_time=0.01 \
        --benchmark_format=json >"$tmp/${commit_binary%%:*}-$round.json" 2>/dev/null ||
        fail "the benchmark failed for ${commit_binary%%:*}"
    done
  done
  python3 - "$tmp" <<'PY' || fail "cannot merge the rounds' JSON"
import json, sys
folder = sys.argv[1]
for commit in ("c1", "c2", "c3"):
    rounds = [json.load(open(f"{folder}/{commit}-{r}.json")) for r in range(1, 11)]
    merged = rounds[0]
    merged["benchmarks"] = [b for run in rounds for b in run["benchmarks"]
                            if b.get("run_type", "iteration") == "iteration"]
    json.dump(merged, open(f"{folder}/{commit}.json", "w"))
PY
}
# A CPU-bound loop of ~300 ns follows the machine's speed: CI once saw c2's BM_Changed (the same
# binary as c1's) at twice c1's time in 6 of its 10 repetitions, which check rightly took for a
# change in c1..c2. So the three are measured again (4 tries at most) unless the code that did not
# change kept its median within 30 % of c1's (below check's --min-effect of 40 %, far below the
# change's 200 %): BM_Steady in c2 and c3, BM_Changed in c2, in
# cpu_time, the figure check judges below. Another CI run (this test alone, RUN_SERIAL) had c1's
# benchmarks 40 % slower than c2's in all 3 tries (529 ns against 386) when each commit was
# measured in one go: hence the rounds.
disturbed() {  # prints what the machine moved, if it moved anything
  python3 - "$tmp/c1.json" "$tmp/c2.json" "$tmp/c3.json" <<'PY'
import json, statistics, sys
def median(path, name):
    runs = json.load(open(path))["benchmarks"]
    return statistics.median(b["cpu_time"] for b in runs
                             if b["run_name"] == name and b["run_type"] == "iteration")
c1, c2, c3 = sys.argv[1:]
moved = []
unchanged = ((c2, "c2", "BM_Steady"), (c3, "c3", "BM_Steady"), (c2, "c2", "BM_Changed"))
for path, commit, name in unchanged:
    ref, now = median(c1, name), median(path, name)
    if abs(now / ref - 1) > 0.3:
        moved.append(f"{name} {ref:.0f} ns in c1, {now:.0f} ns in {commit}")
print("; ".join(moved))
PY
}
add() {  # COMMIT
  "$iobench" history add --history="$store" --commit "$1" "$tmp/$1.json" \
    2>"$tmp/add-$1.err" || fail "history add $1: $(cat "$tmp/add-$1.err")"
}
build before 1000
build after 3000
for try in 1 2 3 4; do
  run_rounds
  moved=$(disturbed) || fail "cannot read the benchmark's JSON"
  [ -z "$moved" ] && break
  [ "$try" -lt 4 ] || fail "the machine moved the unchanged code's times in 4 tries: $moved"
  echo "note: try $try: the machine moved the unchanged code's times ($moved); measured again"
done
add c1
add c2
add c3
grep -q "40 rows, 0 new series (commit c3)" "$tmp/add-c3.err" ||
  fail "each repetition is a row (2 benchmarks x real and cpu time x 10): $(cat "$tmp/add-c3.err")"

# The change triples the work; a loaded machine moves the steady one by several per cent.
# BM_Steady may be "faster" in real_time when the machine was busier before (wall time counts the
# time others had the CPU); a regression it never is. Two earlier sessions say nothing of how far
# sessions drift: the spread is stated (docs/history.md, "Sessions").
expect_one_slower "$store" '^regression .* BM_Changed \(gbench cpu_time\): cpu_time ' \
  'BM_Steady' '; exit 1' --min-effect 40 --session-spread 10
grep -q 'change in c2..c3' "$tmp/check.out" || fail "no commit range: $(cat "$tmp/check.out")"
"$iobench" history list --history="$store" >"$tmp/list.out"
grep -q 'BM_Steady (gbench real_time)' "$tmp/list.out" || fail "list: $(cat "$tmp/list.out")"
echo "history_import_gbench: ok"
