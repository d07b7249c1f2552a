// {name} placeholders in strategy names and arguments (docs/formats.md "Config").
#include <algorithm>
#include <cctype>

#include "driver/config/config.hpp"

namespace iobench::config {

std::vector<std::string> find_placeholders(std::string_view text) {
  std::vector<std::string> names;
  std::size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    const std::size_t end = text.find('}', pos + 1);
    if (end == std::string_view::npos) break;
    const std::string_view name = text.substr(pos + 1, end - pos - 1);
    const bool identifier = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
    });
    if (identifier) {
      names.emplace_back(name);
      pos = end + 1;
    } else {
      pos += 1;
    }
  }
  return names;
}

std::string expand_placeholders(std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find('{', pos);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('}', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = text.substr(open + 1, close - open - 1);
    const auto it = std::find_if(values.begin(), values.end(),
                                 [&](const auto& entry) { return entry.first == name; });
    out.append(text.substr(pos, open - pos));
    if (it != values.end()) {
      out.append(it->second);
      pos = close + 1;
    } else {
      out.push_back('{');
      pos = open + 1;
    }
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace iobench::config
