#include "driver/util/text.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace iobench::util {

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

std::string escape_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string escape_table_cell(std::string_view text) {
  std::string cell;
  cell.reserve(text.size());
  for (const char c : text) {
    if (c == '|') {
      cell += "\\|";
    } else if (c == '\n' || c == '\r') {
      cell += ' ';
    } else {
      cell += c;
    }
  }
  return cell;
}

namespace {

std::string github_escape(std::string_view text, bool property) {
  std::string out;
  for (const char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if (property && c == ':') {
      out += "%3A";
    } else if (property && c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string github_escape_data(std::string_view text) {
  return github_escape(text, false);
}

std::string github_escape_property(std::string_view text) {
  return github_escape(text, true);
}

std::string cell_name(std::string_view test, std::string_view input, std::string_view sink,
                      bool quoted) {
  // Appended piece by piece: GCC 12 with the precompiled header (a build without ccache) saw a
  // memcpy bound past any object in `"'" + std::string(test)` and failed -Werror.
  std::string name;
  name.reserve(test.size() + input.size() + sink.size() + 16);
  if (quoted) name += '\'';
  name += test;
  if (quoted) name += '\'';
  if (!input.empty()) name.append(" on ").append(input);
  name.append(" (").append(sink).append(" sink)");
  return name;
}

namespace {

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one span).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t replace = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest_name(std::string_view given,
                                        const std::vector<std::string>& names) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // at most 2
  bool tied = false;
  for (const std::string& name : names) {
    const std::size_t distance = edit_distance(given, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
      tied = false;
    } else if (distance == best_distance) {
      tied = true;
    }
  }
  if (!best || tied || best_distance >= given.size()) return std::nullopt;
  return best;
}

}  // namespace iobench::util
