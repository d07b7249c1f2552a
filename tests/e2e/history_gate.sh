#!/usr/bin/env bash
# End to end, SQLite: `history check` as a merge gate that fails safe (docs/history.md, "Exit
# statuses"), on stores of real `bench` runs: 0 only when every series was judged and none
# regressed; 2 for a --base that names nothing, too little or several commits; 4 for a new series,
# a missing one, every row disturbed, too few rows, a busy machine, each unless its --allow-*
# accepts it; 1 when a regression comes with those; history rename keeps a series across a text
# change; --format github and markdown line by line, json. tests/e2e/history_gate_postgresql.sh
# runs the same cases against a real PostgreSQL server.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files and read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/history_lib.bash"
source "$src/tests/e2e/history_gate_lib.bash"
new_store() { store=$tmp/$1.sqlite; }

gate_measure
gate_cases
echo "history_gate: ok"
