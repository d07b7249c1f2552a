#pragma once
// A meta file's JSON with only some of its top-level fields built (read_meta_for's `only`): the
// others are checked as JSON and dropped as they are parsed.
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace iobench::runfile {

// `text` parsed, keeping the top-level fields named in `fields`; nullopt, with nlohmann's message
// in `error`, for text that is not JSON.
std::optional<nlohmann::ordered_json> parse_top_level_fields(
    const std::string& text, std::span<const std::string_view> fields, std::string& error);

}  // namespace iobench::runfile
