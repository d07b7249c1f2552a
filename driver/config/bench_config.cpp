#include "driver/config/bench_config.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>

#include "common/error.hpp"
#include "driver/util/text.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& message) {
  throw Error(message);
}

bool is_param_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  });
}

std::vector<std::pair<std::string, std::vector<std::string>>> parse_params(
    const std::vector<std::string>& specs) {
  std::vector<std::pair<std::string, std::vector<std::string>>> params;
  for (const auto& spec : specs) {
    const auto equals = spec.find('=');
    const std::string name = spec.substr(0, equals);
    if (equals == std::string::npos || !is_param_name(name) || equals + 1 == spec.size()) {
      fail(fmt::format("-L '{}': expected NAME=V1,V2,... (NAME of letters, digits, '_' or '-')",
                       spec));
    }
    if (name == "input")
      fail(
          fmt::format("-L '{}': {{input}} is the --input path; pick another "
                      "name",
                      spec));
    for (const auto& [seen, values] : params) {
      if (seen == name) fail(fmt::format("-L {}: given twice; list every value in one -L", name));
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
                   std::initializer_list<std::string_view> allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  std::string names;
  for (const auto name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
  fail(fmt::format("{} {}: not one of {}", option, value, names));
}

}  // namespace

Json bench_config_json(const BenchRequest& request) {
  if (request.commands.empty()) {
    fail("bench needs a command to measure, e.g. iobench bench --input FILE 'wc -l {input}'");
  }
  if (request.inputs.empty()) {
    fail(
        "bench needs --input FILE, the file the commands read (a command names it {input}); "
        "make one with e.g. iobench gen lines --size 10MiB -o data/lines.txt");
  }
  for (const auto& input : request.inputs) {
    std::error_code ec;
    if (!fs::is_regular_file(input, ec)) {
      fail(
          fmt::format("--input {}: not a readable file (make one with e.g. iobench gen lines "
                      "--size 10MiB -o {})",
                      input, input));
    }
  }
  if (request.names.size() > request.commands.size()) {
    fail(fmt::format("--name is given {} times for {} commands; give one per command, in order",
                     request.names.size(), request.commands.size()));
  }
  const auto params = parse_params(request.param_specs);

  // The reference comes first: verification takes it as the output every other command must
  // match, and `relative` divides by it.
  std::vector<BenchCommand> commands;
  std::size_t reference = 0;
  if (!request.reference.empty()) {
    const auto it = std::find(request.commands.begin(), request.commands.end(), request.reference);
    if (it == request.commands.end()) {
      commands.push_back({request.reference, request.reference});
    } else {
      reference = static_cast<std::size_t>(it - request.commands.begin());
    }
  }
  for (std::size_t i = 0; i < request.commands.size(); ++i) {
    const std::string& text = request.commands[i];
    commands.push_back({text, i < request.names.size() ? request.names[i] : text});
  }
  if (!request.reference.empty() && commands.size() > request.commands.size()) reference = 0;

  std::set<std::string> used_params;
  std::set<std::string> names;
  for (const auto& command : commands) {
    if (command.text.find_first_not_of(" \t\n") == std::string::npos) {
      fail("a command is empty; give each command as one argument, e.g. 'wc -l {input}'");
    }
    if (command.name.empty() || command.name.find_first_of("\t\n\r") != std::string::npos) {
      fail(fmt::format("command '{}': its name must be one line without tabs; give --name",
                       command.text));
    }
    if (!names.insert(command.name).second) {
      fail(fmt::format("'{}' is given twice; give each command its own --name", command.name));
    }
    std::set<std::string> in_name;
    for (const auto& name : find_placeholders(command.name)) in_name.insert(name);
    for (const auto& name : find_placeholders(command.text)) {
      if (name == "input") continue;
      const bool defined = std::any_of(params.begin(), params.end(),
                                       [&](const auto& param) { return param.first == name; });
      if (!defined) {
        fail(
            fmt::format("command '{}': {{{}}} is not defined; give its values with -L {}=V1,V2 "
                        "(iobench replaces every {{NAME}} of letters, digits, '_' or '-')",
                        command.text, name, name));
      }
      used_params.insert(name);
      if (in_name.count(name) == 0) {
        fail(
            fmt::format("--name '{}': must contain {{{}}}, which its command uses, so that each "
                        "value gets its own name",
                        command.name, name));
      }
    }
  }
  for (const auto& [name, values] : params) {
    if (used_params.count(name) == 0)
      fail(fmt::format("-L {}: no command uses {{{}}}", name, name));
  }
  if (request.runs < 1) fail(fmt::format("--runs {}: must be 1 or more", request.runs));
  if (request.warmup < 0) fail(fmt::format("--warmup {}: must be 0 or more", request.warmup));
  if (request.timeout_s && !(*request.timeout_s > 0)) {
    fail(fmt::format("--timeout {}: must be a number of seconds above 0", *request.timeout_s));
  }

  Json config;
  config["name"] = "bench";
  config["description"] =
      fmt::format("Made by `{}`; `iobench run` on this file measures it again.",
                  request.made_by.empty() ? std::string("iobench bench") : request.made_by);
  config["inputs"] = request.inputs;
  Json strategies = Json::array();
  for (const auto& command : commands) {
    Json strategy;
    strategy["name"] = command.name;
    if (request.shell) {
      strategy["command"] = command.text;
      strategy["shell"] = true;
    } else {
      std::vector<std::string> words;
      if (!split_words(command.text, words)) {
        fail(fmt::format("command '{}': unterminated quote or trailing backslash", command.text));
      }
      strategy["command"] = words;
    }
    if (!request.verify) strategy["verify"] = false;
    strategies.push_back(std::move(strategy));
  }
  config["strategies"] = std::move(strategies);
  if (!params.empty()) {
    Json params_json = Json::object();
    for (const auto& [name, values] : params) params_json[name] = values;
    config["params"] = std::move(params_json);
  }
  std::vector<std::string> sinks;
  for (const auto& sink : request.sinks) {
    sinks.push_back(choice("--sink", sink, {"null", "pipe", "file"}));
    if (std::count(sinks.begin(), sinks.end(), sink) > 1) {
      fail(fmt::format("--sink {}: given twice", sink));
    }
  }
  config["sinks"] = sinks.empty() ? std::vector<std::string>{"pipe"} : sinks;
  config["repeats"] = request.runs;
  config["warmup"] = request.warmup;
  config["cache"] = choice("--cache", request.cache, {"warm", "cold", "none"});
  config["order"] = choice("--order", request.order, {"interleave", "grouped", "shuffle"});
  if (request.timeout_s) config["timeout_s"] = *request.timeout_s;
  if (!request.counters.empty()) config["counters"] = request.counters;
  // The reference test: its name with the first value of each -L it uses.
  std::vector<std::pair<std::string, std::string>> first_values;
  for (const auto& [name, values] : params) first_values.emplace_back(name, values.front());
  config["baseline"] = expand_placeholders(commands[reference].name, first_values);
  return config;
}

Config build_bench_config(const BenchRequest& request) {
  return parse_config(bench_config_json(request).dump(), kBenchConfigSource);
}

Json config_to_save(const Config& config, const fs::path& save_path) {
  Json saved = config.as_written;
  const fs::path save_dir = fs::absolute(save_path).lexically_normal().parent_path();
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    if (fs::path(config.inputs[i].path_text).is_absolute()) continue;
    const fs::path relative =
        fs::absolute(config.inputs[i].path).lexically_normal().lexically_relative(save_dir);
    const std::string text =
        relative.empty() ? fs::absolute(config.inputs[i].path).string() : relative.string();
    Json& input = saved["inputs"][i];
    if (input.is_object()) {
      input["path"] = text;
    } else {
      input = text;
    }
  }
  return saved;
}

}  // namespace iobench
