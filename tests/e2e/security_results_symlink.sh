#!/usr/bin/env bash
# Security: results files are created with O_EXCL|O_NOFOLLOW. A symlink planted at the -o path
# (to an existing victim, or dangling) is refused with exit 2 and the victim is untouched; so is a
# plain existing file. Also the run's meta/ and medians/ files: a symlink planted where they go
# must not be followed.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

printf 'x\n' >"$tmp/in.txt"
cat >"$tmp/c.json" <<'EOF2'
{"name": "sym", "inputs": [{"path": "in.txt"}],
 "strategies": [{"name": "cat", "command": ["cat", "{input}"]}],
 "sinks": ["pipe"], "repeats": 1, "warmup": 0, "cache": "none"}
EOF2
printf 'precious\n' >"$tmp/victim"
mkdir "$tmp/out"

# 1. Symlink to an existing file.
ln -s "$tmp/victim" "$tmp/out/runs.tsv"
set +e; "$bin/iobench" run "$tmp/c.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err1"; rc=$?; set -e
[ "$rc" -eq 2 ] || fail "symlink to victim: exit $rc (want 2): $(cat "$tmp/err1")"
[ "$(cat "$tmp/victim")" = precious ] || fail "victim overwritten through the symlink"
grep -q "runs.tsv" "$tmp/err1" || fail "error does not name the file: $(cat "$tmp/err1")"

# 2. Dangling symlink (fs::exists says no; O_EXCL must still refuse).
rm "$tmp/out/runs.tsv"
ln -s "$tmp/created-through-link" "$tmp/out/runs.tsv"
set +e; "$bin/iobench" run "$tmp/c.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err2"; rc=$?; set -e
[ "$rc" -eq 2 ] || fail "dangling symlink: exit $rc (want 2): $(cat "$tmp/err2")"
[ ! -e "$tmp/created-through-link" ] || fail "a file was created through a dangling symlink"

# 3. Plain existing file: never overwritten.
rm "$tmp/out/runs.tsv"; printf 'old\n' >"$tmp/out/runs.tsv"
set +e; "$bin/iobench" run "$tmp/c.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err3"; rc=$?; set -e
[ "$rc" -eq 2 ] || fail "existing file: exit $rc (want 2)"
[ "$(cat "$tmp/out/runs.tsv")" = old ] || fail "existing results file changed"

# 4. Symlinks planted where the run's meta and medians files go, and at the temporary names their
# writers once used (NAME.tmp); the atomic writer's own temporary names are random (mkostemp).
mkdir -p "$tmp/out/meta" "$tmp/out/medians"
for p in meta/r4.json meta/r4.json.tmp meta/.r4.json.tmp medians/r4.tsv medians/r4.tsv.tmp medians/.r4.tsv.tmp; do
  ln -s "$tmp/victim" "$tmp/out/$p"
done
set +e; "$bin/iobench" run "$tmp/c.json" -o "$tmp/out/r4.tsv" --quiet >/dev/null 2>"$tmp/err4"; rc=$?; set -e
[ "$rc" -eq 0 ] || fail "planted meta/medians links: exit $rc (want 0): $(cat "$tmp/err4")"
[ "$(cat "$tmp/victim")" = precious ] || fail "victim overwritten through a planted meta/medians symlink: $(cat "$tmp/err4")"
for f in meta/r4.json medians/r4.tsv; do
  [ -f "$tmp/out/$f" ] && [ ! -L "$tmp/out/$f" ] || fail "$f is not a regular file: the link at it was not replaced"
done
# Nothing besides the file and the planted links: no temporary file left behind, whatever its name.
left=$(cd "$tmp/out" && ls -A meta medians | tr '\n' ' ')
[ "$left" = "medians: .r4.tsv.tmp r4.tsv r4.tsv.tmp  meta: .r4.json.tmp r4.json r4.json.tmp " ] ||
  fail "meta/ and medians/ hold: $left"
echo "security_results_symlink: ok"
