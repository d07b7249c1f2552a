#include "driver/util/text.hpp"

#include <string_view>
#include <utility>

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

bool split_words(const std::string& text, std::vector<std::string>& words) {
  words.clear();
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::exchange(word, {}));
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string::npos) return false;
      word.append(text, i + 1, close - i - 1);
      i = close;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word.push_back(text[i]);
      }
      if (i >= text.size()) return false;
    } else if (c == '\\') {
      if (++i >= text.size()) return false;
      word.push_back(text[i]);
    } else {
      word.push_back(c);
    }
  }
  if (in_word) words.push_back(std::move(word));
  return true;
}

}  // namespace iobench
