#!/usr/bin/env bash
# `cmake --install` into a DESTDIR (GNU layout under /usr), then the installed iobench runs the
# installed smoke config from a folder of the user's: it finds its worker beside itself, makes
# the input under the current folder (or --data-dir, or $IOBENCH_DATA_DIR), never in share/.
# Then `cpack -G DEB` makes a .deb whose Depends are Debian package names (skipped without
# dpkg-deb).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
build=$(cd "$bin/.." && pwd)
root=$tmp/root
DESTDIR=$root cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 \
  || fail "cmake --install: $(tail -5 "$tmp/install.log")"
for f in usr/bin/iobench usr/bin/iobench-worker usr/bin/iobench-spawner usr/share/iobench/configs/smoke.json \
  usr/share/iobench/slurm/iobench-array.sh usr/share/doc/iobench/README.md \
  usr/share/bash-completion/completions/iobench usr/share/zsh/vendor-completions/_iobench \
  usr/share/fish/vendor_completions.d/iobench.fish; do
  [ -e "$root/$f" ] || fail "not installed: /$f"
done
[ ! -e "$root/usr/bin/iobench_unit_tests" ] || fail "the test binary was installed"
grep -q '"data/smoke-ngram.tsv"' "$root/usr/share/iobench/configs/smoke.json" \
  || fail "installed smoke.json does not name data/smoke-ngram.tsv"
chmod -R a-w "$root/usr/share"  # as under /usr: nothing may be written there

mkdir "$tmp/work"
cd "$tmp/work"
iobench=$root/usr/bin/iobench
config=$root/usr/share/iobench/configs/smoke.json
# The worker is found beside the driver, not in the build tree.
env -u IOBENCH_WORKER "$iobench" list | grep "^reader" >/dev/null || fail "installed iobench list"
env -u IOBENCH_WORKER "$iobench" run "$config" --repeats 1 --quiet -o runs.tsv >/dev/null 2>err.txt \
  || fail "installed run: $(cat err.txt)"
[ -s data/smoke-ngram.tsv ] || fail "input not made under the current folder: $(ls -R)"
grep -q $'\tdata/smoke-ngram.tsv\t' runs.tsv || fail "rows do not name data/smoke-ngram.tsv"
[ "$(run_awk 'col("status") != "ok"' runs.tsv | wc -l)" -eq 0 ] || fail "rows not ok"
grep -q "\"worker\": \"$root/usr/bin/iobench-worker\"" meta/runs.json || fail "worker not the installed one"

# --data-dir and $IOBENCH_DATA_DIR choose another folder.
"$iobench" run "$config" --repeats 1 --quiet --filter '^cat$' --data-dir "$tmp/d1" -o d1.tsv >/dev/null 2>&1 \
  || fail "--data-dir run"
[ -s "$tmp/d1/data/smoke-ngram.tsv" ] || fail "--data-dir: no $tmp/d1/data/smoke-ngram.tsv"
IOBENCH_DATA_DIR=$tmp/d2 "$iobench" run "$config" --repeats 1 --quiet --filter '^cat$' -o d2.tsv >/dev/null 2>&1 \
  || fail "IOBENCH_DATA_DIR run"
[ -s "$tmp/d2/data/smoke-ngram.tsv" ] || fail "IOBENCH_DATA_DIR: no $tmp/d2/data/smoke-ngram.tsv"
# A config outside share/ keeps resolving against its own folder.
cp "$src/configs/smoke.json" "$tmp/work/mine.json"
"$iobench" run mine.json --dry-run | grep >/dev/null $'\t\\.\\./data/smoke-ngram.tsv\t' \
  || fail "a config outside share/ no longer resolves against its folder"

command -v cpack >/dev/null && command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null \
  || skip "install_destdir: installed run ok; cpack, dpkg-deb or dpkg-shlibdeps missing for the .deb"
(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || fail "cpack: $(tail -5 "$tmp/cpack.log")"
deb=$(ls "$tmp"/pkg/iobench_*.deb) || fail "no iobench_*.deb: $(ls "$tmp/pkg")"
depends=$(dpkg-deb -f "$deb" Depends)
for package in libc6 libstdc++6 liburing2 libxxhash0; do
  grep -q "\\b$package\\b" <<<"$depends" || fail ".deb Depends lacks $package: $depends"
done
contents=$(dpkg-deb -c "$deb")
grep -q './usr/bin/iobench-worker$' <<<"$contents" || fail ".deb lacks /usr/bin/iobench-worker"
grep -q './usr/bin/iobench-spawner$' <<<"$contents" || fail ".deb lacks /usr/bin/iobench-spawner"
grep -q './usr/share/iobench/configs/smoke.json$' <<<"$contents" || fail ".deb lacks smoke.json"
grep -q './usr/share/bash-completion/completions/iobench$' <<<"$contents" || fail ".deb lacks the bash completion"
# Where the build had help2man, `man iobench-bench` opens the page the .deb installs.
if [ -s "$build/share/man/man1/iobench-bench.1" ]; then
  grep -q './usr/share/man/man1/iobench-bench.1$' <<<"$contents" || fail ".deb lacks man1/iobench-bench.1"
  dpkg-deb -x "$deb" "$tmp/unpacked"
  if command -v man >/dev/null; then
    page=$(MANPATH=$tmp/unpacked/usr/share/man man -P cat iobench-bench 2>/dev/null) || true
    grep -q -- '--compare-with' <<<"$page" || fail "man iobench-bench does not open the .deb's page"
  fi
fi
echo "install_destdir: installed run ok; $(basename "$deb"): Depends: $depends"
