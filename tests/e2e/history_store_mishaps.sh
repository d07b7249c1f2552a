#!/usr/bin/env bash
# End to end, SQLite (docs/history.md, "The store"): the store under ordinary mishaps. Twenty
# first adds racing into a store that does not exist yet all land, every round; a read-only store
# serves every reading command (as the nobody user, for whom permissions hold); reading commands
# never make a store; a file that is not an iobench store is refused, exit 2, byte for byte as it
# was; a store from before the mark is read and, when written, stamped; prune gives the space back;
# publish takes its folder with a trailing slash; --history takes its value one way everywhere.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to count rows and make foreign databases (scripts/bootstrap installs it)"
command -v flock >/dev/null || skip "flock (util-linux) is needed to start the racing adds together"
iobench=$bin/iobench
store=$tmp/h.sqlite
source "$src/tests/e2e/history_lib.bash"

runs_in() { sqlite3 "$1" 'SELECT COUNT(*) FROM runs'; }
digest() { sha256sum "$1" | cut -d' ' -f1; }

measure a1 0.01
# Twenty other runs with a1's rows (blank lines appended: other bytes, so other runs).
for i in $(seq 1 20); do
  cp "$tmp/r/a1.tsv" "$tmp/r/copy$i.tsv"
  printf '\n%.0s' $(seq "$i") >>"$tmp/r/copy$i.tsv"
  cp "$tmp/r/meta/a1.json" "$tmp/r/meta/copy$i.json"
done

# --- Twenty first adds at once into a store (and a folder) that does not exist yet. Each waits
# on a shared lock of a file this shell holds exclusively; releasing it starts all of them.
race_round() {  # ROUND
  local race=$tmp/race$1 pids=() i
  exec 9>"$tmp/start.lock"
  flock -x 9
  for i in $(seq 1 20); do
    # 9>&-: the adds do not hold this shell's lock, they wait on their own shared one.
    flock -s "$tmp/start.lock" "$iobench" history add --history="$race/sub/h.sqlite" \
      "$tmp/r/copy$i.tsv" 2>"$tmp/race$1.$i.err" 9>&- &
    pids+=($!)
  done
  sleep 0.5  # every add is waiting on the lock by now (or starts at once after it)
  exec 9>&-  # go
  for i in "${!pids[@]}"; do
    wait "${pids[i]}" || fail "round $1: add $((i + 1)) exited $?: $(cat "$tmp/race$1.$((i + 1)).err")"
  done
  for i in $(seq 1 20); do
    grep -q 'added ' "$tmp/race$1.$i.err" || fail "round $1: add $i did not land: $(cat "$tmp/race$1.$i.err")"
  done
  [ "$(runs_in "$race/sub/h.sqlite")" -eq 20 ] || fail "round $1: $(runs_in "$race/sub/h.sqlite") runs of 20 in the store"
}
for round in 1 2 3 4 5; do race_round "$round"; done
# The moment of the race held open, so that it comes every time: another connection (as a first
# add setting the store up) has the new file's write lock while twenty adds start. sqlite3
# answers their switch to WAL with "database is locked" at once, without its busy timeout; each
# must wait for the lock and land.
mkdir "$tmp/held"
coproc HOLDER {
  python3 -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")' "$tmp/held/h.sqlite"
}
read -r _ <&"${HOLDER[0]}"
held_pids=()
for i in $(seq 1 20); do
  "$iobench" history add --history="$tmp/held/h.sqlite" "$tmp/r/copy$i.tsv" 2>"$tmp/held.$i.err" &
  held_pids+=($!)
done
sleep 1
echo release >&"${HOLDER[1]}"
for i in "${!held_pids[@]}"; do
  wait "${held_pids[i]}" || fail "held lock: add $((i + 1)) exited $?: $(cat "$tmp/held.$((i + 1)).err")"
done
[ "$(runs_in "$tmp/held/h.sqlite")" -eq 20 ] || fail "held lock: $(runs_in "$tmp/held/h.sqlite") runs of 20 in the store"
# The raced store is marked as iobench's, and at the schema's version.
[ "$(sqlite3 "$tmp/race1/sub/h.sqlite" 'PRAGMA application_id')" -eq $((0x696F6263)) ] ||
  fail "a new store has application_id $(sqlite3 "$tmp/race1/sub/h.sqlite" 'PRAGMA application_id')"
[ "$(sqlite3 "$tmp/race1/sub/h.sqlite" 'PRAGMA user_version')" -eq 2 ] || fail "a new store's user_version is not 2 (the schema version)"

raced=$tmp/race1/sub/h.sqlite
"$iobench" history list --history="$raced" >"$tmp/list.want"

# --- A read-only store serves every reading command and is never written. Root reads and writes
# whatever the permissions say, so as root the commands run as the nobody user (setpriv), for whom
# they hold; the store's file is read-only (a-w), in a folder nobody may not write (no log or
# shared-memory file can be made beside it), then in one nobody may write.
as_reader=()
if [ "$(id -u)" -eq 0 ]; then
  if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
    as_reader=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups --)
    chmod 711 "$tmp"
  else
    as_reader=(skip)
  fi
fi
if [ "${as_reader[0]:-}" != skip ]; then
  mkdir "$tmp/ro-folder" "$tmp/rw-folder" "$tmp/out"
  cp "$raced" "$tmp/ro-folder/h.sqlite"
  cp "$raced" "$tmp/rw-folder/h.sqlite"
  on_exit 'chmod -R u+w "$tmp"'  # so that the scratch folder can be removed by a non-root user
  chmod a-w "$tmp/ro-folder/h.sqlite" "$tmp/rw-folder/h.sqlite" "$tmp/ro-folder"
  chmod 1777 "$tmp/rw-folder" "$tmp/out"
  for folder in ro-folder rw-folder; do
    ro=$tmp/$folder/h.sqlite
    before=$(digest "$ro")
    for reader in list "show tunable" changes "export --format bmf" "plot tunable -o $tmp/out/$folder.svg" \
      "publish -o $tmp/out/site-$folder"; do
      # shellcheck disable=SC2086 # the subcommand and its options, split on purpose
      "${as_reader[@]}" "$iobench" history $reader --history="$ro" >"$tmp/ro.out" 2>"$tmp/ro.err" ||
        fail "history $reader of a read-only store ($folder) exited $?: $(cat "$tmp/ro.err")"
    done
    "${as_reader[@]}" "$iobench" history list --history="$ro" >"$tmp/ro.out" 2>&1
    cmp -s "$tmp/ro.out" "$tmp/list.want" || fail "list of the read-only store ($folder): $(cat "$tmp/ro.out")"
    set +e
    "${as_reader[@]}" "$iobench" history check --history="$ro" >"$tmp/ro.out" 2>"$tmp/ro.err"
    rc=$?
    set -e
    [ "$rc" -ne 2 ] && [ "$rc" -ne 3 ] && ! grep -q 'cannot open\|readonly\|read-only' "$tmp/ro.err" ||
      fail "history check of a read-only store ($folder) exited $rc: $(cat "$tmp/ro.err")"
    # A write through the same permissions fails in one line and changes nothing.
    one_line_exit_2 "add into a read-only store ($folder)" "${as_reader[@]}" "$iobench" history add --history="$ro" "$tmp/r/a1.tsv"
    [ "$(digest "$ro")" = "$before" ] || fail "the read-only store ($folder) changed"
  done
  [ "$(ls -A "$tmp/ro-folder")" = h.sqlite ] || fail "files were made beside the read-only store: $(ls -A "$tmp/ro-folder")"
else
  echo "history_store_mishaps: root without setpriv or a nobody user: the read-only store is tested by the unit tests only"
fi
# As root, a read-only mount is what holds: the store on a read-only bind mount of its folder.
if [ "$(id -u)" -eq 0 ]; then
  mkdir "$tmp/mount-src" "$tmp/mount-ro"
  cp "$raced" "$tmp/mount-src/h.sqlite"
  if mount --bind "$tmp/mount-src" "$tmp/mount-ro" 2>/dev/null; then
    on_exit 'umount "$tmp/mount-ro" 2>/dev/null || umount -l "$tmp/mount-ro"'
    if mount -o remount,ro,bind "$tmp/mount-ro" 2>/dev/null && ! touch "$tmp/mount-ro/probe" 2>/dev/null; then
      for reader in list "show tunable" changes "export --format bmf"; do
        # shellcheck disable=SC2086
        "$iobench" history $reader --history="$tmp/mount-ro/h.sqlite" >"$tmp/ro.out" 2>"$tmp/ro.err" ||
          fail "history $reader of a store on a read-only mount exited $?: $(cat "$tmp/ro.err")"
      done
      "$iobench" history list --history="$tmp/mount-ro/h.sqlite" 2>&1 | cmp -s - "$tmp/list.want" ||
        fail "list of the store on a read-only mount differs"
    else
      echo "history_store_mishaps: cannot make the bind mount read-only here; that part is not tested"
    fi
  else
    echo "history_store_mishaps: bind mounts are refused here; the read-only mount is not tested"
  fi
fi

# --- Reading commands never make a store: a missing path, an empty file (left empty).
readers=(list "check" changes "export --format bmf")
for reader in "${readers[@]}"; do
  # shellcheck disable=SC2086 # the subcommand and its options, split on purpose
  one_line_exit_2 "$reader on a missing store" "$iobench" history $reader --history="$tmp/none.sqlite"
  grep -q 'no history store there' "$tmp/bad.err" || fail "$reader, missing: $(cat "$tmp/bad.err")"
  [ ! -e "$tmp/none.sqlite" ] || fail "history $reader made a store where there was none"
  : >"$tmp/empty.sqlite"
  # shellcheck disable=SC2086
  one_line_exit_2 "$reader on an empty file" "$iobench" history $reader --history="$tmp/empty.sqlite"
  grep -q 'an empty file, not a history store' "$tmp/bad.err" || fail "$reader, empty: $(cat "$tmp/bad.err")"
  [ ! -s "$tmp/empty.sqlite" ] || fail "history $reader wrote into an empty file"
done
for writer in "prune --keep 1" "ack aaaa@bbbb --why x"; do
  # shellcheck disable=SC2086
  one_line_exit_2 "$writer on an empty file" "$iobench" history $writer --history="$tmp/empty.sqlite"
  [ ! -s "$tmp/empty.sqlite" ] || fail "history $writer wrote into an empty file"
done

# --- Files that are not an iobench store: refused, exit 2, byte for byte as they were.
sqlite3 "$tmp/other.db" 'CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ("mine")'
sqlite3 "$tmp/app.db" 'PRAGMA application_id = 42'
sqlite3 "$tmp/half.db" 'CREATE TABLE runs (x); CREATE TABLE samples (y)'
printf 'not a database at all, but long enough to hold a header\n' >"$tmp/text.sqlite"
for foreign in other.db app.db half.db text.sqlite; do
  before=$(digest "$tmp/$foreign")
  one_line_exit_2 "add into $foreign" "$iobench" history add --history="$tmp/$foreign" "$tmp/r/a1.tsv"
  grep -q 'not an iobench history store' "$tmp/bad.err" || fail "$foreign, add: $(cat "$tmp/bad.err")"
  one_line_exit_2 "list of $foreign" "$iobench" history list --history="$tmp/$foreign"
  grep -q 'not an iobench history store' "$tmp/bad.err" || fail "$foreign, list: $(cat "$tmp/bad.err")"
  one_line_exit_2 "prune of $foreign" "$iobench" history prune --keep 1 --history="$tmp/$foreign"
  [ "$(digest "$tmp/$foreign")" = "$before" ] || fail "$foreign changed"
  [ ! -e "$tmp/$foreign-wal" ] && [ ! -e "$tmp/$foreign-journal" ] || fail "$foreign got a log beside it"
done
grep -q 'notes' <(sqlite3 "$tmp/other.db" .tables) && [ "$(sqlite3 "$tmp/other.db" .tables | wc -w)" -eq 1 ] ||
  fail "another program's database got tables: $(sqlite3 "$tmp/other.db" .tables)"

# --- A store made before the mark (application_id 0, user_version 0): read as it is, stamped
# by the first write.
cp "$tmp/race1/sub/h.sqlite" "$tmp/old.sqlite"
sqlite3 "$tmp/old.sqlite" 'PRAGMA application_id = 0; PRAGMA user_version = 0'
"$iobench" history list --history="$tmp/old.sqlite" >"$tmp/old.out" 2>"$tmp/old.err" ||
  fail "a store from before the mark was not read: $(cat "$tmp/old.err")"
grep -q 'in.txt, pipe)' "$tmp/old.out" || fail "old store's list: $(cat "$tmp/old.out")"
[ "$(sqlite3 "$tmp/old.sqlite" 'PRAGMA application_id')" -eq 0 ] || fail "a reading command stamped the store"
"$iobench" history add --history="$tmp/old.sqlite" "$tmp/r/a1.tsv" 2>"$tmp/old.err" ||
  fail "a store from before the mark was not added to: $(cat "$tmp/old.err")"
[ "$(sqlite3 "$tmp/old.sqlite" 'PRAGMA application_id')" -eq $((0x696F6263)) ] &&
  [ "$(sqlite3 "$tmp/old.sqlite" 'PRAGMA user_version')" -eq 2 ] || fail "the first write did not stamp the old store"

# --- Prune gives the space back: the file shrinks, no free page is left in it.
cp "$tmp/race1/sub/h.sqlite" "$tmp/prune.sqlite"
size_before=$(stat -c %s "$tmp/prune.sqlite")
"$iobench" history prune --keep 1 --history="$tmp/prune.sqlite" 2>"$tmp/prune.err" || fail "prune exited $?: $(cat "$tmp/prune.err")"
grep -q '19 runs removed' "$tmp/prune.err" || fail "prune said: $(cat "$tmp/prune.err")"
size_after=$(stat -c %s "$tmp/prune.sqlite")
[ "$size_after" -lt $((size_before * 2 / 3)) ] || fail "prune removed 19 of 20 runs and the file went from $size_before to $size_after bytes"
[ "$(sqlite3 "$tmp/prune.sqlite" 'PRAGMA freelist_count')" -eq 0 ] || fail "free pages left after prune"
[ "$(runs_in "$tmp/prune.sqlite")" -eq 1 ] || fail "prune kept $(runs_in "$tmp/prune.sqlite") runs"

# --- publish -o with and without a trailing slash, new and over a site published before.
for out in site/ site other other/; do
  (cd "$tmp" && "$iobench" history publish --history="$raced" -o "$out") 2>"$tmp/pub.err" >/dev/null ||
    fail "publish -o $out exited $?: $(cat "$tmp/pub.err")"
  [ -s "$tmp/${out%/}/index.html" ] || fail "publish -o $out wrote no index.html"
done
[ -z "$(find "$tmp" -maxdepth 2 -name '*.tmp-*')" ] || fail "publish left build folders: $(find "$tmp" -maxdepth 2 -name '*.tmp-*')"

# --- --history takes its value one way in every command: attached (--history=STORE). A bare
# --history beside a word that names a store is refused, exit 2, before anything runs or is
# written.
one_line_exit_2 "bench --history STORE" "$iobench" bench --history "$raced" "touch $tmp/ran" -r 2 -w 0
grep -q "write --history=$raced" "$tmp/bad.err" || fail "bench --history STORE said: $(cat "$tmp/bad.err")"
[ ! -e "$tmp/ran" ] || fail "bench --history STORE ran a command"
one_line_exit_2 "run --history STORE" "$iobench" run --history "$raced" "$tmp/hist.json" -o "$tmp/r/never.tsv" -q
grep -q "write --history=$raced" "$tmp/bad.err" || fail "run --history STORE said: $(cat "$tmp/bad.err")"
[ ! -e "$tmp/r/never.tsv" ] || fail "run --history STORE wrote a run file"
one_line_exit_2 "merge --history STORE" "$iobench" merge --history "$raced" "$tmp/r/a1.tsv" -o "$tmp/r/never.tsv"
grep -q "write --history=" "$tmp/bad.err" || fail "merge --history STORE said: $(cat "$tmp/bad.err")"
one_line_exit_2 "check --history STORE" "$iobench" history check --history "$raced"
grep -q "write --history=$raced" "$tmp/bad.err" || fail "check --history STORE said: $(cat "$tmp/bad.err")"
one_line_exit_2 "show SERIES --history sqlite:STORE" "$iobench" history show tunable --history "sqlite:$raced"
grep -q "write --history=sqlite:" "$tmp/bad.err" || fail "show --history sqlite:STORE said: $(cat "$tmp/bad.err")"
one_line_exit_2 "list --history URL" "$iobench" history list --history "postgresql://ci@127.0.0.1:1/db"
grep -q "write --history=postgresql://" "$tmp/bad.err" || fail "list --history URL said: $(cat "$tmp/bad.err")"
IOBENCH_HISTORY=$raced "$iobench" history list --history >"$tmp/bare.out" 2>"$tmp/bare.err" ||
  fail "a bare --history (the default store) exited $?: $(cat "$tmp/bare.err")"
cmp -s "$tmp/bare.out" <("$iobench" history list --history="$raced") || fail "a bare --history read another store"

# --- No message shows a password: a URL libpq cannot parse, a keyword in its query, a server
# that refuses.
for url in 'postgresql://ci:cipw@[::1' 'postgresql://ci:cipw@127.0.0.1:1/db?password=cipw&connect_timeout=5' \
  'postgres://ci:ci%40pw@127.0.0.1:1/db?connect_timeout=5'; do
  one_line_exit_2 "list of $url" "$iobench" history list --history="$url"
  ! grep -q 'cipw\|ci%40pw' "$tmp/bad.err" || fail "a password shows: $(cat "$tmp/bad.err")"
  one_line_exit_2 "run into $url" "$iobench" run "$tmp/hist.json" -o "$tmp/r/never.tsv" -q --history="$url"
  ! grep -q 'cipw\|ci%40pw' "$tmp/bad.err" || fail "a password shows: $(cat "$tmp/bad.err")"
done

# --- A store a bench made and added nothing to goes with it (interrupted here); one it found
# stays as it was.
sleep_runs() {  # whether a `sleep 10.25` runs (from /proc: procps may be missing)
  local f
  for f in /proc/[0-9]*/cmdline; do
    [ "$(tr '\0' ' ' <"$f" 2>/dev/null)" = "sleep 10.25 " ] && return 0
  done
  return 1
}
interrupted_bench() {  # STORE: a bench into STORE, interrupted once its run runs; its exit
  rm -rf "$tmp/int" && mkdir "$tmp/int"  # its results/ appears as the bench opens its store
  (cd "$tmp/int" && exec "$iobench" bench -q -r 3 -w 0 --history="$1" 'sleep 10.25') \
    >/dev/null 2>"$tmp/int.err" &
  local pid=$! waited=0
  # Until its command runs: a SIGINT before bench takes it over (while it writes its meta file,
  # slow under ASan) ends it as SIGINT ends any process, which failed this test in 1 of 3 tries.
  until [ -e "$1" ] && sleep_runs || [ "$waited" -ge 300 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  [ -e "$1" ] || fail "bench --history=$1 made no store in 30 s: $(cat "$tmp/int.err")"
  kill -INT "$pid"
  local code=0
  wait "$pid" || code=$?
  echo "$code"
}
code=$(interrupted_bench "$tmp/fresh/h.sqlite")
[ "$code" -eq 130 ] || fail "the interrupted bench exited $code: $(cat "$tmp/int.err")"
[ ! -e "$tmp/fresh/h.sqlite" ] || fail "an interrupted bench left the empty store it made"
before=$(runs_in "$tmp/held/h.sqlite")
code=$(interrupted_bench "$tmp/held/h.sqlite")
[ "$code" -eq 130 ] && [ "$(runs_in "$tmp/held/h.sqlite")" -eq "$before" ] ||
  fail "an interrupted bench into a store it found: exit $code, $(runs_in "$tmp/held/h.sqlite") runs of $before"

# --- A run interrupted after it opened its store and before its first run (here while it generates
# its input): the store it made goes, as does the input's temporary file. Before the run's guard
# was taken ahead of the store, a SIGINT there ended iobench by the default action and left both.
rm -rf "$tmp/gen-int" && mkdir "$tmp/gen-int"
cat >"$tmp/gen-int/c.json" <<'EOF2'
{"name": "genint", "inputs": [{"path": "big.tsv", "generate": {"kind": "ngram", "size": "2GiB", "seed": 1}}],
 "strategies": [{"name": "cat", "command": ["cat", "{input}"]}], "sinks": ["null"], "repeats": 1,
 "warmup": 0, "cache": "none"}
EOF2
"$iobench" run "$tmp/gen-int/c.json" -q -o "$tmp/gen-int/r.tsv" --history="$tmp/gen-int/h.sqlite" \
  >/dev/null 2>"$tmp/gen-int.err" &
pid=$! waited=0
until [ -e "$tmp/gen-int/h.sqlite" ] || [ "$waited" -ge 300 ]; do sleep 0.05; waited=$((waited + 1)); done
[ -e "$tmp/gen-int/h.sqlite" ] || fail "run --history made no store in 15 s: $(cat "$tmp/gen-int.err")"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
[ "$code" -eq 130 ] || fail "the run interrupted before its first run exited $code: $(cat "$tmp/gen-int.err")"
[ ! -e "$tmp/gen-int/h.sqlite" ] || fail "a run interrupted before its first run left the store it made"
[ ! -e "$tmp/gen-int/big.tsv" ] || fail "a run interrupted while generating left its input"
leftover=$(find "$tmp/gen-int" -name '.big.tsv.tmp*' | head -1)
[ -z "$leftover" ] || fail "a run interrupted while generating left $leftover"

echo "history_store_mishaps: ok"
