#include "driver/runfile/config_strategies.hpp"

#include <string>
#include <vector>

namespace iobench::runfile {
namespace {

using ConfigJson = nlohmann::json;

// The param's values as the config expands them: strings as they are, numbers as JSON writes them.
std::vector<std::string> param_values(const ConfigJson& config, std::string_view name) {
  std::vector<std::string> values;
  const auto params = config.find("params");
  if (params == config.end() || !params->is_object()) return values;
  const auto list = params->find(std::string(name));
  if (list == params->end() || !list->is_array()) return values;
  for (const auto& value : *list) {
    values.push_back(value.is_string() ? value.get<std::string>() : value.dump());
  }
  return values;
}

// Whether `text` is an expansion of `pattern` (docs/formats.md "Placeholders"): its literal parts
// as they are, each {PARAM} one of the param's values, {input} anything. A placeholder that is
// no param stays as written, as the expansion leaves it. Not the config's expand_placeholders
// (driver/config/config.hpp): that one fills a pattern from values, this one asks which pattern
// a name came from (the inverse, with {input} open), and the reports may not use the config
// library (docs/architecture.md, the layer walls).
bool expands_to(const ConfigJson& config, std::string_view pattern, std::string_view text) {
  const std::size_t open = pattern.find('{');
  const std::size_t close = open == std::string_view::npos ? open : pattern.find('}', open + 1);
  if (close == std::string_view::npos) return pattern == text;
  const std::string_view literal = pattern.substr(0, open);
  if (text.substr(0, literal.size()) != literal) return false;
  const std::string_view param = pattern.substr(open + 1, close - open - 1);
  const std::string_view rest_pattern = pattern.substr(close + 1);
  const std::string_view rest = text.substr(literal.size());
  if (param == "input") {
    for (std::size_t cut = 0; cut <= rest.size(); ++cut) {
      if (expands_to(config, rest_pattern, rest.substr(cut))) return true;
    }
    return false;
  }
  std::vector<std::string> values = param_values(config, param);
  if (values.empty()) values.emplace_back(pattern.substr(open, close - open + 1));
  for (const auto& value : values) {
    if (rest.substr(0, value.size()) == value &&
        expands_to(config, rest_pattern, rest.substr(value.size()))) {
      return true;
    }
  }
  return false;
}

}  // namespace

const ConfigJson& strategies_of(const ConfigJson& config) {
  static const ConfigJson kNone = ConfigJson::array();
  const auto it = config.find("strategies");
  return it != config.end() && it->is_array() ? *it : kNone;
}

std::optional<std::size_t> strategy_for_test(const ConfigJson& config, std::string_view test) {
  const ConfigJson& strategies = strategies_of(config);
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const auto it = strategies[i].find("name");
    if (it == strategies[i].end() || !it->is_string()) continue;
    if (expands_to(config, it->get<std::string>(), test)) return i;
  }
  return std::nullopt;
}

bool is_verified(const ConfigJson& config, std::string_view test) {
  const auto index = strategy_for_test(config, test);
  if (!index) return true;
  const ConfigJson& strategy = strategies_of(config)[*index];
  const auto it = strategy.find("verify");
  return it == strategy.end() || !it->is_boolean() || it->get<bool>();
}

}  // namespace iobench::runfile
