#!/usr/bin/env bash
# Namespaces follow folders (docs/architecture.md, "Layout"): every tracked header under
# driver/FOLDER/ of ROOT opens, at file scope, only `iobench::FOLDER` or a namespace nested below
# it (`iobench::report::svg`); namespaces nested inside those are free. Prints one line per
# offending namespace, naming the file, its line and the namespace it should be, and exits 1;
# exits 0 with a count of the headers read otherwise. Outside a git checkout every header counts.
# Nesting is followed through the `}  // namespace` comments that clang-format writes.
# Usage: bash tests/static/namespaces.sh ROOT
set -euo pipefail
root=${1:?usage: namespaces.sh ROOT}
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- 'driver/*.hpp' 'driver/*.h')
else
  mapfile -t files < <(find driver -type f \( -name '*.hpp' -o -name '*.h' \) 2>/dev/null | sort)
fi
checked=0
offences=0
for file in "${files[@]}"; do
  [ -f "$file" ] || continue  # deleted in the work tree, not yet in the index
  folder=${file#driver/}
  [ "$folder" != "${folder%%/*}" ] || continue  # a header directly in driver/ has no folder
  folder=${folder%%/*}
  checked=$((checked + 1))
  # Depth 0 is file scope: a namespace opened there must be iobench::FOLDER or below it.
  found=$(awk -v want="iobench::$folder" '
    /^[[:space:]]*(inline[[:space:]]+)?namespace([[:space:]]+[A-Za-z_:]+)?[[:space:]]*\{/ {
      name = $0
      sub(/^[[:space:]]*(inline[[:space:]]+)?namespace[[:space:]]*/, "", name)
      sub(/[[:space:]]*\{.*/, "", name)
      if (depth == 0 && name != want && index(name, want "::") != 1)
        printf "%s:%d: namespace %s (want %s)\n", FILENAME, FNR, (name == "" ? "{anonymous}" : name), want
      depth++
      next
    }
    /^[[:space:]]*\}[[:space:]]*\/\/[[:space:]]*namespace/ { if (depth > 0) depth-- }
  ' "$file")
  if [ -n "$found" ]; then
    echo "$found"
    offences=$((offences + $(wc -l <<<"$found")))
  fi
done
if ((offences > 0)); then
  echo "namespaces: $offences namespace(s) in $checked headers do not follow their folder (docs/architecture.md)"
  exit 1
fi
echo "namespaces: $checked headers under driver/, each in its folder's namespace"
