#!/usr/bin/env bash
# A word that names no subcommand, where one must come: one line that names the word and, for a
# typo, the command it most likely meant; exit 2 (CLI11 alone said "A subcommand is required").
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

expect() {  # EXPECTED-LINE ARGS...
  local expected=$1 status=0
  shift
  "$bin/iobench" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  [ "$status" -eq 2 ] || fail "iobench $*: exit $status, not 2"
  [ "$(cat "$tmp/err")" = "$expected" ] || fail "iobench $*: $(cat "$tmp/err")"
  [ -s "$tmp/out" ] && fail "iobench $*: wrote to stdout"
  return 0
}

expect "iobench: 'sumarize' is not a command; did you mean 'summarize'? (see iobench --help)" \
  sumarize results/x.tsv
expect "iobench history: 'chek' is not a command; did you mean 'check'? (see iobench history --help)" \
  history chek
expect "iobench: 'frobnicate' is not a command (see iobench --help)" frobnicate
# Options before the subcommand are still CLI11's to judge, and no subcommand at all is its error.
expect "iobench: A subcommand is required (see iobench --help)"
echo "cli_unknown_command: ok"
