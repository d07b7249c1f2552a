#include "driver/util/text.hpp"

namespace iobench {

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

std::string join_argv(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) {
    if (!text.empty()) text += ' ';
    const bool safe =
        !arg.empty() && arg.find_first_of(" \t\n'\"\\$`;&|<>()*?[]{}!#~") == std::string::npos;
    text += safe ? arg : shell_quote(arg);
  }
  return text;
}

}  // namespace iobench
