#include "driver/config/config_checks.hpp"

#include <fmt/core.h>

#include <set>
#include <string>

namespace iobench::config_detail {

void check_placeholders(const Validator& v, const Config& config) {
  std::set<std::string> defined;
  if (!config.inputs.front().none()) defined.insert("input");
  for (const auto& [name, values] : config.params) defined.insert(name);
  for (std::size_t i = 0; i < config.strategies.size(); ++i) {
    const auto& strategy = config.strategies[i];
    const std::string path = Validator::index("strategies", i);
    auto check = [&](const std::string& text, const std::string& where) {
      for (const auto& name : find_placeholders(text)) {
        if (defined.count(name) == 0) {
          v.fail(where, name == "input"
                            ? std::string("placeholder {input} names the input, but the config "
                                          "has no \"inputs\"")
                            : fmt::format("placeholder {{{}}} is not defined (define it under "
                                          "\"params\")",
                                          name));
        }
      }
    };
    check(strategy.name, Validator::join(path, "name"));
    const std::string args_key =
        strategy.kind == StrategySpec::Kind::kWorker ? "worker" : "command";
    for (std::size_t a = 0; a < strategy.args.size(); ++a) {
      check(strategy.args[a], strategy.shell
                                  ? Validator::join(path, args_key)
                                  : Validator::index(Validator::join(path, args_key), a));
    }
    // A param in the args but not in the name would give several tests one name.
    std::set<std::string> in_name;
    for (const auto& name : find_placeholders(strategy.name)) in_name.insert(name);
    for (const auto& arg : strategy.args) {
      for (const auto& name : find_placeholders(arg)) {
        if (name != "input" && in_name.count(name) == 0) {
          v.fail(Validator::join(path, "name"),
                 fmt::format("must contain {{{}}}, which its arguments use, so that each test has "
                             "its own name",
                             name));
        }
      }
    }
  }
}

void check_unique_names(const Validator& v, const Config& config) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < config.strategies.size(); ++i) {
    if (!names.insert(config.strategies[i].name).second) {
      v.fail(Validator::join(Validator::index("strategies", i), "name"),
             fmt::format("'{}' is used by another strategy", config.strategies[i].name));
    }
  }
}

}  // namespace iobench::config_detail
