// The fish completion script, from the model (completion_model.hpp): one `complete` line per
// subcommand and per option, each under the condition that its subcommand was typed.
#include <fmt/format.h>

#include "driver/cli/completion_model.hpp"

namespace iobench::cli {
namespace {

// A word in fish's single quotes: backslash and quote escaped, one line.
std::string fish_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "'";
}

// "-l runs" or "-s r"; how its value completes: fixed values, a file, or none.
std::string fish_option(const Flag& flag) {
  const bool long_name = flag.name.rfind("--", 0) == 0;
  std::string line = long_name ? "-l " + flag.name.substr(2) : "-s " + flag.name.substr(1);
  if (!flag.values.empty()) {
    line += " -x -a " + fish_quoted(joined(flag.values));
  } else if (flag.takes_value) {
    line += " -r -F";
  }
  return line + " -d " + fish_quoted(flag.description);
}

void write_options(const std::string& condition, const std::vector<Flag>& flags,
                   std::ostream& out) {
  for (const Flag& flag : flags) {
    out << fmt::format("complete -c iobench -n {} {}\n", fish_quoted(condition), fish_option(flag));
  }
}

}  // namespace

void write_fish_completion(const std::vector<Subcommand>& model, std::ostream& out) {
  out << "# fish completion for iobench, written by `iobench completion fish`\n";
  for (const Subcommand& sub : model) {
    out << fmt::format("complete -c iobench -n __fish_use_subcommand -f -a {} -d {}\n", sub.name,
                       fish_quoted(sub.description));
  }
  for (const Subcommand& sub : model) {
    const std::string in_sub = "__fish_seen_subcommand_from " + sub.name;
    if (!sub.operand_values.empty()) {
      out << fmt::format("complete -c iobench -n {} -f -a {}\n", fish_quoted(in_sub),
                         fish_quoted(joined(sub.operand_values)));
    }
    std::vector<std::string> children;
    for (const Subcommand& child : sub.children) children.push_back(child.name);
    const std::string no_child =
        children.empty() ? in_sub
                         : in_sub + "; and not __fish_seen_subcommand_from " + joined(children);
    for (const Subcommand& child : sub.children) {
      out << fmt::format("complete -c iobench -n {} -f -a {} -d {}\n", fish_quoted(no_child),
                         child.name, fish_quoted(child.description));
    }
    write_options(no_child, sub.flags, out);
    for (const Subcommand& child : sub.children) {
      write_options(in_sub + "; and __fish_seen_subcommand_from " + child.name, child.flags, out);
    }
  }
}

}  // namespace iobench::cli
