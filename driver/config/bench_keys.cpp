#include "driver/config/bench_keys.hpp"

#include <fmt/core.h>

#include <array>
#include <set>
#include <utility>
#include <vector>

#include "driver/util/text.hpp"

namespace iobench::config::detail {
namespace {

// The hooks, by key.
constexpr std::array<std::pair<const char*, std::string StrategySpec::*>, 4> kHooks{
    {{"setup", &StrategySpec::setup},
     {"prepare", &StrategySpec::prepare},
     {"conclude", &StrategySpec::conclude},
     {"cleanup", &StrategySpec::cleanup}}};

// "ignore_failure": true (every non-zero exit), false, or a list of exit codes ([1, 2]).
IgnoredFailures ignored_failures(const Validator& v, const Json& value, const std::string& path) {
  if (!value.is_array()) {
    if (!value.is_boolean()) v.fail(path, "must be true, false or a list of exit codes ([1, 2])");
    return IgnoredFailures{value.get<bool>(), {}};
  }
  if (value.empty()) v.fail(path, "must not be an empty list");
  std::vector<int> codes;
  for (std::size_t i = 0; i < value.size(); ++i)
    codes.push_back(static_cast<int>(v.integer(value[i], Validator::index(path, i), 1, 255)));
  return ignoring_codes(std::move(codes));
}

// "shell": true (sh), false, or a shell's command line ("bash --norc"), split into words as sh
// would.
void parse_shell(const Validator& v, const Json& value, const std::string& path,
                 StrategySpec& strategy) {
  if (value.is_boolean()) {
    strategy.shell = value.get<bool>();
    return;
  }
  if (!value.is_string()) {
    v.fail(path, "must be true, false or a shell's command line such as \"bash --norc\"");
  }
  strategy.shell = true;
  strategy.shell_words = shell_words_of(v, value.get<std::string>(), path);
}

}  // namespace

std::vector<std::string> shell_words_of(const Validator& v, const std::string& text,
                                        const std::string& path) {
  std::vector<std::string> words;
  if (!util::split_words(text, words) || words.empty()) {
    v.fail(path, "must name a shell, e.g. \"bash --norc\" (words quoted as sh quotes them)");
  }
  return words;
}

void parse_stdin(const Validator& v, const Json& value, Config& config) {
  config.stdin_text = v.string(value, "stdin");
  config.stdin_path = resolve_input_path(config.stdin_text, config.base_dir);
}

void parse_command_keys(const Validator& v, const Json& value, const std::string& path,
                        StrategySpec& strategy) {
  if (const auto it = value.find("shell"); it != value.end()) {
    parse_shell(v, *it, Validator::join(path, "shell"), strategy);
  }
  for (const auto& [key, field] : kHooks) {
    if (const auto it = value.find(key); it != value.end()) {
      strategy.*field = v.string(*it, Validator::join(path, key));
    }
  }
  if (const auto it = value.find("ignore_failure"); it != value.end()) {
    strategy.ignore_failure = ignored_failures(v, *it, Validator::join(path, "ignore_failure"));
  }
  if (const auto it = value.find("output_file"); it != value.end()) {
    strategy.output_file = v.string(*it, Validator::join(path, "output_file"));
  }
}

void check_workers_have_an_input(const Validator& v, const Config& config) {
  if (!config.inputs.front().none()) return;
  for (std::size_t i = 0; i < config.strategies.size(); ++i) {
    if (config.strategies[i].kind == StrategySpec::Kind::kWorker) {
      v.fail(Validator::join(Validator::index("strategies", i), "worker"),
             "a worker reads an input file, but the config has no \"inputs\"");
    }
  }
}

void check_hook_placeholders(const Validator& v, const Config& config) {
  for (std::size_t i = 0; i < config.strategies.size(); ++i) {
    const StrategySpec& strategy = config.strategies[i];
    std::set<std::string> in_name;
    for (const auto& name : find_placeholders(strategy.name)) in_name.insert(name);
    for (const auto& [key, field] : kHooks) {
      for (const auto& name : find_placeholders(strategy.*field)) {
        if (name == "build") continue;  // the build measured, filled by the plan, as in args
        if (name == "input" || in_name.count(name) == 0) {
          v.fail(Validator::join(Validator::index("strategies", i), key),
                 fmt::format("{{{}}} is not a param of the strategy's name (a hook has the "
                             "test's params, and no {{input}})",
                             name));
        }
      }
    }
  }
}

}  // namespace iobench::config::detail
