#!/bin/sh
# Writes iobench's man pages and shell completions into OUT (docs/distributed.md, "Installing"):
#   OUT/man/man1/iobench.1 and iobench-SUBCOMMAND.1, made by help2man from the same text as
#     `iobench --help` and `iobench SUBCOMMAND --help` (skipped, saying so, without help2man);
#   OUT/bash-completion/completions/iobench and OUT/zsh/vendor-completions/_iobench, which
#     `iobench completion bash|zsh` writes from its own options.
# Usage: man_and_completions.sh BIN_DIR OUT VERSION HELP2MAN (HELP2MAN empty: no man pages).
set -eu
bin=$1 out=$2 version=$3 help2man=$4
mkdir -p "$out/bash-completion/completions" "$out/zsh/vendor-completions" "$out/man/man1"
"$bin/iobench" completion bash >"$out/bash-completion/completions/iobench"
"$bin/iobench" completion zsh >"$out/zsh/vendor-completions/_iobench"
if [ -z "$help2man" ]; then
  echo "man_and_completions: help2man not found, so no man pages (apt-get install help2man)" >&2
  exit 0
fi
# help2man names a page after the program it runs: one small wrapper per subcommand.
wrappers=$out/help2man-wrappers
mkdir -p "$wrappers"
"$help2man" --no-info --version-string="$version" \
  --name="measure which way of reading and writing lines is fastest, and by how much" \
  --output="$out/man/man1/iobench.1" "$bin/iobench"
"$bin/iobench" completion commands | while IFS="$(printf '\t')" read -r name description; do
  printf '#!/bin/sh\nexec "%s/iobench" %s "$@"\n' "$bin" "$name" >"$wrappers/iobench-$name"
  chmod +x "$wrappers/iobench-$name"
  "$help2man" --no-info --version-string="$version" --name="$description" \
    --output="$out/man/man1/iobench-$name.1" "$wrappers/iobench-$name"
done
rm -rf "$wrappers"
