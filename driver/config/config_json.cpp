#include "driver/config/config_json.hpp"

#include <string>
#include <vector>

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

// A fixed count is a number; a range stops on a precision target or a time to fill.
Json repeats_json(const Config& config) {
  if (config.repeats_ci_pct == 0 && config.repeats_fill_s == 0) return config.repeats;
  Json repeats{{"min", config.repeats_min}, {"max", config.repeats}};
  if (config.repeats_ci_pct > 0) {
    repeats["ci_pct"] = config.repeats_ci_pct;
  } else {
    repeats["fill_s"] = config.repeats_fill_s;
  }
  return repeats;
}

// What runs: inputs, stdin, strategies, params.
void add_matrix(const Config& config, Json& json) {
  if (!(config.inputs.size() == 1 && config.inputs.front().none())) {
    Json inputs = Json::array();
    for (const InputSpec& input : config.inputs) inputs.push_back(input_json(input));
    json["inputs"] = std::move(inputs);
  }
  if (!config.stdin_text.empty()) json["stdin"] = config.stdin_text;
  Json strategies = Json::array();
  for (const StrategySpec& strategy : config.strategies)
    strategies.push_back(strategy_json(strategy));
  json["strategies"] = std::move(strategies);
  if (!config.params.empty()) {
    Json params = Json::object();
    for (const auto& [name, values] : config.params) params[name] = values;
    json["params"] = std::move(params);
  }
}

// How and where it runs: sinks, schedule, machine, disturbance, decisions.
void add_schedule(const Config& config, Json& json) {
  Json sinks = Json::array();
  for (const SinkKind sink : config.sinks) sinks.emplace_back(std::string(to_string(sink)));
  json["sinks"] = std::move(sinks);
  json["repeats"] = repeats_json(config);
  json["warmup"] = config.warmup;
  json["cache"] = std::string(to_string(config.cache));
  json["order"] = std::string(to_string(config.order));
  json["seed"] = config.seed;
  json["timeout_s"] = config.timeout_s;
  if (!config.baseline.empty()) json["baseline"] = config.baseline;
  if (!config.history.empty()) json["history"] = config.history;
  if (!config.cpus.empty()) json["cpus"] = config.cpus;
  if (config.pipe_size_bytes) json["pipe_size"] = *config.pipe_size_bytes;
  json["drain"] = std::string(to_string(config.drain));
  if (!config.counters.empty()) {
    Json counters = Json::array();
    for (const runfile::Counter counter : config.counters)
      counters.emplace_back(std::string(config_name(counter)));
    json["counters"] = std::move(counters);
  }
  json["disturbance"] = std::string(to_string(config.disturbance));
  json["disturbance_threshold_cpus"] = config.disturbance_threshold_cpus;
  json["decide"] = config.decide;
  json["decide_margin_pct"] = config.decide_margin_pct;
  if (!config.family_reference.empty()) {
    Json family = Json::object();
    for (const auto& [name, value] : config.family_reference) family[name] = value;
    json["family_reference"] = std::move(family);
  }
}

}  // namespace

Json config_to_json(const Config& config) {
  Json json{{"name", config.name}};
  if (!config.description.empty()) json["description"] = config.description;
  add_matrix(config, json);
  add_schedule(config, json);
  return json;
}

}  // namespace iobench::config
