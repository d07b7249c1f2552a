// `iobench completion bash|zsh|fish|commands` (docs/distributed.md, "Installing"): shell
// completions written from the command line's own model (completion_model.hpp); the build writes
// them (and the man pages, with help2man, from `--help`) and `cmake --install` and the .deb
// install them.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/cli/completion_model.hpp"

namespace iobench::cli {

std::vector<std::string> accepted_values(std::string_view type_name) {
  const std::size_t open = type_name.find('{');
  const std::size_t close = type_name.find('}', open);
  if (open == std::string_view::npos || close == std::string_view::npos) return {};
  std::vector<std::string> values;
  std::string_view list = type_name.substr(open + 1, close - open - 1);
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    values.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return values;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

namespace {

std::vector<Flag> flags_of(const CLI::App& sub) {
  std::vector<Flag> flags;
  for (const CLI::Option* option : sub.get_options()) {
    if (!option->nonpositional() || option->get_group() == kRefusedOptionsGroup) continue;
    const bool value = option->get_expected_min() > 0;
    const std::vector<std::string> values =
        value ? accepted_values(option->get_type_name()) : std::vector<std::string>{};
    for (const std::string& name : option->get_lnames()) {
      flags.push_back({"--" + name, option->get_description(), value, values});
    }
    for (const std::string& name : option->get_snames()) {
      flags.push_back({"-" + name, option->get_description(), value, values});
    }
  }
  return flags;
}

std::vector<std::string> operand_values_of(const CLI::App& sub) {
  for (const CLI::Option* option : sub.get_options()) {
    if (option->get_positional()) return accepted_values(option->get_type_name());
  }
  return {};
}

Subcommand subcommand_of(const CLI::App& sub) {
  return {sub.get_name(), sub.get_description(), flags_of(sub), operand_values_of(sub), {}};
}

}  // namespace

std::vector<Subcommand> completion_model(const CLI::App& app) {
  std::vector<Subcommand> model;
  const auto all = [](const CLI::App*) { return true; };
  for (const CLI::App* sub : app.get_subcommands(all)) {
    Subcommand command = subcommand_of(*sub);
    for (const CLI::App* child : sub->get_subcommands(all)) {
      command.children.push_back(subcommand_of(*child));
    }
    model.push_back(std::move(command));
  }
  return model;
}

namespace {

void setup_completion(CLI::App& sub, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  sub.add_option("shell", *shell,
                 "bash, zsh or fish: the completion script for that shell; commands: each "
                 "subcommand and what it does, one a line (the build makes a man page of each)")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish", "commands"}));
  sub.callback([&sub, shell, &exit_code] {
    const std::vector<Subcommand> model = completion_model(*sub.get_parent());
    if (*shell == "bash") write_bash_completion(model, std::cout);
    if (*shell == "zsh") write_zsh_completion(model, std::cout);
    if (*shell == "fish") write_fish_completion(model, std::cout);
    if (*shell == "commands") {
      for (const Subcommand& command : model) {
        if (command.name != "completion")
          std::cout << command.name << '\t' << command.description << '\n';
      }
    }
    exit_code = kExitOk;
  });
}

const RegisterCommand kRegisterCompletion{
    "completion", "Print a bash, zsh or fish completion script, written from iobench's own options",
    &setup_completion, 9};

}  // namespace
}  // namespace iobench::cli
