# The preamble every tests/e2e/*.sh sources first (they run as `bash SCRIPT BIN_DIR SOURCE_DIR`):
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# It gives
#   bin, src         the build's bin folder and the source tree;
#   tmp              a fresh scratch folder, removed on exit;
#   fail MESSAGE     "FAIL: MESSAGE" on stderr, exit 1;
#   skip REASON      for a tool or package this machine lacks: "SKIP: REASON", exit 77, which
#                    ctest reports as Skipped (tests/CMakeLists.txt sets SKIP_RETURN_CODE 77), never
#                    as passed. Under IOBENCH_TEST_STRICT=1 (scripts/test, so CI, which installs
#                    every package the tests use) it fails instead: there a missing package is a
#                    broken setup, and a skip would hide the test;
#   skip_here REASON the same skip for what no package gives (root, a second CPU, a terminal, a
#                    mount, a server or browser that cannot start here), strict or not;
#   on_exit COMMAND  runs COMMAND (a string, evaluated at exit) before $tmp is removed; the last
#                    registered runs first;
#   mount_small_tmpfs NAME SIZE   a tmpfs of SIZE at $mnt=$tmp/disk, unmounted on exit; skips
#                    (with the reason) without root or where mounting is refused.
#   wait_until SECONDS WHAT COMMAND...   runs COMMAND every 0.05 s until it succeeds; fails
#                    ("gave up after SECONDS s waiting for WHAT") when it has not within SECONDS.
# Run files are read by column name, never by position (docs/formats.md, "Run file": columns are
# found by their header name), so a new column breaks only the tests that concern columns:
#   run_awk [-v NAME=VALUE]... PROGRAM FILE...   awk over run files, tab-separated: each file's
#                    header line maps its names to field numbers and is not given to PROGRAM; in
#                    PROGRAM, col("status") is that column of the current row and ncols the number
#                    of columns the header names. A name the header lacks ends awk with exit 2 and
#                    a line naming it.
#   col NAMES FILE...   the NAMES columns (comma-separated: test,sink) of every row, tab-separated.
#   standard_header  the header of a run file without counters: the schema's standard columns
#                    (IOBENCH_RUN_COLUMNS in driver/runfile/schema.hpp), tab-separated.
#   malformed_lines FILE   the lines of a run file without counters that are not whole: a header
#                    other than standard_header, or a row with another number of fields.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bash SCRIPT BIN_DIR SOURCE_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
e2e_exit_commands=()

on_exit() { e2e_exit_commands+=("$1"); }

e2e_cleanup() {
  local i
  for ((i = ${#e2e_exit_commands[@]} - 1; i >= 0; i--)); do
    eval "${e2e_exit_commands[i]}" || true
  done
  rm -rf "$tmp"
}
trap e2e_cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() {
  [ "${IOBENCH_TEST_STRICT:-0}" != 1 ] ||
    fail "$* (IOBENCH_TEST_STRICT=1: scripts/test installs what the tests need, so this is a failure, not a skip)"
  echo "SKIP: $*"
  exit 77
}
skip_here() { echo "SKIP: $*"; exit 77; }
# A usage error as every command and script gives it: exit 2, one line on stderr, nothing on
# stdout; the output is left in $tmp/bad.out and $tmp/bad.err for more checks.
one_line_exit_2() {  # WHAT COMMAND...: exit 2, one line on stderr, nothing on stdout
  local what=$1
  shift
  set +e
  "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$what: exited $rc, not 2: $(cat "$tmp/bad.out" "$tmp/bad.err")"
  [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ] ||
    fail "$what: not one line: $(cat "$tmp/bad.out" "$tmp/bad.err")"
}

mount_small_tmpfs() {
  local name=$1 size=$2
  [ "$(id -u)" -eq 0 ] || skip_here "$name needs root to mount a tmpfs"
  mnt="$tmp/disk"
  mkdir "$mnt"
  mount -t tmpfs -o "size=$size" tmpfs "$mnt" 2>"$tmp/mount.err" ||
    skip_here "$name: cannot mount a tmpfs: $(cat "$tmp/mount.err")"
  on_exit 'umount "$mnt" 2>/dev/null || umount -l "$mnt"'
}

wait_until() {
  local seconds=$1 what=$2
  shift 2
  local deadline_us=$((${EPOCHREALTIME/[.,]/} + seconds * 1000000))
  until "$@"; do
    ((${EPOCHREALTIME/[.,]/} < deadline_us)) || fail "gave up after $seconds s waiting for $what"
    sleep 0.05
  done
}

# The END rule comes first, so that an unknown column's exit 2 is not overridden by PROGRAM's own
# END (`END { exit bad }`).
e2e_run_awk_prelude='
function col(name) {
  if (!(name in e2e_column)) {
    printf "run_awk: %s has no column \"%s\"\n", FILENAME, name > "/dev/stderr"
    e2e_unknown_column = 1
    exit 2
  }
  return $(e2e_column[name])
}
END { if (e2e_unknown_column) exit 2 }
FNR == 1 { delete e2e_column; ncols = NF; for (e2e_i = 1; e2e_i <= NF; e2e_i++) e2e_column[$e2e_i] = e2e_i; next }
'

run_awk() {
  local options=()
  while [ "$1" = -v ]; do
    options+=("$1" "$2")
    shift 2
  done
  local program=$1
  shift
  awk -F'\t' "${options[@]}" "$e2e_run_awk_prelude$program" "$@"
}

col() {
  local names=$1
  shift
  run_awk -v e2e_names="$names" '
    BEGIN { e2e_n = split(e2e_names, e2e_want, ",") }
    { line = col(e2e_want[1]); for (i = 2; i <= e2e_n; i++) line = line "\t" col(e2e_want[i]); print line }' "$@"
}

standard_header() {
  local schema=$src/driver/runfile/schema.hpp names
  # Each X(type, member, "name", ...) line of IOBENCH_RUN_COLUMNS, in order.
  names=$(sed -n '/^#define IOBENCH_RUN_COLUMNS(X)/,/^$/p' "$schema" | grep -o '^ *X([^"]*"[a-z_]*"' |
    grep -o '"[a-z_]*"' | tr -d '"' | paste -sd '\t')
  [ -n "$names" ] || fail "no IOBENCH_RUN_COLUMNS in $schema"
  printf '%s\n' "$names"
}

malformed_lines() {
  local header
  header=$(head -1 "$1")
  [ "$header" = "$(standard_header)" ] || echo "header: $header"  # said even when it is empty
  run_awk 'NF != ncols' "$1"
}
