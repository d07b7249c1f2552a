#!/usr/bin/env bash
# End to end: a real `iobench run` of a tiny config kept in a git repository writes a meta file
# whose provenance block has every field, each of its type (docs/formats.md "Meta file"), and
# whose worker hash is that of the worker binary that ran.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to read the meta file (scripts/test installs it)"
command -v git >/dev/null || skip "git is needed for the git_commit and git_dirty fields"

repo="$tmp/repo"
mkdir "$repo"
printf 'alpha\nbeta\ngamma\n' >"$repo/in.txt"
cat >"$repo/tiny.json" <<'JSON'
{"name": "tiny", "inputs": ["in.txt"],
 "strategies": [{"name": "read-raw", "worker": ["--read", "read", "--write", "raw"]},
                {"name": "cat", "command": ["cat", "{input}"]}],
 "sinks": ["pipe"], "repeats": 2, "warmup": 0, "cache": "none", "baseline": "read-raw"}
JSON
git -C "$repo" init -q
git -C "$repo" add tiny.json in.txt
git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m tiny

"$bin/iobench" run "$repo/tiny.json" -o "$tmp/runs.tsv" --quiet >/dev/null 2>"$tmp/stderr.txt" ||
  { rc=$?; cat "$tmp/stderr.txt" >&2; fail "iobench run exited $rc"; }
[ -s "$tmp/meta/runs.json" ] || fail "no meta file"

python3 - "$tmp/meta/runs.json" "$(git -C "$repo" rev-parse HEAD)" "$bin/iobench-worker" <<'PY' ||
import json, sys
meta_path, head, worker_path = sys.argv[1:]
p = json.load(open(meta_path))["provenance"]
number = (int, float)
want = {"reference_test": str, "git_commit": str, "git_dirty": bool, "worker": dict,
        "load_average_start": number, "busy_cpus_start": number, "load_average_end": number,
        "root": bool}
problems = [f"{k}: missing" for k in want if k not in p]
problems += [f"{k}: {type(p[k]).__name__} {p[k]!r}" for k, t in want.items()
             if k in p and (not isinstance(p[k], t) or isinstance(p[k], bool) != (t is bool))]
w = p.get("worker", {})
for k in ("path", "build", "xxh3"):
    if not isinstance(w.get(k), str):
        problems.append(f"worker.{k}: {w.get(k)!r}")
if p.get("reference_test") != "read-raw": problems.append(f"reference_test {p.get('reference_test')!r}")
if p.get("git_commit") != head: problems.append(f"git_commit {p.get('git_commit')!r}, HEAD {head}")
if p.get("git_dirty") is not False: problems.append("git_dirty should be false")
if w.get("path") != worker_path: problems.append(f"worker.path {w.get('path')!r}")
if not (isinstance(w.get("xxh3"), str) and len(w["xxh3"]) == 16): problems.append("worker.xxh3 not 16 hex digits")
if problems:
    sys.exit("\n".join(problems))
PY
  fail "provenance block"
echo "run_provenance: every provenance field present and typed"
