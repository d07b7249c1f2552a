#include "driver/config/config_json.hpp"

#include <string>
#include <vector>

#include "driver/config/config_keys.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/util/text.hpp"

namespace iobench::config {
namespace {

using Json = nlohmann::ordered_json;

Json input_json(const InputSpec& input) {
  if (!input.generate) return input.path_text;
  const gen::GenRequest& request = *input.generate;
  // Every kind a config may generate (a file kind) has a size.
  Json generate{{"kind", request.kind}, {"size", request.size_bytes}, {"seed", request.seed}};
  for (const auto& [key, value] : request.options.items())
    generate[key] = Json::parse(value.dump());
  return Json{{"path", input.path_text}, {"generate", std::move(generate)}};
}

Json strategy_json(const StrategySpec& strategy) {
  Json json{{"name", strategy.name}};
  if (strategy.kind == StrategySpec::Kind::kWorker) {
    json["worker"] = strategy.args;
  } else if (strategy.shell) {
    json["command"] = strategy.args.front();
    // sh is `true`; any other shell its command line, which the parser splits as sh would.
    if (strategy.shell_words == std::vector<std::string>{"sh"}) {
      json["shell"] = true;
    } else {
      json["shell"] = util::join_argv(strategy.shell_words);
    }
  } else {
    json["command"] = strategy.args;
  }
  if (!strategy.verify) json["verify"] = false;
  if (!strategy.description.empty()) json["description"] = strategy.description;
  if (!strategy.setup.empty()) json["setup"] = strategy.setup;
  if (!strategy.prepare.empty()) json["prepare"] = strategy.prepare;
  if (!strategy.conclude.empty()) json["conclude"] = strategy.conclude;
  if (!strategy.cleanup.empty()) json["cleanup"] = strategy.cleanup;
  if (strategy.ignore_failure.all) json["ignore_failure"] = true;
  if (!strategy.ignore_failure.codes.empty())
    json["ignore_failure"] = strategy.ignore_failure.codes;
  if (!strategy.output_file.empty()) json["output_file"] = strategy.output_file;
  return json;
}

// Name-value pairs as an object in their order; null (left out) when there are none.
template <typename Pairs>
Json object_of(const Pairs& pairs) {
  if (pairs.empty()) return Json();
  Json object = Json::object();
  for (const auto& [name, value] : pairs) object[name] = value;
  return object;
}

}  // namespace

// The keys with code of their own (the table: config_keys.cpp); a null value leaves the key out.
namespace detail {

// Absent when there is no input.
Json write_inputs(const Config& config) {
  if (config.inputs.size() == 1 && config.inputs.front().none()) return Json();
  Json inputs = Json::array();
  for (const InputSpec& input : config.inputs) inputs.push_back(input_json(input));
  return inputs;
}

Json write_strategies(const Config& config) {
  Json strategies = Json::array();
  for (const StrategySpec& strategy : config.strategies)
    strategies.push_back(strategy_json(strategy));
  return strategies;
}

Json write_params(const Config& config) {
  return object_of(config.params);
}

Json write_sinks(const Config& config) {
  Json sinks = Json::array();
  for (const SinkKind sink : config.sinks) sinks.emplace_back(std::string(to_string(sink)));
  return sinks;
}

// A fixed count is a number; a range stops on a precision target or a time to fill.
Json write_repeats(const Config& config) {
  if (config.repeats_ci_pct == 0 && config.repeats_fill_s == 0) return config.repeats;
  Json repeats{{"min", config.repeats_min}, {"max", config.repeats}};
  if (config.repeats_ci_pct > 0) {
    repeats["ci_pct"] = config.repeats_ci_pct;
  } else {
    repeats["fill_s"] = config.repeats_fill_s;
  }
  return repeats;
}

Json write_cpus(const Config& config) {
  return config.cpus.empty() ? Json() : Json(config.cpus);
}

Json write_pipe_size(const Config& config) {
  return config.pipe_size_bytes ? Json(*config.pipe_size_bytes) : Json();
}

Json write_counters(const Config& config) {
  if (config.counters.empty()) return Json();
  Json counters = Json::array();
  for (const runfile::Counter counter : config.counters)
    counters.emplace_back(std::string(config_name(counter)));
  return counters;
}

Json write_family_reference(const Config& config) {
  return object_of(config.family_reference);
}

}  // namespace detail

Json config_to_json(const Config& config) {
  return detail::write_keys(config);
}

}  // namespace iobench::config
