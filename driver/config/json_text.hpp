#pragma once
// A config's JSON text parsed, or one error line that names the place (docs/formats.md "Config"):
// file:line:column for a syntax error, the number's text for one too large for a double.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

namespace iobench::config {

// Throws iobench::Error (exit 2) "FILE:LINE:COLUMN: invalid JSON: ...".
nlohmann::ordered_json parse_json_text(std::string_view text, const std::filesystem::path& file);

}  // namespace iobench::config
