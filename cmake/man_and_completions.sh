#!/bin/sh
# Writes iobench's man pages and shell completions into OUT (docs/distributed.md, "Installing"):
#   OUT/man/man1/iobench.1 and iobench-SUBCOMMAND.1, made by help2man from the same text as
#     `iobench --help` and `iobench SUBCOMMAND --help` (skipped, saying so, without help2man);
#   OUT/bash-completion/completions/iobench, OUT/zsh/vendor-completions/_iobench and
#     OUT/fish/vendor_completions.d/iobench.fish, which `iobench completion bash|zsh|fish` writes
#     from its own options.
# help2man runs in a UTF-8 locale (in C it writes "×" as "??"), and the "Exit status:" that ends
# every --help becomes the page's EXIT STATUS section.
# Usage: man_and_completions.sh BIN_DIR OUT VERSION HELP2MAN (HELP2MAN empty: no man pages).
set -eu
bin=$1 out=$2 version=$3 help2man=$4
mkdir -p "$out/bash-completion/completions" "$out/zsh/vendor-completions" \
  "$out/fish/vendor_completions.d" "$out/man/man1"
"$bin/iobench" completion bash >"$out/bash-completion/completions/iobench"
"$bin/iobench" completion zsh >"$out/zsh/vendor-completions/_iobench"
"$bin/iobench" completion fish >"$out/fish/vendor_completions.d/iobench.fish"
if [ -z "$help2man" ]; then
  echo "man_and_completions: help2man not found, so no man pages (apt-get install help2man)" >&2
  exit 0
fi
# help2man names a page after the program it runs: one small wrapper per subcommand.
wrappers=$out/help2man-wrappers
mkdir -p "$wrappers"
page() {  # OUTPUT NAME PROGRAM
  "$help2man" --no-info --locale=C.UTF-8 --version-string="$version" --name="$2" --output="$1.tmp" "$3"
  sed 's/^\.SS "Exit status:"$/.SH "EXIT STATUS"/' "$1.tmp" >"$1"
  rm -f "$1.tmp"
}
page "$out/man/man1/iobench.1" \
  "measure which way of reading and writing lines is fastest, and by how much" "$bin/iobench"
"$bin/iobench" completion commands | while IFS="$(printf '\t')" read -r name description; do
  printf '#!/bin/sh\nexec "%s/iobench" %s "$@"\n' "$bin" "$name" >"$wrappers/iobench-$name"
  chmod +x "$wrappers/iobench-$name"
  page "$out/man/man1/iobench-$name.1" "$description" "$wrappers/iobench-$name"
done
rm -rf "$wrappers"
