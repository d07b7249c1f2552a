#include "driver/config/config_checks.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "driver/config/bench_keys.hpp"
#include "driver/config/config_keys.hpp"
#include "driver/util/text.hpp"

namespace iobench::config {
namespace detail {
namespace {

// Above a million seconds (11 days) is a typo, and a deadline in nanoseconds would overflow.
constexpr double kMaxTimeoutS = 1e6;
constexpr int kMostWarmup = 1000;
constexpr int kMostRepeats = 1000000;

}  // namespace

// The counts and the timeout, whose keys the parser has read as numbers.
void check_warmup(const Validator& v, const Config& config) {
  if (config.warmup < 0 || config.warmup > kMostWarmup)
    v.fail("warmup", fmt::format("must be from 0 to {}", kMostWarmup));
}

void check_timeout(const Validator& v, const Config& config) {
  if (!(config.timeout_s > 0) || config.timeout_s > kMaxTimeoutS)
    v.fail("timeout_s", timeout_rule());
}

void check_repeats(const Validator& v, const Config& config) {
  if (config.repeats_min < 1 || config.repeats < config.repeats_min ||
      config.repeats > kMostRepeats)
    v.fail("repeats", fmt::format("must be from 1 to {}, at least its min ({})", kMostRepeats,
                                  config.repeats_min));
}

void check_order(const Validator& v, const Config& config) {
  // A duet pins each of a pair to a CPU of its own, and both read at once: a cold cache would be
  // warmed by whichever reads first.
  if (config.order == RunOrder::kDuet && !config.cpus.empty())
    v.fail("order", "duet pins each run of a pair to a CPU of its own; leave \"cpus\" out");
  if (config.order == RunOrder::kDuet && config.cache == CacheMode::kCold)
    v.fail("order",
           "duet runs two at once, so one would warm the other's cold cache; use "
           "cache warm or none");
}

std::string timeout_rule() {
  return fmt::format("must be a number of seconds above 0 and at most {}", kMaxTimeoutS);
}

std::vector<runfile::Counter> counters_named(const Validator& v,
                                             const std::vector<std::string>& names,
                                             const std::string& path) {
  std::vector<runfile::Counter> counters;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string place = Validator::index(path, i);
    const auto counter = runfile::parse_counter(names[i]);
    if (!counter) {
      v.fail(place, fmt::format("unknown counter '{}' (known: {})", names[i],
                                fmt::join(runfile::kCounterConfigNames, ", ")));
    }
    if (std::find(counters.begin(), counters.end(), *counter) != counters.end())
      v.fail(place, fmt::format("'{}' is listed twice", names[i]));
    counters.push_back(*counter);
  }
  return counters;
}

void check_placeholders(const Validator& v, const Config& config) {
  std::set<std::string> defined;
  if (!config.inputs.front().none()) defined.insert("input");
  for (const auto& [name, values] : config.params) defined.insert(name);
  defined.insert("build");  // the build measured (`run --build`, `--versus`), filled by the plan
  for (std::size_t i = 0; i < config.strategies.size(); ++i) {
    const auto& strategy = config.strategies[i];
    // Paths are made only for a message: formatting them for each of 100,000 strategies was a
    // tenth of a dry run's time.
    const auto path = [i] { return Validator::index("strategies", i); };
    const std::string args_key =
        strategy.kind == StrategySpec::Kind::kWorker ? "worker" : "command";
    // `arg`: the index in the args of the text checked; nullopt for the name.
    auto check = [&](const std::string& text, std::optional<std::size_t> arg) {
      for (const auto& name : find_placeholders(text)) {
        if (defined.count(name) != 0) continue;
        const std::string where = !arg ? Validator::join(path(), "name")
                                  : strategy.shell
                                      ? Validator::join(path(), args_key)
                                      : Validator::index(Validator::join(path(), args_key), *arg);
        v.fail(where, name == "input"
                          ? std::string("placeholder {input} names the input, but the config "
                                        "has no \"inputs\"")
                          : fmt::format("placeholder {{{}}} is not defined (define it under "
                                        "\"params\")",
                                        name));
      }
    };
    check(strategy.name, std::nullopt);
    for (std::size_t a = 0; a < strategy.args.size(); ++a) check(strategy.args[a], a);
    // A param in the args but not in the name would give several tests one name.
    std::set<std::string> in_name;
    for (const auto& name : find_placeholders(strategy.name)) in_name.insert(name);
    for (const auto& arg : strategy.args) {
      for (const auto& name : find_placeholders(arg)) {
        if (name != "input" && name != "build" && in_name.count(name) == 0) {
          v.fail(Validator::join(path(), "name"),
                 fmt::format("must contain {{{}}}, which its arguments use, so that each test has "
                             "its own name",
                             name));
        }
      }
    }
  }
}

void check_unique_names(const Validator& v, const Config& config) {
  const auto repeat = util::first_repeat(
      config.strategies, [](const StrategySpec& s) -> const std::string& { return s.name; });
  if (repeat) {
    const std::size_t again = repeat->second;
    v.fail(Validator::join(Validator::index("strategies", again), "name"),
           fmt::format("'{}' is used by another strategy", config.strategies[again].name));
  }
}

}  // namespace detail

void check_config(const Config& config) {
  const detail::Validator v(config.file.string());
  detail::check_keys(v, config);
  detail::check_unique_names(v, config);
  detail::check_workers_have_an_input(v, config);
  detail::check_placeholders(v, config);
  detail::check_hook_placeholders(v, config);
}

}  // namespace iobench::config
