#!/usr/bin/env bash
# scripts/tidy's cache (docs/reliability.md, "Static checks"): a file's key (scripts/tidy-keys)
# changes with what of the project's can change clang-tidy's verdict (the file, a project header
# it includes, its compile command, .clang-tidy, the tidy version) and with nothing else (the
# checkout's folder, a system header); a clean check records the key in the local cache (with
# --record in the tracked manifest too, never otherwise), and a file whose key is recorded is not
# checked again.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v g++ >/dev/null || skip "no g++ to preprocess with"
cd "$tmp"

# A tiny project: a.cpp includes h.hpp; the compile database as CMake writes it.
make_project() {  # FOLDER
  mkdir -p "$1/src" "$1/build"
  printf 'Checks: -*,bugprone-*\n' >"$1/.clang-tidy"
  printf '#pragma once\ninline int twice(int x) { return 2 * x; }\n' >"$1/src/h.hpp"
  printf '#include "h.hpp"\n#include <sys.hpp>\nint main() { return twice(0) + sys_value(); }\n' >"$1/src/a.cpp"
  printf '#include "missing.hpp"\n' >"$1/src/bad.cpp"
  cat >"$1/build/compile_commands.json" <<EOF
[{"directory": "$1/build", "file": "$1/src/a.cpp",
  "command": "/usr/bin/c++ -O2 -Wall -I$1/src -isystem $tmp/sys -o CMakeFiles/a.o -c $1/src/a.cpp"},
 {"directory": "$1/build", "file": "$1/src/bad.cpp",
  "command": "/usr/bin/c++ -O2 -o CMakeFiles/bad.o -c $1/src/bad.cpp"}]
EOF
}
key() {  # FOLDER [VERSION]: the key of src/a.cpp
  "$src/scripts/tidy-keys" "$1/build" "$1" "$1/build" "${2:-tidy 14}" src/a.cpp | cut -d' ' -f1
}
# A system header, outside every project: what a Debian package would install.
mkdir -p "$tmp/sys"
printf '#pragma once\ninline int sys_value() { return 0; }\n' >"$tmp/sys/sys.hpp"
make_project "$tmp/one"
first=$(key "$tmp/one")
[[ $first =~ ^[0-9a-f]{64}$ ]] || fail "no key for a file that preprocesses: '$first'"
[ "$(key "$tmp/one")" = "$first" ] || fail "the same file gave two keys"
make_project "$tmp/elsewhere/two"
[ "$(key "$tmp/elsewhere/two")" = "$first" ] || fail "the same project in another folder gave another key"
[ "$(key "$tmp/one" 'tidy 15')" != "$first" ] || fail "another clang-tidy version kept the key"
# A system header's update (a Debian package's) keeps every key: the check stays cached.
printf 'inline int sys_other() { return 1; }\n' >>"$tmp/sys/sys.hpp"
[ "$(key "$tmp/one")" = "$first" ] || fail "a system header's change changed the key"
# The project's headers are hashed as written: a comment can be a NOLINT, which changes a verdict.
printf '// NOLINT(bugprone-*)\n' >>"$tmp/one/src/h.hpp"
commented=$(key "$tmp/one")
[ "$commented" != "$first" ] || fail "a comment in the header kept the key"
printf 'inline int thrice(int x) { return 3 * x; }\n' >>"$tmp/one/src/h.hpp"
[ "$(key "$tmp/one")" != "$commented" ] || fail "a header's new code kept the key"
make_project "$tmp/three"
printf 'Checks: -*,performance-*\n' >"$tmp/three/.clang-tidy"
[ "$(key "$tmp/three")" != "$first" ] || fail "another .clang-tidy kept the key"
make_project "$tmp/four"
sed -i 's/-O2 -Wall/-O2 -Wall -Wextra/' "$tmp/four/build/compile_commands.json"
[ "$(key "$tmp/four")" != "$first" ] || fail "another compile command kept the key"
bad=$("$src/scripts/tidy-keys" "$tmp/one/build" "$tmp/one" "$tmp/one/build" "tidy 14" src/bad.cpp)
[ "$bad" = "none  src/bad.cpp" ] || fail "a file that does not preprocess has a key: '$bad'"

# scripts/tidy itself, on one real source with a manifest of the test's own.
command -v clang-tidy >/dev/null || skip "no clang-tidy (apt-get install clang-tidy): the keys were checked, the cache's use was not"
build=${IOBENCH_BUILD_DIR:-$(dirname "$bin")}
[ -f "$build/compile_commands.json" ] || skip "no compile database in $build"
export IOBENCH_TIDY_MANIFEST=$tmp/manifest IOBENCH_BUILD_DIR=$build
file=driver/util/text.cpp
"$src/scripts/tidy" "$file" >out.txt 2>err.txt || fail "tidy on $file: $(cat out.txt err.txt)"
grep -q "tidy: clean (1 files, 1 checked)" out.txt || fail "a first check did not check: $(cat out.txt)"
grep -q "  $file\$" "$tmp/manifest" || fail "the clean check recorded no key: $(cat "$tmp/manifest")"
"$src/scripts/tidy" "$file" >out.txt 2>err.txt || fail "tidy again: $(cat out.txt err.txt)"
grep -q "all cached" out.txt || fail "an unchanged file was checked again: $(cat out.txt err.txt)"
# The build folder named relative to where tidy is called finds the same keys.
(cd "$(dirname "$build")" && IOBENCH_BUILD_DIR=$(basename "$build") "$src/scripts/tidy" "$file") >out.txt 2>err.txt ||
  fail "tidy with a relative build folder: $(cat out.txt err.txt)"
grep -q "all cached" out.txt || fail "a relative IOBENCH_BUILD_DIR gave other keys: $(cat out.txt err.txt)"
IOBENCH_TIDY_CACHE=0 "$src/scripts/tidy" "$file" >out.txt 2>err.txt || fail "tidy uncached: $(cat out.txt err.txt)"
grep -q "tidy: clean (1 files, 1 checked)" out.txt || fail "IOBENCH_TIDY_CACHE=0 did not check: $(cat out.txt)"
# A recorded key that no longer matches (the file changed since) is checked again.
sed -i 's/^[0-9a-f]*/0000/' "$tmp/manifest"
"$src/scripts/tidy" "$file" >out.txt 2>err.txt || fail "tidy after a change: $(cat out.txt err.txt)"
grep -q "tidy: clean (1 files, 1 checked)" out.txt || fail "a changed file was not checked: $(cat out.txt err.txt)"
# A finding fails the check, names the file, and leaves the clean files of the same check recorded.
mkdir -p "$tmp/p/build"
printf 'Checks: -*,bugprone-suspicious-semicolon\n' >"$tmp/p/.clang-tidy"
printf 'int main(int argc, char**) {\n  if (argc > 1) return 1;\n  return 0;\n}\n' >"$tmp/p/good.cpp"
printf 'int main(int argc, char**) {\n  if (argc > 1);\n  return 0;\n}\n' >"$tmp/p/bad.cpp"
cat >"$tmp/p/build/compile_commands.json" <<EOF
[{"directory": "$tmp/p/build", "file": "$tmp/p/good.cpp", "command": "/usr/bin/c++ -o good.o -c $tmp/p/good.cpp"},
 {"directory": "$tmp/p/build", "file": "$tmp/p/bad.cpp", "command": "/usr/bin/c++ -o bad.o -c $tmp/p/bad.cpp"}]
EOF
: >"$tmp/manifest"
if IOBENCH_BUILD_DIR=$tmp/p/build "$src/scripts/tidy" "$tmp/p/good.cpp" "$tmp/p/bad.cpp" >out.txt 2>err.txt; then
  fail "a file with a finding passed: $(cat out.txt err.txt)"
fi
grep -q 'bad.cpp:2:.*suspicious-semicolon' out.txt || fail "the finding is not named: $(cat out.txt err.txt)"
grep -q 'good.cpp$' "$tmp/manifest" || fail "the clean file of a failing check was not recorded: $(cat "$tmp/manifest")"
! grep -q 'bad.cpp$' "$tmp/manifest" || fail "the file with a finding was recorded clean"

# Without a manifest of its own, a check writes the local cache and leaves the checkout alone;
# --record writes the tracked manifest too. On a copy of the scripts, so the checkout is $tmp/p.
mkdir -p "$tmp/p/scripts" "$tmp/p/.ci"
cp "$src/scripts/tidy" "$src/scripts/tidy-keys" "$tmp/p/scripts/"
unset IOBENCH_TIDY_MANIFEST
export XDG_CACHE_HOME=$tmp/cache
: >"$tmp/p/.ci/tidy-clean"
IOBENCH_BUILD_DIR=$tmp/p/build "$tmp/p/scripts/tidy" "$tmp/p/good.cpp" >out.txt 2>err.txt ||
  fail "tidy on the copy: $(cat out.txt err.txt)"
[ ! -s "$tmp/p/.ci/tidy-clean" ] || fail "a check without --record wrote the tracked manifest: $(cat "$tmp/p/.ci/tidy-clean")"
grep -q '  good.cpp$' "$tmp/cache/iobench/tidy-clean" || fail "the local cache has no key: $(cat "$tmp/cache/iobench/tidy-clean" 2>&1)"
IOBENCH_BUILD_DIR=$tmp/p/build "$tmp/p/scripts/tidy" --record "$tmp/p/good.cpp" >out.txt 2>err.txt ||
  fail "tidy --record: $(cat out.txt err.txt)"
grep -q "tidy: clean (1 files, 0 checked)" out.txt || fail "--record checked a cached file again: $(cat out.txt err.txt)"
grep -q '  good.cpp$' "$tmp/p/.ci/tidy-clean" || fail "--record left the tracked manifest without the key: $(cat "$tmp/p/.ci/tidy-clean")"
echo "tidy_cache: keys follow what clang-tidy reads, and the cache skips only what it checked clean"
