#!/usr/bin/env bash
# End to end, SQLite: a series is judged along its own branch and the default branch, never another
# feature branch, a change is blamed on its own branch's commits, and one measure of a benchmark
# can have its own threshold (history_baseline_lib.bash).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write the result files"
iobench=$bin/iobench
new_store() { store=$tmp/$1.sqlite; }
source "$src/tests/e2e/history_baseline_lib.bash"
branches_cases
measure_cases
underpowered_cases
mismatch_cases
