#!/usr/bin/env bash
# End to end: Google Benchmark's own JSON (Debian's libbenchmark-dev) into the history
# (docs/history.md, "Other harnesses"): a tiny benchmark built here, run with 10 repetitions over
# three commits, BM_Changed's loop count raised in the third: check flags it (exit 1) and not
# BM_Steady; each repetition is a sample.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
[ -e /usr/include/benchmark/benchmark.h ] ||
  skip "libbenchmark-dev is not installed (apt-get install libbenchmark-dev)"
command -v g++ >/dev/null || skip "g++ is needed to build the benchmark"
iobench=$bin/iobench
store=$tmp/history.sqlite
source "$src/tests/e2e/history_import_lib.bash"

build() {  # NAME LOOPS: BM_Changed runs LOOPS additions an iteration, BM_Steady 1000
  g++ -O2 -DLOOPS="$2" -o "$tmp/$1" "$src/tests/fixtures/imports/gbench_tiny.cc" -lbenchmark \
    -lpthread || fail "cannot build the benchmark"
}
measure() {  # COMMIT BINARY
  "$tmp/$2" --benchmark_repetitions=10 --benchmark_min_time=0.01 --benchmark_format=json \
    >"$tmp/$1.json" 2>/dev/null || fail "the benchmark failed for $1"
  "$iobench" history add --history="$store" --commit "$1" "$tmp/$1.json" \
    2>"$tmp/add-$1.err" || fail "history add $1: $(cat "$tmp/add-$1.err")"
}
build before 1000
build after 2000
measure c1 before
measure c2 before
measure c3 after
grep -q "40 rows, 0 new series (commit c3)" "$tmp/add-c3.err" ||
  fail "each repetition is a row (2 benchmarks x real and cpu time x 10): $(cat "$tmp/add-c3.err")"

# The change doubles the work; a loaded machine moves the steady one by several per cent.
# BM_Steady may be "faster" in real_time when the machine was busier before (wall time counts the
# time others had the CPU); a regression it never is.
expect_one_slower "$store" '^regression .* BM_Changed \(gbench cpu_time\): cpu_time ' \
  'BM_Steady' '; exit 1' --min-effect 25
grep -q 'change in c2..c3' "$tmp/check.out" || fail "no commit range: $(cat "$tmp/check.out")"
"$iobench" history list --history="$store" >"$tmp/list.out"
grep -q 'BM_Steady (gbench real_time)' "$tmp/list.out" || fail "list: $(cat "$tmp/list.out")"
echo "history_import_gbench: ok"
