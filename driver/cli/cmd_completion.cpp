// `iobench completion bash|zsh|commands` (docs/distributed.md, "Installing"): shell completions
// written from the command line's own model, so they list every subcommand and option the
// parser knows and cannot drift from it; the build writes them (and the man pages, with help2man,
// from `--help`) and `cmake --install` and the .deb install them.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"

namespace iobench {
namespace {

struct Flag {
  std::string name;  // "--input" or "-r"
  std::string description;
  bool takes_value = false;
};

struct Subcommand {
  std::string name;
  std::string description;
  std::vector<Flag> flags;
  std::vector<Subcommand> children;  // history's own subcommands (history add, check, ...)
};

std::vector<Flag> flags_of(const CLI::App& sub) {
  std::vector<Flag> flags;
  for (const CLI::Option* option : sub.get_options()) {
    if (!option->nonpositional()) continue;
    const bool value = option->get_expected_min() > 0;
    for (const std::string& name : option->get_lnames()) {
      flags.push_back({"--" + name, option->get_description(), value});
    }
    for (const std::string& name : option->get_snames()) {
      flags.push_back({"-" + name, option->get_description(), value});
    }
  }
  return flags;
}

// Every subcommand but this one, with its options and its own subcommands, as the parser holds
// them.
std::vector<Subcommand> model_of(const CLI::App& app) {
  std::vector<Subcommand> model;
  const auto all = [](const CLI::App*) { return true; };
  for (const CLI::App* sub : app.get_subcommands(all)) {
    if (sub->get_name() == "completion") continue;
    Subcommand command{sub->get_name(), sub->get_description(), flags_of(*sub), {}};
    for (const CLI::App* child : sub->get_subcommands(all)) {
      command.children.push_back(
          {child->get_name(), child->get_description(), flags_of(*child), {}});
    }
    model.push_back(std::move(command));
  }
  return model;
}

// A description as one short zsh item: its first sentence, without what _arguments reads.
std::string zsh_text(const std::string& description) {
  std::string text = description.substr(0, description.find_first_of(".;(\n"));
  std::string out;
  for (const char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\' || c == '`' || c == '$') continue;
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out;
}

// One case arm: the options of `name` and those of them that take a value.
void write_bash_words(const std::string& name, const std::vector<Flag>& flags, std::ostream& out) {
  std::string words;
  std::string valued;
  for (const Flag& flag : flags) {
    words += flag.name + ' ';
    if (flag.takes_value) valued += flag.name + ' ';
  }
  // A nested command's arm is two words, quoted: case matches "${COMP_WORDS[1]} ${COMP_WORDS[2]}".
  const bool two_words = name.find(' ') != std::string::npos;
  out << fmt::format("    {}) words='{}' valued=' {}' ;;\n", two_words ? "'" + name + "'" : name,
                     words, valued);
}

// A command's own subcommands as its second word, then their options.
void write_bash_children(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "  if ((COMP_CWORD == 2)) && [[ $cur != -* ]]; then\n"
         "    case ${COMP_WORDS[1]} in\n";
  for (const Subcommand& sub : model) {
    if (sub.children.empty()) continue;
    std::string names;
    for (const Subcommand& child : sub.children) names += child.name + ' ';
    out << fmt::format("      {}) COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return ;;\n",
                       sub.name, names);
  }
  out << "    esac\n"
         "  fi\n"
         "  case \"${COMP_WORDS[1]} ${COMP_WORDS[2]}\" in\n";
  for (const Subcommand& sub : model) {
    for (const Subcommand& child : sub.children) {
      write_bash_words(sub.name + ' ' + child.name, child.flags, out);
    }
  }
  out << "  esac\n";
}

void write_bash(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "# bash completion for iobench, written by `iobench completion bash`\n"
         "_iobench() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words= valued=\n"
         "  if ((COMP_CWORD == 1)); then\n"
         "    COMPREPLY=($(compgen -W '";
  for (const Subcommand& sub : model) out << sub.name << ' ';
  out << "--help --version' -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  case ${COMP_WORDS[1]} in\n";
  for (const Subcommand& sub : model) write_bash_words(sub.name, sub.flags, out);
  out << "  esac\n";
  write_bash_children(model, out);
  out << "  # After an option that takes a value: a file name; else an option, or a file.\n"
         "  if [[ $cur == -* && $valued != *\" $prev \"* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _iobench iobench\n";
}

// _arguments for one command's options, then files, ending its case arm.
void write_zsh_arguments(const std::vector<Flag>& flags, const char* indent, std::ostream& out) {
  out << indent << "_arguments -s";
  for (const Flag& flag : flags) {
    out << fmt::format(" \\\n{}  '*{}[{}]{}'", indent, flag.name, zsh_text(flag.description),
                       flag.takes_value ? ":value:_files" : "");
  }
  out << " \\\n" << indent << "  '*:argument:_files' ;;\n";
}

void write_zsh(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "#compdef iobench\n# zsh completion for iobench, written by `iobench completion zsh`\n"
         "_iobench() {\n"
         "  local -a subcommands\n"
         "  subcommands=(\n";
  for (const Subcommand& sub : model) {
    out << fmt::format("    '{}:{}'\n", sub.name, zsh_text(sub.description));
  }
  out << "  )\n"
         "  if (( CURRENT == 2 )); then\n"
         "    _describe 'iobench command' subcommands\n"
         "    return\n"
         "  fi\n"
         "  case $words[2] in\n";
  for (const Subcommand& sub : model) {
    out << "    " << sub.name << ")\n";
    if (sub.children.empty()) {
      write_zsh_arguments(sub.flags, "      ", out);
      continue;
    }
    out << "      local -a children\n      children=(\n";
    for (const Subcommand& child : sub.children) {
      out << fmt::format("        '{}:{}'\n", child.name, zsh_text(child.description));
    }
    out << "      )\n"
           "      if (( CURRENT == 3 )); then _describe 'iobench "
        << sub.name
        << " command' children; return; fi\n"
           "      case $words[3] in\n";
    for (const Subcommand& child : sub.children) {
      out << "        " << child.name << ")\n";
      write_zsh_arguments(child.flags, "          ", out);
    }
    out << "      esac ;;\n";
  }
  out << "  esac\n}\n_iobench \"$@\"\n";
}

void setup_completion(CLI::App& sub, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  sub.add_option("shell", *shell,
                 "bash or zsh: the completion script for that shell; commands: each subcommand "
                 "and what it does, one a line (the build makes a man page of each)")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "commands"}));
  sub.callback([&sub, shell, &exit_code] {
    const std::vector<Subcommand> model = model_of(*sub.get_parent());
    if (*shell == "bash") write_bash(model, std::cout);
    if (*shell == "zsh") write_zsh(model, std::cout);
    if (*shell == "commands") {
      for (const Subcommand& command : model) {
        std::cout << command.name << '\t' << command.description << '\n';
      }
    }
    exit_code = kExitOk;
  });
}

const RegisterCommand kRegisterCompletion{
    "completion", "Print a bash or zsh completion script, written from iobench's own options",
    &setup_completion, 9};

}  // namespace
}  // namespace iobench
