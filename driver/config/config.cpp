#include "driver/config/config.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include "common/error.hpp"
#include "common/read_file.hpp"
#include "common/size.hpp"
#include "driver/config/bench_keys.hpp"
#include "driver/config/choices.hpp"
#include "driver/config/config_checks.hpp"
#include "driver/config/config_keys.hpp"
#include "driver/config/json_text.hpp"
#include "driver/config/validator.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::config {
namespace {

using Json = nlohmann::ordered_json;
using detail::parse_command_keys;
using detail::Validator;

constexpr std::array<std::string_view, 3> kGenerateKnownKeys{"kind", "size", "seed"};

constexpr std::array<std::pair<std::string_view, CacheMode>, 3> kCacheModes{
    {{"warm", CacheMode::kWarm}, {"cold", CacheMode::kCold}, {"none", CacheMode::kNone}}};
constexpr std::array<std::pair<std::string_view, DrainMode>, 2> kDrainModes{
    {{"spin", DrainMode::kSpin}, {"block", DrainMode::kBlock}}};
constexpr std::array<std::pair<std::string_view, RunOrder>, 4> kOrders{
    {{"interleave", RunOrder::kInterleave},
     {"grouped", RunOrder::kGrouped},
     {"shuffle", RunOrder::kShuffle},
     {"duet", RunOrder::kDuet}}};
constexpr std::array<std::pair<std::string_view, SinkKind>, 4> kSinks{
    {{"null", SinkKind::kNull},
     {"pipe", SinkKind::kPipe},
     {"file", SinkKind::kFile},
     {"inherit", SinkKind::kInherit}}};

InputSpec parse_input(const Validator& v, const Json& value, const std::string& path,
                      const std::filesystem::path& base_dir) {
  InputSpec input;
  if (value.is_string()) {
    input.path_text = v.string(value, path);
  } else if (value.is_object()) {
    v.only_keys(value, path, {"path", "generate", "description"});
    input.path_text = v.string(v.require(value, path, "path"), Validator::join(path, "path"));
    if (const auto it = value.find("generate"); it != value.end()) {
      const std::string gpath = Validator::join(path, "generate");
      if (!it->is_object())
        v.fail(gpath, "must be an object like {\"kind\": \"ngram\", \"size\": \"1GiB\"}");
      gen::GenRequest request;
      request.kind = v.string(v.require(*it, gpath, "kind"), Validator::join(gpath, "kind"));
      // Refused here: made before the runs, a folder then failed every run (exit 1, rows written).
      if (gen::writes_folder(request.kind)) {
        v.fail(Validator::join(gpath, "kind"),
               "'" + request.kind +
                   "' writes a folder of files, and an input is one file (make it with iobench "
                   "gen " +
                   request.kind + " -o FOLDER/ and name its files as inputs)");
      }
      if (const auto size = it->find("size"); size != it->end()) {
        request.size_bytes = v.size(*size, Validator::join(gpath, "size"));
      } else {
        v.fail(Validator::join(gpath, "size"), "is required");
      }
      if (const auto seed = it->find("seed"); seed != it->end()) {
        request.seed = static_cast<std::uint64_t>(
            v.integer(*seed, Validator::join(gpath, "seed"), 0, INT64_MAX));
      }
      for (const auto& [key, option] : it->items()) {
        if (std::find(kGenerateKnownKeys.begin(), kGenerateKnownKeys.end(), key) ==
            kGenerateKnownKeys.end()) {
          request.options[key] = nlohmann::json::parse(option.dump());
        }
      }
      try {
        gen::validate(request);
      } catch (const Error& e) {
        v.fail(gpath, e.what());
      }
      input.generate = std::move(request);
    }
  } else {
    v.fail(path, "must be a path string or an object with \"path\"");
  }
  input.path = resolve_input_path(input.path_text, base_dir);
  return input;
}

StrategySpec parse_strategy(const Validator& v, const Json& value, const std::string& path) {
  if (!value.is_object())
    v.fail(path, "must be an object with \"name\" and \"worker\" or \"command\"");
  v.only_keys(value, path,
              {"name", "worker", "command", "shell", "verify", "description", "setup", "prepare",
               "conclude", "cleanup", "ignore_failure", "output_file"});
  StrategySpec strategy;
  strategy.name = v.string(v.require(value, path, "name"), Validator::join(path, "name"));
  if (strategy.name.find_first_of("\t\n\r") != std::string::npos) {
    v.fail(Validator::join(path, "name"), "must not contain tabs or newlines");
  }
  const bool has_worker = value.contains("worker");
  const bool has_command = value.contains("command");
  if (has_worker == has_command) v.fail(path, "needs exactly one of \"worker\" or \"command\"");
  parse_command_keys(v, value, path, strategy);
  if (const auto it = value.find("verify"); it != value.end()) {
    strategy.verify = v.boolean(*it, Validator::join(path, "verify"));
  }
  if (const auto it = value.find("description"); it != value.end()) {
    strategy.description = v.string(*it, Validator::join(path, "description"), true);
  }
  if (has_worker) {
    if (strategy.shell) v.fail(Validator::join(path, "shell"), "applies to \"command\" only");
    strategy.kind = StrategySpec::Kind::kWorker;
    strategy.args = v.strings(value["worker"], Validator::join(path, "worker"));
  } else if (strategy.shell) {
    strategy.kind = StrategySpec::Kind::kCommand;
    strategy.args = {v.string(value["command"], Validator::join(path, "command"))};
  } else {
    strategy.kind = StrategySpec::Kind::kCommand;
    strategy.args = v.strings(value["command"], Validator::join(path, "command"));
    if (strategy.args.front().empty())
      v.fail(Validator::index(Validator::join(path, "command"), 0), "must name a program");
  }
  return strategy;
}

}  // namespace

// The top-level keys with code of their own (the table: config_keys.cpp).
namespace detail {

void parse_name(const Validator& v, const Json& value, Config& config) {
  config.name = v.string(value, "name");
  if (config.name.find_first_of("/\\\t\n") != std::string::npos) {
    v.fail("name", "must not contain '/', tabs or newlines (it names the results file)");
  }
}

// "inputs"; absent: one input that is none (docs/formats.md "Config"), the table's default.
void parse_inputs(const Validator& v, const Json& value, Config& config) {
  if (!value.is_array() || value.empty()) v.fail("inputs", "must be a non-empty list");
  config.inputs.clear();
  for (std::size_t i = 0; i < value.size(); ++i) {
    config.inputs.push_back(
        parse_input(v, value[i], Validator::index("inputs", i), config.base_dir));
  }
}

void parse_strategies(const Validator& v, const Json& value, Config& config) {
  if (!value.is_array() || value.empty()) v.fail("strategies", "must be a non-empty list");
  config.strategies.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    config.strategies.push_back(parse_strategy(v, value[i], Validator::index("strategies", i)));
  }
}

void parse_params(const Validator& v, const Json& params, Config& config) {
  if (!params.is_object())
    v.fail("params", "must be an object of lists, like {\"buf\": [\"4KiB\"]}");
  for (const auto& [name, values] : params.items()) {
    const std::string path = Validator::join("params", name);
    if (name == "input") v.fail(path, "'input' is reserved for the input path");
    if (find_placeholders("{" + name + "}").empty()) {
      v.fail(path, "a param name may hold letters, digits, '_' and '-' only");
    }
    if (!values.is_array() || values.empty()) v.fail(path, "must be a non-empty list");
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto& value = values[i];
      if (value.is_string()) {
        texts.push_back(value.get<std::string>());
      } else if (value.is_number()) {
        texts.push_back(value.dump());
      } else {
        v.fail(Validator::index(path, i), "must be a string or a number");
      }
    }
    config.params.emplace_back(name, std::move(texts));
  }
}

void parse_sinks(const Validator& v, const Json& sinks, Config& config) {
  config.sinks.clear();
  if (!sinks.is_array() || sinks.empty())
    v.fail("sinks", "must be a non-empty list of null, pipe, file, inherit");
  const std::vector<std::string> names = sink_names();
  for (std::size_t i = 0; i < sinks.size(); ++i) {
    const std::string path = Validator::index("sinks", i);
    const auto sink = static_cast<SinkKind>(choice_index(v, sinks[i], path, names));
    if (std::find(config.sinks.begin(), config.sinks.end(), sink) != config.sinks.end()) {
      v.fail(path, "is listed twice");
    }
    config.sinks.push_back(sink);
  }
}

void parse_cpus(const Validator& v, const Json& cpus, Config& config) {
  if (!cpus.is_array() || cpus.empty()) v.fail("cpus", "must be a non-empty list of CPU numbers");
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    config.cpus.push_back(
        static_cast<int>(v.integer(cpus[i], Validator::index("cpus", i), 0, 1023)));
  }
}

void parse_pipe_size(const Validator& v, const Json& value, Config& config) {
  config.pipe_size_bytes = v.size(value, "pipe_size");
  if (*config.pipe_size_bytes == 0) v.fail("pipe_size", "must be above 0");
}

void parse_drain(const Validator& v, const Json& value, Config& config) {
  // `auto`, the default until the spawner drained (it spun until another task wanted its CPU),
  // reads as today's default: a config written then still runs.
  config.drain = v.string(value, "drain") == "auto"
                     ? DrainMode::kBlock
                     : static_cast<DrainMode>(choice_index(v, value, "drain", drain_mode_names()));
}

void parse_counters(const Validator& v, const Json& counters, Config& config) {
  if (!counters.is_array()) v.fail("counters", "must be a list of counter names");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < counters.size(); ++i)
    names.push_back(v.string(counters[i], Validator::index("counters", i)));
  config.counters = counters_named(v, names, "counters");
}

}  // namespace detail

template <typename Enum, std::size_t N>
std::vector<std::string> names_of(const std::array<std::pair<std::string_view, Enum>, N>& choices) {
  std::vector<std::string> names;
  names.reserve(N);
  for (const auto& choice : choices) names.emplace_back(choice.first);
  return names;
}

std::vector<std::string> sink_names() {
  return names_of(kSinks);
}
std::vector<std::string> cache_mode_names() {
  return names_of(kCacheModes);
}
std::vector<std::string> order_names() {
  return names_of(kOrders);
}
std::vector<std::string> drain_mode_names() {
  return names_of(kDrainModes);
}

std::string_view to_string(CacheMode mode) noexcept {
  return kCacheModes[static_cast<std::size_t>(mode)].first;
}
std::string_view to_string(RunOrder order) noexcept {
  return kOrders[static_cast<std::size_t>(order)].first;
}
bool rounds_interleaved(RunOrder order) noexcept {
  return order == RunOrder::kInterleave || order == RunOrder::kDuet;
}
std::string_view to_string(SinkKind sink) noexcept {
  return kSinks[static_cast<std::size_t>(sink)].first;
}
std::string_view to_string(DrainMode mode) noexcept {
  return kDrainModes[static_cast<std::size_t>(mode)].first;
}

namespace {

// parse_config, taking the text to keep it without a copy.
Config parse_config_text(std::string text, const std::filesystem::path& file) {
  const Validator v(file.string());
  const Json root = parse_json_text(text, file);
  if (!root.is_object()) v.fail("(top level)", "must be a JSON object");

  Config config;
  config.file = file;
  config.base_dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  detail::parse_keys(v, root, config);
  check_config(config);
  config.as_written.text = std::move(text);
  return config;
}

}  // namespace

Config parse_config(std::string_view text, const std::filesystem::path& file) {
  return parse_config_text(std::string(text), file);
}

std::filesystem::path resolve_input_path(const std::string& path_text,
                                         const std::filesystem::path& base_dir) {
  const std::filesystem::path path(path_text);
  return path.is_absolute() ? path : (base_dir / path).lexically_normal();
}

void set_data_dir(Config& config, const std::filesystem::path& data_dir) {
  config.base_dir = data_dir;
  for (auto& input : config.inputs) {
    if (!input.none()) input.path = resolve_input_path(input.path_text, data_dir);
  }
  if (!config.stdin_text.empty())
    config.stdin_path = resolve_input_path(config.stdin_text, data_dir);
}

nlohmann::ordered_json WrittenConfig::tree() const {
  return text.empty() ? Json() : Json::parse(text);
}

Config load_config(const std::filesystem::path& file) {
  return parse_config_text(read_file_bytes(file), file);
}

}  // namespace iobench::config
