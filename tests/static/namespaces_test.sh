#!/usr/bin/env bash
# The namespace check itself (tests/static/namespaces.sh), on a tree of its own: headers in their
# folder's namespace (nested ones too) pass; a tracked header in plain `iobench` (a config/ one
# too), one in a namespace that only starts like its folder's and one in another
# folder's namespace fail, each named with its line; an untracked one does not count.
# Usage: bash tests/static/namespaces_test.sh SOURCE_DIR
set -euo pipefail
checker=${1:?usage: namespaces_test.sh SOURCE_DIR}/tests/static/namespaces.sh
tree=$(mktemp -d "${TMPDIR:-/tmp}/iobench-namespaces-XXXXXX")
trap 'rm -rf "$tree"' EXIT
fail() { echo "namespaces_test: $*" >&2; exit 1; }
header() {  # header FILE NAMESPACE: a header that opens NAMESPACE at file scope
  mkdir -p "$(dirname "$tree/$1")"
  printf '#pragma once\nnamespace %s {\nint f();\n}  // namespace %s\n' "$2" "$2" >"$tree/$1"
}

header driver/report/plot.hpp iobench::report
header driver/report/svg.hpp iobench::report::svg
cat >"$tree/driver/report/html.hpp" <<'HPP'
#pragma once
namespace iobench::report {
namespace html {
int g();
}  // namespace html
namespace {
int h();
}  // namespace
}  // namespace iobench::report
HPP
header driver/config/config.hpp iobench::config
git -C "$tree" init -q
git -C "$tree" add driver
out=$(bash "$checker" "$tree") || fail "a tree that follows the rule failed: $out"

header driver/util/format.hpp iobench
header driver/run/runner.hpp iobench::running
header driver/spawn/spawner.hpp iobench::run
header driver/config/plan.hpp iobench
out=$(bash "$checker" "$tree") || fail "an untracked header counted: $out"
git -C "$tree" add driver
if out=$(bash "$checker" "$tree"); then fail "headers in the wrong namespace passed: $out"; fi
for line in "driver/util/format.hpp:2: namespace iobench (want iobench::util)" \
  "driver/run/runner.hpp:2: namespace iobench::running (want iobench::run)" \
  "driver/spawn/spawner.hpp:2: namespace iobench::run (want iobench::spawn)" \
  "driver/config/plan.hpp:2: namespace iobench (want iobench::config)"; do
  grep -qxF "$line" <<<"$out" || fail "the failure does not name \"$line\": $out"
done
! grep -q "report/\|config/config.hpp" <<<"$out" || fail "a header that follows the rule was named: $out"
echo "namespaces_test: headers outside their folder's namespace fail the check, named"
