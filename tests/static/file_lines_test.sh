#!/usr/bin/env bash
# The line-count check itself (tests/static/file_lines.sh), on a tree of its own: a tracked file
# of 401 lines fails it, named with its count; one of 400 lines, an untracked long file and a
# long file of another kind do not.
# Usage: bash tests/static/file_lines_test.sh SOURCE_DIR
set -euo pipefail
checker=${1:?usage: file_lines_test.sh SOURCE_DIR}/tests/static/file_lines.sh
tree=$(mktemp -d "${TMPDIR:-/tmp}/iobench-file-lines-XXXXXX")
trap 'rm -rf "$tree"' EXIT
fail() { echo "file_lines_test: $*" >&2; exit 1; }

mkdir -p "$tree/driver/report" "$tree/tests/unit/report" "$tree/docs"
seq 400 >"$tree/driver/report/at_limit.cpp"
seq 401 >"$tree/docs/long.md"
git -C "$tree" init -q
git -C "$tree" add driver docs
out=$(bash "$checker" "$tree") || fail "a tree at the limit failed: $out"

seq 401 >"$tree/tests/unit/report/too_long_gtest.cc"
out=$(bash "$checker" "$tree") || fail "an untracked file counted: $out"
git -C "$tree" add tests
if out=$(bash "$checker" "$tree"); then fail "a tracked 401-line file passed: $out"; fi
grep -qxF "tests/unit/report/too_long_gtest.cc: 401 lines (at most 400)" <<<"$out" ||
  fail "the failure does not name the file and its count: $out"
! grep -q "at_limit" <<<"$out" || fail "a 400-line file was named: $out"
echo "file_lines_test: a 401-line file fails the check, named; 400 lines pass"
