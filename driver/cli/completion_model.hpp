#pragma once
// What the shell completions know (docs/distributed.md, "Installing"), taken from CLI11's own model
// of the command line, so that they list every subcommand and option the parser knows and cannot
// drift from it: an option's values are those its IsMember check accepts, and an option that is
// there only to be refused (hyperfine's that iobench has no use for) is never offered.
#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::cli {

struct Flag {
  std::string name;  // "--input" or "-r"
  std::string description;
  bool takes_value = false;
  std::vector<std::string> values;  // the accepted values; empty: any (a file name)
};

struct Subcommand {
  std::string name;
  std::string description;
  std::vector<Flag> flags;
  std::vector<std::string> operand_values;  // a positional's accepted values (completion's shell)
  std::vector<Subcommand> children;         // history's own subcommands (history add, check, ...)
};

// The values of a "{a,b,c}" in an option's type name (what CLI::IsMember adds to it); none
// without one.
std::vector<std::string> accepted_values(std::string_view type_name);

// The words with one space between each, as a shell's word list.
std::string joined(const std::vector<std::string>& words);

// Every subcommand of `app`, with its options and its own subcommands.
std::vector<Subcommand> completion_model(const CLI::App& app);

void write_bash_completion(const std::vector<Subcommand>& model, std::ostream& out);
void write_zsh_completion(const std::vector<Subcommand>& model, std::ostream& out);
void write_fish_completion(const std::vector<Subcommand>& model, std::ostream& out);

}  // namespace iobench::cli
