#pragma once
// Subcommands register themselves here (fio's engines are the model): a module adds one
// `const RegisterCommand` at namespace scope and main() never changes.
#include <CLI/CLI.hpp>
#include <string_view>
#include <vector>

namespace iobench {

// Adds the subcommand's options to `sub` and a callback that stores the exit code in `exit_code`.
using CommandSetup = void (*)(CLI::App& sub, int& exit_code);

struct Command {
  std::string_view name;
  std::string_view description;
  CommandSetup setup;
  int order;  // position in --help
};

std::vector<Command>& command_registry();

struct RegisterCommand {
  RegisterCommand(std::string_view name, std::string_view description, CommandSetup setup,
                  int order) {
    command_registry().push_back(Command{name, description, setup, order});
  }
};

}  // namespace iobench
