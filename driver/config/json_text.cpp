#include "driver/config/json_text.hpp"

#include <fmt/core.h>

#include <string>

#include "common/error.hpp"

namespace iobench::config {
namespace {

using Json = nlohmann::ordered_json;

// "LINE:COLUMN" of the byte at 1-based offset `byte` (nlohmann's position of a parse error).
std::string line_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("{}:{}", line, column);
}

}  // namespace

Json parse_json_text(std::string_view text, const std::filesystem::path& file) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // nlohmann's message starts "[json.exception.parse_error.101] parse error at line 1, ...".
    std::string what = e.what();
    const auto colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw Error(
        fmt::format("{}:{}: invalid JSON: {}", file.string(), line_column(text, e.byte), what));
  } catch (const Json::out_of_range& e) {
    // A number too large for a double ("number overflow parsing '1e400'"): nlohmann gives no
    // position, so find the number's text to name its place.
    const std::string what = e.what();
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    const std::string number =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
    throw Error(fmt::format("{}:{}: invalid JSON: the number {} does not fit a double",
                            file.string(),
                            line_column(text, at == std::string_view::npos ? 0 : at + 1),
                            number.empty() ? std::string("here") : number));
  }
}

}  // namespace iobench::config
