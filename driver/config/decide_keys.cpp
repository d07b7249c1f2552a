#include "driver/config/decide_keys.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace iobench::config::detail {
namespace {

constexpr const char* kMarginRule = "must be a percentage above 0 and below 100";

}  // namespace

std::string margin_rule() {
  return kMarginRule;
}

void decide_default(Config& config) {
  // A precision target or a time to fill already lets a cell stop early; a decided comparison is
  // the other reason.
  config.decide = config.repeats_ci_pct > 0 || config.repeats_fill_s > 0;
}

void parse_family_reference(const Validator& v, const Json& family, Config& config) {
  if (!family.is_object() || family.empty())
    v.fail("family_reference", "must be an object of param values, like {\"ps\": \"64KiB\"}");
  for (const auto& [name, value] : family.items()) {
    if (!value.is_string() && !value.is_number())
      v.fail(Validator::join("family_reference", name), "must be a string or a number");
    // As "params" spells a number.
    config.family_reference.emplace_back(
        name, value.is_string() ? value.get<std::string>() : value.dump());
  }
}

void check_margin(const Validator& v, const Config& config) {
  if (!(config.decide_margin_pct > 0) || config.decide_margin_pct >= 100)
    v.fail("decide_margin_pct", margin_rule());
}

void check_family_reference(const Validator& v, const Config& config) {
  for (const auto& [name, value] : config.family_reference) {
    const std::string path = Validator::join("family_reference", name);
    const std::string& param_name = name;  // a structured binding: clang 14 cannot capture it
    const auto param = std::find_if(config.params.begin(), config.params.end(),
                                    [&param_name](const auto& p) { return p.first == param_name; });
    if (param == config.params.end()) v.fail(path, "is not a param (define it under \"params\")");
    if (std::find(param->second.begin(), param->second.end(), value) == param->second.end())
      v.fail(path, fmt::format("'{}' is not one of its values ({})", value,
                               fmt::join(param->second, ", ")));
  }
}

}  // namespace iobench::config::detail
