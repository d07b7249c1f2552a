// The bash and zsh completion scripts, from the model (completion_model.hpp): each only
// serialises it.
#include <fmt/format.h>

#include "driver/cli/completion_model.hpp"

namespace iobench::cli {
namespace {

// A nested command's key is two words, quoted: the case matches "$key" ("history check").
std::string bash_key(const std::string& key) {
  return key.find(' ') != std::string::npos ? "'" + key + "'" : key;
}

// One case arm: the options of `key` and those of them that take a value.
void write_bash_words(const std::string& key, const std::vector<Flag>& flags, std::ostream& out) {
  std::string words;
  std::string valued;
  for (const Flag& flag : flags) {
    words += flag.name + ' ';
    if (flag.takes_value) valued += flag.name + ' ';
  }
  out << fmt::format("    {}) words='{}' valued=' {}' ;;\n", bash_key(key), words, valued);
}

// One arm per option of `key` with fixed values: "$key $prev" names it.
void write_bash_values(const std::string& key, const std::vector<Flag>& flags, std::ostream& out) {
  for (const Flag& flag : flags) {
    if (flag.values.empty()) continue;
    out << fmt::format("    '{} {}') values='{}' ;;\n", key, flag.name, joined(flag.values));
  }
}

// The second word: a command's own subcommands (history's) or its operand's values.
void write_bash_second_word(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "  if ((COMP_CWORD == 2)) && [[ $cur != -* ]]; then\n"
         "    case $key in\n";
  for (const Subcommand& sub : model) {
    std::vector<std::string> names = sub.operand_values;
    for (const Subcommand& child : sub.children) names.push_back(child.name);
    if (names.empty()) continue;
    out << fmt::format("      {}) COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return ;;\n",
                       sub.name, joined(names));
  }
  out << "    esac\n"
         "  fi\n"
         "  case $key in\n";
  for (const Subcommand& sub : model) {
    if (!sub.children.empty())
      out << fmt::format("    {}) key=\"$key ${{COMP_WORDS[2]}}\" ;;\n", sub.name);
  }
  out << "  esac\n";
}

}  // namespace

void write_bash_completion(const std::vector<Subcommand>& model, std::ostream& out) {
  std::vector<std::string> names;
  names.reserve(model.size());
  for (const Subcommand& sub : model) names.push_back(sub.name);
  out << "# bash completion for iobench, written by `iobench completion bash`\n"
         "_iobench() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  local key=${COMP_WORDS[1]} words= valued= values=\n"
         "  if ((COMP_CWORD == 1)); then\n"
      << fmt::format("    COMPREPLY=($(compgen -W '{} --help --version' -- \"$cur\"))\n",
                     joined(names))
      << "    return\n"
         "  fi\n";
  write_bash_second_word(model, out);
  out << "  case $key in\n";
  for (const Subcommand& sub : model) {
    write_bash_words(sub.name, sub.flags, out);
    for (const Subcommand& child : sub.children) {
      write_bash_words(sub.name + ' ' + child.name, child.flags, out);
    }
  }
  out << "  esac\n"
         "  case \"$key $prev\" in\n";
  for (const Subcommand& sub : model) {
    write_bash_values(sub.name, sub.flags, out);
    for (const Subcommand& child : sub.children) {
      write_bash_values(sub.name + ' ' + child.name, child.flags, out);
    }
  }
  out << "  esac\n"
         "  # After an option with fixed values: one of them; after another that takes a value: a\n"
         "  # file name; else an option, or a file.\n"
         "  if [[ -n $values ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n"
         "  elif [[ $cur == -* && $valued != *\" $prev \"* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _iobench iobench\n";
}

namespace {

// A description whole, as zsh reads it inside '...[...]': brackets and backslashes escaped, one
// line, the single quote closed and reopened.
std::string zsh_text(const std::string& description) {
  std::string out;
  for (const char c : description) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c == '\'' ? std::string("'\\''") : c == '\n' ? std::string(" ") : std::string(1, c);
  }
  return out;
}

// A `_describe` item "name:description": a colon in the description is the item's own.
std::string zsh_item(const std::string& name, const std::string& description) {
  std::string text;
  for (const char c : zsh_text(description))
    text += c == ':' ? std::string("\\:") : std::string(1, c);
  return fmt::format("'{}:{}'", name, text);
}

std::string zsh_action(const Flag& flag) {
  if (!flag.takes_value) return "";
  if (!flag.values.empty()) return fmt::format(":value:({})", joined(flag.values));
  return ":value:_files";
}

// _arguments for one command's options, then its operand, ending its case arm.
void write_zsh_arguments(const Subcommand& sub, const char* indent, std::ostream& out) {
  out << indent << "_arguments -s";
  for (const Flag& flag : sub.flags) {
    out << fmt::format(" \\\n{}  '*{}[{}]{}'", indent, flag.name, zsh_text(flag.description),
                       zsh_action(flag));
  }
  if (!sub.operand_values.empty()) {
    out << fmt::format(" \\\n{}  '1:argument:({})' ;;\n", indent, joined(sub.operand_values));
  } else {
    out << " \\\n" << indent << "  '*:argument:_files' ;;\n";
  }
}

}  // namespace

void write_zsh_completion(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "#compdef iobench\n# zsh completion for iobench, written by `iobench completion zsh`\n"
         "_iobench() {\n"
         "  local -a subcommands\n"
         "  subcommands=(\n";
  for (const Subcommand& sub : model) out << "    " << zsh_item(sub.name, sub.description) << '\n';
  out << "  )\n"
         "  if (( CURRENT == 2 )); then\n"
         "    _describe 'iobench command' subcommands\n"
         "    return\n"
         "  fi\n"
         "  case $words[2] in\n";
  for (const Subcommand& sub : model) {
    out << "    " << sub.name << ")\n";
    if (sub.children.empty()) {
      write_zsh_arguments(sub, "      ", out);
      continue;
    }
    out << "      local -a children\n      children=(\n";
    for (const Subcommand& child : sub.children) {
      out << "        " << zsh_item(child.name, child.description) << '\n';
    }
    out << "      )\n"
        << fmt::format(
               "      if (( CURRENT == 3 )); then _describe 'iobench {} command' children; "
               "return; fi\n",
               sub.name)
        << "      case $words[3] in\n";
    for (const Subcommand& child : sub.children) {
      out << "        " << child.name << ")\n";
      write_zsh_arguments(child, "          ", out);
    }
    out << "      esac ;;\n";
  }
  out << "  esac\n}\n_iobench \"$@\"\n";
}

}  // namespace iobench::cli
