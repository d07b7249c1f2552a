#include "driver/bench/request.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <set>
#include <string_view>

#include "common/error.hpp"
#include "driver/bench/hyperfine_options.hpp"
#include "driver/config/choices.hpp"
#include "driver/config/config_checks.hpp"
#include "driver/config/config_json.hpp"
#include "driver/config/disturbance_keys.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using config::cache_mode_names;
using config::CacheMode;
using config::check_config;
using config::Config;
using config::config_to_json;
using config::disturbance_mode_named;
using config::expand_placeholders;
using config::find_placeholders;
using config::order_names;
using config::resolve_input_path;
using config::RunOrder;
using config::sink_names;
using config::SinkKind;
using config::StrategySpec;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

bool is_param_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  });
}

// Each -L NAME=V1,V2 and its values, in order.
using Params = std::vector<std::pair<std::string, std::vector<std::string>>>;

Params parse_params(const std::vector<std::string>& specs) {
  Params params;
  for (const auto& spec : specs) {
    const auto equals = spec.find('=');
    const std::string name = spec.substr(0, equals);
    if (equals == std::string::npos || !is_param_name(name) || equals + 1 == spec.size()) {
      refuse(
          fmt::format("-L '{}': expected NAME V1,V2,... or NAME=V1,V2,... (NAME of letters, "
                      "digits, '_' or '-')",
                      spec));
    }
    if (name == "input")
      refuse(
          fmt::format("-L '{}': {{input}} is the --input path; pick another "
                      "name",
                      spec));
    for (const auto& [seen, values] : params) {
      if (seen == name) refuse(fmt::format("-L {}: given twice; list every value in one -L", name));
    }
    std::vector<std::string> values;
    std::size_t start = equals + 1;
    for (;;) {
      const std::size_t comma = spec.find(',', start);
      values.push_back(spec.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    params.emplace_back(name, std::move(values));
  }
  return params;
}

struct BenchCommand {
  std::string text;
  std::string name;
};

// Checks the choice against its allowed values; the option names the message.
std::string choice(std::string_view option, const std::string& value,
                   const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  refuse(fmt::format("{} {}: not one of {}", option, value, fmt::join(allowed, ", ")));
}

// What bench cannot run without: a command, input and stdin files that exist, no more names
// than commands.
void check_commands_and_inputs(const BenchRequest& request) {
  if (request.commands.empty()) {
    refuse("bench needs a command to measure, e.g. iobench bench 'sleep 0.1' 'sleep 0.2'");
  }
  if (!request.stdin_file.empty() && ::access(request.stdin_file.c_str(), R_OK) != 0) {
    refuse(fmt::format("--stdin {}: cannot be read: {}", request.stdin_file, std::strerror(errno)));
  }
  for (const auto& input : request.inputs) {
    std::error_code ec;
    if (!fs::is_regular_file(input, ec)) {
      refuse(
          fmt::format("--input {}: not a readable file (make one with e.g. iobench gen lines "
                      "--size 10MiB -o {})",
                      input, input));
    }
  }
  if (request.names.size() > request.commands.size()) {
    refuse(fmt::format("--name is given {} times for {} commands; give one per command, in order",
                       request.names.size(), request.commands.size()));
  }
  if (!request.reference_name.empty() && request.reference.empty()) {
    refuse("--reference-name names the --reference command, and there is none (as hyperfine)");
  }
}

// The same command given twice runs twice, as in hyperfine; a test's name keys its rows, so the
// second one is named "CMD #2", the third "CMD #3".
std::string unused_name(const std::string& text, const std::vector<BenchCommand>& named) {
  const auto taken = [&named](const std::string& name) {
    return std::any_of(named.begin(), named.end(),
                       [&name](const BenchCommand& command) { return command.name == name; });
  };
  std::string name = text;
  for (int k = 2; taken(name); ++k) name = fmt::format("{} #{}", text, k);
  return name;
}

struct OrderedCommands {
  std::vector<BenchCommand> commands;
  std::size_t reference = 0;  // its index in commands
};

// The commands with their names, the reference first when it is not one of them: verification
// takes it as the output every other command must match, and `relative` divides by it.
OrderedCommands order_commands(const BenchRequest& request) {
  OrderedCommands ordered;
  if (!request.reference.empty()) {
    const auto it = std::find(request.commands.begin(), request.commands.end(), request.reference);
    if (it == request.commands.end()) {
      ordered.commands.push_back({request.reference, request.reference});
    } else {
      ordered.reference = static_cast<std::size_t>(it - request.commands.begin());
    }
  }
  for (std::size_t i = 0; i < request.commands.size(); ++i) {
    const std::string& text = request.commands[i];
    ordered.commands.push_back(
        {text, i < request.names.size() ? request.names[i] : unused_name(text, ordered.commands)});
  }
  if (!request.reference.empty() && ordered.commands.size() > request.commands.size()) {
    ordered.reference = 0;
  }
  if (!request.reference_name.empty()) {
    ordered.commands[ordered.reference].name = request.reference_name;
  }
  return ordered;
}

// Each command non-empty, named on one line, once; each {NAME} it uses given by a -L and in its
// name; each -L used, and an --input.
void check_names_and_params(const std::vector<BenchCommand>& commands, const Params& params,
                            bool has_input, const std::string& scan_name) {
  std::set<std::string> used_params;
  std::set<std::string> names;
  for (const auto& command : commands) {
    if (command.text.find_first_not_of(" \t\n") == std::string::npos) {
      refuse("a command is empty; give each command as one argument, e.g. 'wc -l {input}'");
    }
    if (command.name.empty() || command.name.find_first_of("\t\n\r") != std::string::npos) {
      refuse(fmt::format("command '{}': its name must be one line without tabs; give --name",
                         command.text));
    }
    if (!names.insert(command.name).second) {
      refuse(fmt::format("'{}' is given twice; give each command its own --name", command.name));
    }
    std::set<std::string> in_name;
    for (const auto& name : find_placeholders(command.name)) in_name.insert(name);
    for (const auto& name : find_placeholders(command.text)) {
      if (name == "input" && !has_input) {
        refuse(fmt::format(
            "command '{}': {{input}} is the --input path, but no --input is given (give "
            "--input FILE, or --stdin FILE to feed a file to its stdin)",
            command.text));
      }
      if (name == "input") {
        used_params.insert(name);
        continue;
      }
      const bool defined = std::any_of(params.begin(), params.end(),
                                       [&](const auto& param) { return param.first == name; });
      if (!defined) {
        refuse(
            fmt::format("command '{}': {{{}}} is not defined; give its values with -L {}=V1,V2 "
                        "(iobench replaces every {{NAME}} of letters, digits, '_' or '-')",
                        command.text, name, name));
      }
      used_params.insert(name);
      if (in_name.count(name) == 0) {
        refuse(
            fmt::format("--name '{}': must contain {{{}}}, which its command uses, so that each "
                        "value gets its own name",
                        command.name, name));
      }
    }
  }
  for (const auto& [name, values] : params) {
    if (used_params.count(name) == 0)
      refuse(fmt::format("{} {}: no command uses {{{}}}", name == scan_name ? "-P" : "-L", name,
                         name));
  }
  // As an unused -L is: the file would go unread, and the runs would time nothing of it.
  if (has_input && used_params.count("input") == 0) {
    refuse(
        "--input: no command uses {input}; put {input} where the command takes its file (e.g. "
        "'wc -l {input}'), or give --stdin FILE to feed the file to its stdin");
  }
}

void check_counts(const BenchRequest& request) {
  if (request.warmup < 0) refuse(fmt::format("--warmup {}: must be 0 or more", request.warmup));
  if (request.timeout_s && !(*request.timeout_s > 0)) {
    refuse(fmt::format("--timeout {}: must be a number of seconds above 0", *request.timeout_s));
  }
}

// The commands as strategies: a command line for the shell, or its words without one.
std::vector<StrategySpec> bench_strategies(const std::vector<BenchCommand>& commands,
                                           const BenchRequest& request) {
  const bool verify = choice("--verify", request.verify, {"on", "off"}) == "on";
  std::vector<StrategySpec> strategies;
  for (const auto& command : commands) {
    StrategySpec strategy;
    strategy.name = command.name;
    strategy.kind = StrategySpec::Kind::kCommand;
    strategy.verify = verify;
    if (request.shell && request.shell_name != "none") {
      strategy.shell = true;
      strategy.args = {command.text};
    } else if (!util::split_words(command.text, strategy.args)) {
      refuse(fmt::format("command '{}': unterminated quote or trailing backslash", command.text));
    } else if (strategy.args.front().empty()) {
      refuse(fmt::format("command '{}': its first word must name a program", command.text));
    }
    strategies.push_back(std::move(strategy));
  }
  return strategies;
}

// The index of `text` among `names`, which are in the enum's order (choices.hpp), as the enum.
template <typename Enum>
Enum named(const std::vector<std::string>& names, const std::string& text) {
  return static_cast<Enum>(std::find(names.begin(), names.end(), text) - names.begin());
}

// The inputs' page-cache state; without an input there is none to prepare.
CacheMode cache_mode(const BenchRequest& request) {
  if (request.inputs.empty()) {
    if (!request.cache.empty() && request.cache != "none") {
      refuse(
          fmt::format("--cache {}: prepares the --input files' page cache, and there is no "
                      "--input (a --prepare command can do it for other files)",
                      request.cache));
    }
    return CacheMode::kNone;
  }
  return named<CacheMode>(
      cache_mode_names(),
      request.cache.empty() ? "warm" : choice("--cache", request.cache, cache_mode_names()));
}

// The matrix: commands, inputs, stdin, params and the reference test's name.
void set_matrix(const BenchRequest& request, Config& config) {
  Params params = parse_params(request.param_specs);
  if (auto scan = parameter_scan_values(request.parameter_scan, request.parameter_step);
      !scan.first.empty()) {
    for (const auto& [name, values] : params) {
      if (name == scan.first) refuse(fmt::format("-P {}: is given by -L too", name));
    }
    if (scan.first == "input") refuse("-P input: {input} is the --input path; pick another name");
    params.push_back(std::move(scan));
  }
  const OrderedCommands ordered = order_commands(request);
  check_names_and_params(ordered.commands, params, !request.inputs.empty(),
                         request.parameter_scan.empty() ? "" : request.parameter_scan.front());
  for (const auto& input : request.inputs)
    config.inputs.push_back({input, resolve_input_path(input, config.base_dir), std::nullopt});
  if (request.inputs.empty()) config.inputs.emplace_back();
  if (!request.stdin_file.empty()) {
    config.stdin_text = request.stdin_file;
    config.stdin_path = resolve_input_path(config.stdin_text, config.base_dir);
  }
  config.strategies = bench_strategies(ordered.commands, request);
  add_command_keys(config.strategies, request, ordered.commands.size() > request.commands.size());
  config.params = params;
  // The reference test: its name with the first value of each -L it uses.
  std::vector<std::pair<std::string, std::string>> first_values;
  for (const auto& [name, values] : params) first_values.emplace_back(name, values.front());
  config.baseline = expand_placeholders(ordered.commands[ordered.reference].name, first_values);
}

// How each runs: sinks, repeats, warmup, cache, order, timeout, counters, disturbance, decide.
void set_schedule(const BenchRequest& request, Config& config) {
  check_counts(request);
  config.sinks.clear();
  for (const auto& sink : bench_sinks(request))
    config.sinks.push_back(named<SinkKind>(sink_names(), sink));
  set_bench_repeats(request, config);
  config.warmup = request.warmup;
  config.cache = cache_mode(request);
  config.order = named<RunOrder>(order_names(), choice("--order", request.order, order_names()));
  if (request.timeout_s) config.timeout_s = *request.timeout_s;
  config.counters = config::detail::counters_named(config::detail::Validator(kBenchConfigSource),
                                                   request.counters, "counters");
  config.disturbance = *disturbance_mode_named(
      choice("--disturbance", request.disturbance, {"off", "flag", "rerun"}));
  if (request.disturbance_threshold_cpus)
    config.disturbance_threshold_cpus = *request.disturbance_threshold_cpus;
  // A test stops once its comparison with the reference is decided (docs/reports.md).
  // By default only without a run count: -r, -m and -M give hyperfine's counts (docs/bench.md).
  const bool counted = request.runs || request.min_runs || request.max_runs;
  config.decide =
      request.decide.empty() ? !counted : choice("--decide", request.decide, {"on", "off"}) == "on";
  if (request.decide_margin_pct) config.decide_margin_pct = *request.decide_margin_pct;
}

}  // namespace

Config build_bench_config(const BenchRequest& request) {
  check_commands_and_inputs(request);
  Config config;
  config.file = kBenchConfigSource;
  config.base_dir = ".";
  config.name = "bench";
  config.description =
      fmt::format("Made by `{}`; `iobench run` on this file measures it again.",
                  request.made_by.empty() ? std::string("iobench bench") : request.made_by);
  set_matrix(request, config);
  set_schedule(request, config);
  check_config(config);
  config.as_written.text = config_to_json(config).dump();
  return config;
}

Json config_to_save(const Config& config, const fs::path& save_path) {
  Json saved = config_to_json(config);
  const fs::path save_dir = fs::absolute(save_path).lexically_normal().parent_path();
  // A path as `iobench run` resolves it from the saved file's folder (absolute stays absolute).
  auto from_save_dir = [&](const std::string& text, const fs::path& path) {
    if (fs::path(text).is_absolute()) return text;
    const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(save_dir);
    return relative.empty() ? fs::absolute(path).string() : relative.string();
  };
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    if (config.inputs[i].none()) continue;
    const std::string text = from_save_dir(config.inputs[i].path_text, config.inputs[i].path);
    Json& input = saved["inputs"][i];
    if (input.is_object()) {
      input["path"] = text;
    } else {
      input = text;
    }
  }
  if (!config.stdin_text.empty())
    saved["stdin"] = from_save_dir(config.stdin_text, config.stdin_path);
  return saved;
}

}  // namespace iobench::bench
