#include "driver/config/ignored_failures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/error.hpp"

namespace iobench::config {

bool IgnoredFailures::covers(int exit_code) const {
  if (exit_code == 0) return true;
  return all || std::binary_search(codes.begin(), codes.end(), exit_code);
}

IgnoredFailures parse_ignored_failures(const std::string& text, const std::string& option) {
  if (text == "true") return IgnoredFailures{true, {}};  // the flag alone
  std::vector<int> codes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    std::size_t used = 0;
    int code = 0;
    try {
      code = std::stoi(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (word.empty() || used != word.size() || code < 1 || code > 255) {
      throw Error(
          fmt::format("{}={}: give exit codes 1 to 255, separated by commas ({}=1,2), or "
                      "none for every one",
                      option, text, option));
    }
    codes.push_back(code);
    start = comma + 1;
  }
  return ignoring_codes(std::move(codes));
}

IgnoredFailures ignoring_codes(std::vector<int> codes) {
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  return IgnoredFailures{false, std::move(codes)};
}

std::string codes_text(const IgnoredFailures& ignored) {
  return fmt::format("{}", fmt::join(ignored.codes, ","));
}

}  // namespace iobench::config
