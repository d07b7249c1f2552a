#!/usr/bin/env bash
# The house rule of at most 400 lines a file (docs/reliability.md, "Static checks"): every
# tracked .cpp, .hpp, .cc and .h file under driver/, workers/, common/ and tests/unit/ of ROOT.
# Prints one line per file over the limit, naming it and its count, and exits 1; exits 0 with a
# count of the files read otherwise. Outside a git checkout every such file counts.
# Usage: bash tests/static/file_lines.sh ROOT [MAX_LINES]
set -euo pipefail
root=${1:?usage: file_lines.sh ROOT [MAX_LINES]}
max_lines=${2:-400}
cd "$root"
folders=(driver workers common tests/unit)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${folders[@]}")
else
  mapfile -t files < <(find "${folders[@]}" -type f 2>/dev/null | sort)
fi
checked=0
too_long=0
for file in "${files[@]}"; do
  case $file in *.cpp | *.hpp | *.cc | *.h) ;; *) continue ;; esac
  [ -f "$file" ] || continue  # deleted in the work tree, not yet in the index
  checked=$((checked + 1))
  lines=$(wc -l <"$file")
  if ((lines > max_lines)); then
    echo "$file: $lines lines (at most $max_lines)"
    too_long=$((too_long + 1))
  fi
done
if ((too_long > 0)); then
  echo "file_lines: $too_long of $checked files over $max_lines lines: split them by concern"
  exit 1
fi
echo "file_lines: $checked files, none over $max_lines lines"
