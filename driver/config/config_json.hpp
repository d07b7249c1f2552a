#pragma once
// A Config as the JSON keys parse_config reads (docs/formats.md "Config"), written from the key
// table (config_keys.hpp) in its order: every field it holds, so that parse_config of the text
// gives an equal Config (but for `file`, `base_dir` and the relative paths, which depend on where
// the text is saved). bench's --save-config writes it, and bench's run record holds it.
#include <nlohmann/json.hpp>

#include "driver/config/config.hpp"

namespace iobench::config {

nlohmann::ordered_json config_to_json(const Config& config);

}  // namespace iobench::config
