#!/usr/bin/env bash
# The man pages and shell completions the build writes (docs/distributed.md, "Installing"):
# `iobench completion bash|zsh` lists every option of every subcommand as --help does, the bash
# one completes in bash, the zsh one is zsh, and help2man's page of each subcommand opens with
# man and carries its --help.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
share=$(cd "$bin/.." && pwd)/share
cd "$tmp"

# Every option --help shows is in the completions (they are written from the same model).
"$iobench" completion bash >iobench.bash
"$iobench" completion zsh >_iobench
cmp -s iobench.bash "$share/bash-completion/completions/iobench" || fail "the build's bash completion is stale"
cmp -s _iobench "$share/zsh/vendor-completions/_iobench" || fail "the build's zsh completion is stale"
"$iobench" completion commands >commands.txt
[ "$(cut -f1 commands.txt | sort | tr '\n' ' ')" = 'bench compare gen history list merge plot report run summarize ' ] ||
  fail "subcommands: $(cut -f1 commands.txt)"
while IFS=$'\t' read -r name _; do
  "$iobench" "$name" --help >help.txt
  # The option lines of CLI11's help: "  -n,--name,--command-name TEXT ...".
  for option in $(grep -E '^ +-' help.txt | awk '{ print $1 }' | tr ',' '\n' | grep -- '^--' | sort -u); do
    grep -q -- " $option " <(grep "^    $name)" iobench.bash | tr "'" ' ') || fail "bash: $name $option missing"
    grep -q -- "'\\*$option\\[" _iobench || fail "zsh: $name $option missing"
  done
done <commands.txt

# bash: the subcommands, then a subcommand's options.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iobench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ iobench.bash "$@"
}
[ "$(complete_words iobench be)" = bench ] || fail "bash: 'iobench be': $(complete_words iobench be)"
[ "$(complete_words iobench bench --std)" = --stdin ] || fail "bash: 'bench --std': $(complete_words iobench bench --std)"
complete_words iobench bench --export-c | grep -qx -- --export-csv || fail "bash: --export-c"
touch data.tsv
[ "$(complete_words iobench bench --stdin dat)" = data.tsv ] || fail "bash: a value is not completed as a file"
# A command's own subcommands (history's), then their options.
[ "$(complete_words iobench history ch | tr '\n' ' ')" = 'check changes ' ] ||
  fail "bash: 'history ch': $(complete_words iobench history ch)"
[ "$(complete_words iobench history check --min)" = --min-effect ] ||
  fail "bash: 'history check --min': $(complete_words iobench history check --min)"
grep -q "_describe 'iobench history command' children" _iobench || fail "zsh: no history subcommands"
if command -v zsh >/dev/null; then
  zsh -n _iobench || fail "_iobench is not zsh"
fi

# help2man's pages: one per subcommand, opened by name with man, made from --help.
command -v help2man >/dev/null || skip "no help2man at build time (scripts/bootstrap installs it)"
command -v man >/dev/null || skip "no man to open the pages"
for page in iobench $(cut -f1 commands.txt | sed 's/^/iobench-/'); do
  [ -s "$share/man/man1/$page.1" ] || fail "no man page $page.1"
done
MANPATH=$share/man man -P cat iobench-bench >bench.man 2>/dev/null || fail "man iobench-bench: no page"
grep -q 'iobench-bench' bench.man && grep -q -- '--compare-with' bench.man && grep -q -- '--stdin' bench.man ||
  fail "man iobench-bench lacks --help's options: $(head -20 bench.man)"
MANPATH=$share/man man -P cat iobench >iobench.man 2>/dev/null || fail "man iobench: no page"
grep -q 'bench' iobench.man || fail "man iobench does not list bench"
echo "bench_completion_man: ok"
