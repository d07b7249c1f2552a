#!/usr/bin/env bash
# The man pages and shell completions the build writes (docs/distributed.md, "Installing"):
# `iobench completion bash|zsh|fish` lists every option of every subcommand as --help does (none
# of those that exist only to be refused), completes the values of the options that have fixed
# ones and the completion subcommand's shells, in bash, zsh and fish themselves, with zsh's
# descriptions whole; help2man's page of each subcommand opens with man, carries its --help, "×"
# as it is, and an EXIT STATUS section with the statuses --help lists.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
share=$(cd "$bin/.." && pwd)/share
cd "$tmp"

# Every option --help shows is in the completions (they are written from the same model).
"$iobench" completion bash >iobench.bash
"$iobench" completion zsh >_iobench
"$iobench" completion fish >iobench.fish
cmp -s iobench.fish "$share/fish/vendor_completions.d/iobench.fish" || fail "the build's fish completion is stale"
cmp -s iobench.bash "$share/bash-completion/completions/iobench" || fail "the build's bash completion is stale"
cmp -s _iobench "$share/zsh/vendor-completions/_iobench" || fail "the build's zsh completion is stale"
"$iobench" completion commands >commands.txt
[ "$(cut -f1 commands.txt | sort | tr '\n' ' ')" = 'bench compare gen history list merge plot report run summarize ' ] ||
  fail "subcommands: $(cut -f1 commands.txt)"
while IFS=$'\t' read -r name _; do
  # Up to the options that exist only to be refused, and the exit statuses.
  "$iobench" "$name" --help | sed '/^Refused hyperfine options:/,$d; /^Exit status:/,$d' >help.txt
  # The option lines of CLI11's help: "  -n,--name,--command-name TEXT ...".
  for option in $(grep -E '^ +-' help.txt | awk '{ print $1 }' | tr ',' '\n' | grep -- '^--' | sort -u); do
    grep -q -- " $option " <(grep "^    $name)" iobench.bash | tr "'" ' ') || fail "bash: $name $option missing"
    grep -q -- "'\\*$option\\[" _iobench || fail "zsh: $name $option missing"
    grep -q -- "-l ${option#--} " <(grep -E "n '__fish_seen_subcommand_from $name[';]" iobench.fish) ||
      fail "fish: $name $option missing"
  done
done <commands.txt

# An option there only to be refused is never offered; the completion subcommand is known.
for refused in --debug-mode --min-benchmarking-time; do
  ! grep -q -- "$refused" iobench.bash _iobench iobench.fish || fail "the refused $refused is offered"
done
grep -q -- "^    completion) words=" iobench.bash || fail "bash: no completion subcommand"
# zsh's descriptions whole: --max-runs' goes on past its first "(" and ";".
grep -F -- "'*--max-runs[At most this many runs (default 1000, or -m when above; hyperfine: no limit)]" _iobench >/dev/null ||
  fail "zsh: --max-runs' description is cut: $(grep -F -- "--max-runs[" _iobench | head -1)"

# bash: the subcommands, then a subcommand's options.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iobench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ iobench.bash "$@"
}
[ "$(complete_words iobench be)" = bench ] || fail "bash: 'iobench be': $(complete_words iobench be)"
[ "$(complete_words iobench bench --std)" = --stdin ] || fail "bash: 'bench --std': $(complete_words iobench bench --std)"
grep -qx -- --export-csv <<<"$(complete_words iobench bench --export-c)" || fail "bash: --export-c"
touch data.tsv
[ "$(complete_words iobench bench --stdin dat)" = data.tsv ] || fail "bash: a value is not completed as a file"
# A command's own subcommands (history's), then their options.
[ "$(complete_words iobench history ch | tr '\n' ' ')" = 'check changes ' ] ||
  fail "bash: 'history ch': $(complete_words iobench history ch)"
[ "$(complete_words iobench history check --min)" = --min-effect ] ||
  fail "bash: 'history check --min': $(complete_words iobench history check --min)"
# Values: the options with fixed ones, and the completion subcommand's shells.
[ "$(complete_words iobench bench --style '' | tr '\n' ' ')" = 'auto basic full nocolor color none ' ] ||
  fail "bash: 'bench --style': $(complete_words iobench bench --style '')"
[ "$(complete_words iobench bench -u m | tr '\n' ' ')" = 'millisecond microsecond ' ] ||
  fail "bash: 'bench -u m': $(complete_words iobench bench -u m)"
[ "$(complete_words iobench bench --sort '' | tr '\n' ' ')" = 'auto command mean-time ' ] ||
  fail "bash: 'bench --sort': $(complete_words iobench bench --sort '')"
[ "$(complete_words iobench bench --sink '' | tr '\n' ' ')" = 'null pipe file inherit ' ] ||
  fail "bash: 'bench --sink': $(complete_words iobench bench --sink '')"
[ "$(complete_words iobench bench --cache c)" = cold ] ||
  fail "bash: 'bench --cache c': $(complete_words iobench bench --cache c)"
[ "$(complete_words iobench bench --order '' | tr '\n' ' ')" = 'interleave grouped shuffle duet ' ] ||
  fail "bash: 'bench --order': $(complete_words iobench bench --order '')"
[ "$(complete_words iobench completion '' | tr '\n' ' ')" = 'bash zsh fish commands ' ] ||
  fail "bash: 'completion': $(complete_words iobench completion '')"
[ "$(complete_words iobench history export --format '' | tr '\n' ' ')" = 'bmf hyperfine ' ] ||
  fail "bash: 'history export --format': $(complete_words iobench history export --format '')"
grep -q "_describe 'iobench history command' children" _iobench || fail "zsh: no history subcommands"
grep -qF -- "'*--style[" _iobench && grep -qF ':value:(auto basic full nocolor color none)' _iobench ||
  fail "zsh: --style's values"
if command -v zsh >/dev/null; then
  zsh -n _iobench || fail "_iobench is not zsh"
fi
if command -v fish >/dev/null; then
  fish -n iobench.fish || fail "iobench.fish is not fish"
  fish_complete() { fish -c "source iobench.fish; complete -C '$1'" | cut -f1 | tr '\n' ' '; }
  [ "$(fish_complete 'iobench be')" = 'bench ' ] || fail "fish: 'iobench be': $(fish_complete 'iobench be')"
  [ "$(fish_complete 'iobench bench --sty')" = '--style ' ] || fail "fish: 'bench --sty': $(fish_complete 'iobench bench --sty')"
  [ "$(fish_complete 'iobench bench --sort ')" = 'auto command mean-time ' ] ||
    fail "fish: 'bench --sort ': $(fish_complete 'iobench bench --sort ')"
  [ "$(fish_complete 'iobench bench --sink ')" = 'file inherit null pipe ' ] ||
    fail "fish: 'bench --sink ': $(fish_complete 'iobench bench --sink ')"
  [ "$(fish_complete 'iobench history ch')" = 'changes check ' ] || fail "fish: 'history ch': $(fish_complete 'iobench history ch')"
  [ "$(fish_complete 'iobench history check --min')" = '--min-effect ' ] ||
    fail "fish: 'history check --min': $(fish_complete 'iobench history check --min')"
  [ "$(fish_complete 'iobench completion ')" = 'bash commands fish zsh ' ] ||
    fail "fish: 'completion ': $(fish_complete 'iobench completion ')"
  [ -z "$(fish_complete 'iobench bench --debug')" ] || fail "fish offers a refused option"
else
  echo "bench_completion_man: no fish here, so the fish script was not run (apt-get install fish)" >&2
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
# Written in UTF-8 (help2man in C writes each non-ASCII character of --help as "??"): no page has
# a "??", and each --help line with a non-ASCII character is in its page as it is.
for page in "$share"/man/man1/*.1; do
  ! grep -q '??' "$page" || fail "$(basename "$page"): non-ASCII text written as '??': $(grep -m1 '??' "$page")"
done
"$iobench" bench --help >bench-help.txt
{ grep -P '[^\x00-\x7F]' bench-help.txt || true; } | sed 's/^ *//' | cut -c1-40 | while read -r line; do
  grep -qF -- "$line" <(tr -s ' \n' ' ' <bench.man) || fail "man iobench-bench lacks '$line' as --help has it"
done
# EXIT STATUS: a section of its own, with every status --help lists.
grep -q '^EXIT STATUS' bench.man || fail "man iobench-bench: no EXIT STATUS section"
for code in $("$iobench" bench --help | sed -n '/^Exit status:/,$p' | awk 'NR > 1 && $1 ~ /^[0-9]+$/ {print $1}'); do
  sed -n '/^EXIT STATUS/,/^[A-Z]/p' bench.man | grep -qE "^ +$code +" || fail "man iobench-bench: exit status $code missing"
done
MANPATH=$share/man man -P cat iobench-history >history.man 2>/dev/null || fail "man iobench-history: no page"
sed -n '/^EXIT STATUS/,/^[A-Z]/p' history.man | grep -q 'a regression' || fail "man iobench-history: check's exit 1 missing"
MANPATH=$share/man man -P cat iobench >iobench.man 2>/dev/null || fail "man iobench: no page"
grep -q 'bench' iobench.man || fail "man iobench does not list bench"
echo "bench_completion_man: ok"
