#pragma once
// Which strategy of a config a test (a run file's `test`, the strategy's expanded name) came from,
// and what that strategy says of it: the history keys its series by it, the reports mark a test
// whose output is not verified (docs/reports.md, "Marks"). The config library expands names; this
// asks the inverse, and the layers that read run files may not use the config library
// (docs/architecture.md).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace iobench::runfile {

// config["strategies"], or an empty array when the config has none.
const nlohmann::json& strategies_of(const nlohmann::json& config);
// Index in config["strategies"] of the strategy whose expansion is named `test`: its name with
// each {PARAM} one of the param's values ({input} anything); the first such strategy. Empty
// when the config has none.
std::optional<std::size_t> strategy_for_test(const nlohmann::json& config, std::string_view test);
// Whether `test`'s output is verified (its strategy has no "verify": false); true for a test no
// strategy names.
bool is_verified(const nlohmann::json& config, std::string_view test);

}  // namespace iobench::runfile
