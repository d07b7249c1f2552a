#!/usr/bin/env bash
# End to end (issue 47, docs/history.md "The store"): a store name never shows its password, a
# mistyped URL is never taken for a path, and a failed `history add` leaves no new store behind;
# every --help of history lists the statuses its command gives. A libpq keyword=value string is
# a server: tests/e2e/history_postgresql.sh connects with one.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
cd "$tmp"

refused() {  # NAME [ENV]: exit 2, one line, no password, nothing made in the folder
  local name=$1 rc
  set +e
  if [ "${2:-}" = env ]; then
    IOBENCH_HISTORY=$name "$iobench" history check >out 2>err
  else
    "$iobench" history check --history="$name" >out 2>err
  fi
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, not 2: $(cat err)"
  [ "$(wc -l <err)" -eq 1 ] || fail "$name: not one line: $(cat err)"
  ! grep -q s3cr3tpw err || fail "$name: the password shows: $(cat err)"
  [ "$(ls -A | grep -cv '^\(out\|err\)$')" -eq 0 ] || fail "$name: made $(ls -A)"
}
for name in mysql://ci:s3cr3tpw@h/db pg://ci:s3cr3tpw@h/db postgresq://ci:s3cr3tpw@h/db \
  https://ci:s3cr3tpw@h/db postgresql:/ci:s3cr3tpw@db/bench; do
  refused "$name"
  refused "$name" env
done
grep -q "postgresql:/ci:\*\*\*@db/bench: a PostgreSQL store's URL begins postgresql:// (two slashes)" err ||
  fail "one slash: $(cat err)"

# A failed add (a missing file; a run file without its meta file) makes no store and no folder.
printf 'test\telapsed\n' >header-only.tsv
for given in missing.tsv header-only.tsv; do
  set +e
  "$iobench" history add --history=new/deeper/h.sqlite "$given" 2>err
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "add $given: exit $rc: $(cat err)"
  [ ! -e new ] || fail "a failed add of $given left $(find new)"
done
# An existing store that a failed add touches stays, as it was.
"$iobench" history add --history=kept.sqlite "$src/tests/fixtures/imports/hyperfine-1.15.0.json" \
  --commit c1 2>err || fail "add: $(cat err)"
before=$(cksum <kept.sqlite)
"$iobench" history add --history=kept.sqlite missing.tsv 2>/dev/null && fail "adding a missing file succeeded"
[ -e kept.sqlite ] && [ "$(cksum <kept.sqlite)" = "$before" ] || fail "a failed add changed the store"

# Every status a command gives is in its --help (4: history check could not judge). Each help into
# a file: `| grep -q` stops at its first match, and the writer's SIGPIPE fails the pipe (pipefail).
exit_statuses() { sed -n '/^Exit status:/,$p' "$1"; }
"$iobench" history check --help >check-help.txt
"$iobench" --help >help.txt
"$iobench" history add --help >add-help.txt
grep -q '^  4 ' <<<"$(exit_statuses check-help.txt)" || fail "history check --help: no exit status 4"
grep -q '^  4 ' <<<"$(exit_statuses help.txt)" || fail "iobench --help: no 4"
! grep -q '^  4 ' <<<"$(exit_statuses add-help.txt)" ||
  fail "history add --help lists 4, which it never gives"
echo "history_store_names: ok"
