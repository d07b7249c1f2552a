#!/usr/bin/env bash
# End to end, SQLite: Google Benchmark files of several hosts and machines, and with user counters
# (tests/e2e/history_import_gbench_hosts_lib.bash; docs/history.md, "Google Benchmark"; issue 47).
# Deterministic: the files are made here, nothing is timed.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write the benchmark files"
iobench=$bin/iobench
source "$src/tests/e2e/history_import_gbench_hosts_lib.bash"
new_store() { store=$tmp/$1.sqlite; }

gbench_hosts_cases
echo "history_import_gbench_hosts: ok"
