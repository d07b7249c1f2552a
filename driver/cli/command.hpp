#pragma once
// Subcommands register themselves here (fio's engines are the model): a module adds one
// `const RegisterCommand` at namespace scope and main() never changes.
#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::cli {

// Adds the subcommand's options to `sub` and a callback that stores the exit code in `exit_code`.
using CommandSetup = void (*)(CLI::App& sub, int& exit_code);

// The --help group of options that exist only to be refused with a reason (hyperfine's that
// iobench has no use for): the completions never offer them.
inline constexpr std::string_view kRefusedOptionsGroup = "Refused hyperfine options";

struct Command {
  std::string_view name;
  std::string_view description;
  CommandSetup setup;
  int order;  // position in --help
};

std::vector<Command>& command_registry();

// Makes `app --help` open with `examples` (lines of "COMMAND   # what it does"), before the usage
// line and the options: people copy an example before they read a list of options. Only `app`
// itself: its subcommands keep their own help.
void show_examples_first(CLI::App& app, std::string examples);

struct RegisterCommand {
  RegisterCommand(std::string_view name, std::string_view description, CommandSetup setup,
                  int order) {
    command_registry().push_back(Command{name, description, setup, order});
  }
};

}  // namespace iobench::cli
