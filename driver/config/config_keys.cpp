#include "driver/config/config_keys.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>
#include <string_view>
#include <type_traits>

#include "driver/config/bench_keys.hpp"
#include "driver/config/choices.hpp"
#include "driver/config/config_checks.hpp"
#include "driver/config/decide_keys.hpp"
#include "driver/config/disturbance_keys.hpp"
#include "driver/config/repeats.hpp"

namespace iobench::config::detail {
namespace {

using Kind = KeyKind;

// Without "inputs", one input that is no file (docs/formats.md "Config").
void one_input_that_is_none(Config& config) {
  config.inputs.assign(1, InputSpec{});
}

// One entry a key (made once, on first use: no order of static initialisation to mind). Its order
// is the one of parse_config's "known keys" error, of its reading (a later key's default may depend
// on an earlier one: "decide" on "repeats"), and of the saved config. Kept one entry a line or
// two: clang-format would give each field a line of its own.
// clang-format off
std::vector<ConfigKey> make_keys() {
  return {
    {.name = "name", .kind = Kind::kText, .field = &Config::name, .required = true,
     .parse = &parse_name},
    {.name = "description", .kind = Kind::kTextOrEmpty, .field = &Config::description},
    {.name = "inputs", .kind = Kind::kOwn, .default_from = &one_input_that_is_none,
     .parse = &parse_inputs, .write = &write_inputs},
    {.name = "stdin", .kind = Kind::kText, .field = &Config::stdin_text, .parse = &parse_stdin},
    {.name = "strategies", .kind = Kind::kOwn, .required = true, .parse = &parse_strategies,
     .write = &write_strategies},
    {.name = "params", .kind = Kind::kOwn, .parse = &parse_params, .write = &write_params},
    {.name = "sinks", .kind = Kind::kOwn, .parse = &parse_sinks, .write = &write_sinks},
    {.name = "repeats", .kind = Kind::kOwn, .parse = &parse_repeats, .write = &write_repeats,
     .check = &check_repeats},
    {.name = "warmup", .kind = Kind::kWholeNumber, .field = &Config::warmup, .min = INT_MIN,
     .max = INT_MAX, .check = &check_warmup},
    {.name = "cache", .kind = Kind::kChoice, .field = &Config::cache, .choices = &cache_mode_names},
    {.name = "order", .kind = Kind::kChoice, .field = &Config::order, .choices = &order_names,
     .check = &check_order},
    {.name = "seed", .kind = Kind::kWholeNumber, .field = &Config::seed, .min = 0,
     .max = INT64_MAX},
    {.name = "timeout_s", .kind = Kind::kNumber, .field = &Config::timeout_s,
     .rule = &timeout_rule, .check = &check_timeout},
    {.name = "baseline", .kind = Kind::kText, .field = &Config::baseline},
    {.name = "cpus", .kind = Kind::kOwn, .parse = &parse_cpus, .write = &write_cpus},
    {.name = "pipe_size", .kind = Kind::kOwn, .parse = &parse_pipe_size, .write = &write_pipe_size},
    {.name = "drain", .kind = Kind::kChoice, .field = &Config::drain, .choices = &drain_mode_names,
     .parse = &parse_drain},
    {.name = "counters", .kind = Kind::kOwn, .parse = &parse_counters, .write = &write_counters},
    {.name = "history", .kind = Kind::kText, .field = &Config::history},
    {.name = "disturbance", .kind = Kind::kChoice, .field = &Config::disturbance,
     .choices = &disturbance_mode_names, .default_from = &disturbance_default},
    {.name = "disturbance_threshold_cpus", .kind = Kind::kNumber,
     .field = &Config::disturbance_threshold_cpus, .rule = &threshold_rule,
     .check = &check_disturbance},
    {.name = "decide", .kind = Kind::kFlag, .field = &Config::decide,
     .default_from = &decide_default},
    {.name = "decide_margin_pct", .kind = Kind::kNumber, .field = &Config::decide_margin_pct,
     .rule = &margin_rule, .check = &check_margin},
    {.name = "family_reference", .kind = Kind::kOwn, .parse = &parse_family_reference,
     .write = &write_family_reference, .check = &check_family_reference},
    {.name = "$schema", .kind = Kind::kIgnored},
  };
}
// clang-format on

// A plain key's value, read into its field.
void parse_plain(const Validator& v, const ConfigKey& key, const Json& value, Config& config) {
  const std::string path = key.name;
  std::visit(
      [&](auto field) {
        if constexpr (std::is_same_v<decltype(field), std::monostate>) {
          return;  // a plain kind has its field (ConfigKeys.EveryPlainKeyHasAField)
        } else {
          using Field = std::remove_cvref_t<decltype(config.*field)>;
          if constexpr (std::is_same_v<Field, std::string>) {
            config.*field = v.string(value, path, key.kind == Kind::kTextOrEmpty);
          } else if constexpr (std::is_same_v<Field, bool>) {
            config.*field = v.boolean(value, path);
          } else if constexpr (std::is_same_v<Field, double>) {
            if (!value.is_number()) v.fail(path, key.rule());
            config.*field = value.get<double>();
          } else if constexpr (std::is_enum_v<Field>) {
            config.*field = static_cast<Field>(choice_index(v, value, path, key.choices()));
          } else {
            config.*field = static_cast<Field>(v.integer(value, path, key.min, key.max));
          }
        }
      },
      key.field);
}

// A plain key's value as written; null (left out) for an empty text.
Json write_plain(const ConfigKey& key, const Config& config) {
  return std::visit(
      [&](auto field) -> Json {
        if constexpr (std::is_same_v<decltype(field), std::monostate>) {
          return Json();
        } else {
          using Field = std::remove_cvref_t<decltype(config.*field)>;
          if constexpr (std::is_same_v<Field, std::string>) {
            return (config.*field).empty() ? Json() : Json(config.*field);
          } else if constexpr (std::is_enum_v<Field>) {
            return key.choices()[static_cast<std::size_t>(config.*field)];
          } else {
            return config.*field;
          }
        }
      },
      key.field);
}

}  // namespace

const std::vector<ConfigKey>& config_keys() {
  static const std::vector<ConfigKey> keys = make_keys();
  return keys;
}

std::size_t choice_index(const Validator& v, const Json& value, const std::string& path,
                         const std::vector<std::string>& names) {
  const std::string text = v.string(value, path);
  const auto found = std::find(names.begin(), names.end(), text);
  if (found == names.end())
    v.fail(path, fmt::format("'{}' is not one of: {}", text, fmt::join(names, ", ")));
  return static_cast<std::size_t>(found - names.begin());
}

void parse_keys(const Validator& v, const Json& root, Config& config) {
  std::vector<std::string_view> known;
  for (const ConfigKey& key : config_keys()) known.emplace_back(key.name);
  v.only_keys(root, "", known);
  for (const ConfigKey& key : config_keys()) {
    if (key.default_from != nullptr) key.default_from(config);
    const auto it = root.find(key.name);
    if (it == root.end()) {
      if (key.required) v.fail(key.name, "is required");
    } else if (key.parse != nullptr) {
      key.parse(v, *it, config);
    } else if (key.kind != Kind::kIgnored) {
      parse_plain(v, key, *it, config);
    }
  }
}

void check_keys(const Validator& v, const Config& config) {
  for (const ConfigKey& key : config_keys())
    if (key.check != nullptr) key.check(v, config);
}

Json write_keys(const Config& config) {
  Json json = Json::object();
  for (const ConfigKey& key : config_keys()) {
    if (key.kind == Kind::kIgnored) continue;
    Json value = key.write != nullptr ? key.write(config) : write_plain(key, config);
    if (!value.is_null()) json[key.name] = std::move(value);
  }
  return json;
}

}  // namespace iobench::config::detail
