#include "driver/config/plan_tests.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "common/worker_args.hpp"
#include "driver/runfile/base_twin.hpp"
#include "driver/util/text.hpp"

// The tests of a plan: each strategy over its params, made with a build (docs/formats.md
// "Config"; docs/driver.md, "Two builds").
namespace iobench::config {
namespace {

// The params a strategy uses, in config order.
std::vector<std::size_t> used_params(const Config& config, const StrategySpec& strategy) {
  std::set<std::string> names;
  for (const auto& name : find_placeholders(strategy.name)) names.insert(name);
  for (const auto& arg : strategy.args) {
    for (const auto& name : find_placeholders(arg)) names.insert(name);
  }
  std::vector<std::size_t> used;
  for (std::size_t i = 0; i < config.params.size(); ++i) {
    if (names.count(config.params[i].first) != 0) used.push_back(i);
  }
  return used;
}

// Advances the odometer of a strategy's param values; false once every combination was made.
bool next_choice(const Config& config, const std::vector<std::size_t>& used,
                 std::vector<std::size_t>& choice) {
  for (std::size_t u = 0; u < used.size(); ++u) {
    if (++choice[u] < config.params[used[u]].second.size()) return true;
    choice[u] = 0;
  }
  return false;
}

// The build a test is made with: its worker, and its folder, which {build} names in commands.
struct Build {
  std::string worker_path;
  std::optional<std::string> dir;  // none: {build} is an error
};

Build candidate_build(const PlanOptions& options) {
  if (!options.build_dir) return {options.worker_path, std::nullopt};
  return {(*options.build_dir / "iobench-worker").string(), options.build_dir->string()};
}

// A worker test runs the worker with the strategy's arguments, then its input; `--op split` also
// gets the driver's --prefix (docs/driver.md, "Verification").
void make_worker_test(const Config& config, const std::string& worker_path, Test& test,
                      std::vector<std::string> args) {
  const WorkerCommandLine line(args);
  test.argv.push_back(worker_path);
  test.argv.insert(test.argv.end(), args.begin(), args.end());
  test.output_class = line.output_class();
  test.writes_files = line.op_name() == "split";
  if (test.writes_files) {
    if (line.gives("--prefix")) {
      throw Error(fmt::format(
          "{}: strategies[{}].worker: --op split writes into the run's private folder, whose "
          "--prefix the driver gives; remove --prefix",
          config.file.string(), test.strategy));
    }
    test.argv.insert(test.argv.end(), {"--prefix", kSplitPrefixPlaceholder});
  }
  test.argv.emplace_back("{input}");
  test.worker_args = std::move(args);
}

// The strategy's args with its params and {build} filled.
std::vector<std::string> test_args(const Config& config, std::size_t s, const Build& build,
                                   const ParamValues& values) {
  ParamValues with_build;
  if (build.dir) {
    with_build = values;
    with_build.emplace_back("build", *build.dir);
  }
  const StrategySpec& strategy = config.strategies[s];
  const auto names_build = [](const std::string& text) {
    return text.find(kBuildPlaceholder) != std::string::npos;
  };
  // Its hooks fill {build} as they run (run/hooks.cpp), and need one as much.
  if (!build.dir && (std::any_of(strategy.args.begin(), strategy.args.end(), names_build) ||
                     names_build(strategy.setup) || names_build(strategy.prepare) ||
                     names_build(strategy.conclude) || names_build(strategy.cleanup))) {
    throw Error(
        fmt::format("{}: strategies[{}]: {} names the build measured: give --build DIR "
                    "(and --versus DIR for the base build)",
                    config.file.string(), s, kBuildPlaceholder));
  }
  std::vector<std::string> args;
  for (const auto& arg : strategy.args)
    args.push_back(expand_placeholders(arg, build.dir ? with_build : values));
  return args;
}

// One test: strategy s with one value for each param it uses, made with `build`.
Test make_test(const Config& config, std::size_t s, ParamValues param_values, const Build& build) {
  const StrategySpec& strategy = config.strategies[s];
  Test test;
  test.strategy = s;
  test.verify = strategy.verify;
  std::vector<std::string> args = test_args(config, s, build, param_values);
  test.param_values = std::move(param_values);
  test.build_dir = build.dir;
  test.name = expand_placeholders(strategy.name, test.param_values);
  if (strategy.kind == StrategySpec::Kind::kWorker) {
    make_worker_test(config, build.worker_path, test, std::move(args));
  } else if (strategy.shell) {
    test.argv = strategy.shell_words;
    test.argv.insert(test.argv.end(), {"-c", args.front()});
  } else {
    test.argv = std::move(args);
  }
  return test;
}

// Each strategy over the cartesian product of the params it uses, in config order; two tests of
// one name are a config error.
}  // namespace

std::vector<Test> expand_tests(const Config& config, const PlanOptions& options) {
  std::vector<std::vector<std::size_t>> used_by_strategy;
  used_by_strategy.reserve(config.strategies.size());
  std::size_t test_count = 0;
  for (const StrategySpec& strategy : config.strategies) {
    std::size_t combinations = 1;
    for (const std::size_t p : used_by_strategy.emplace_back(used_params(config, strategy)))
      combinations *= config.params[p].second.size();
    test_count += combinations;
  }
  // Reserved: growing 100,000 tests by doubling held 34 MB at its peak for 16 MB of tests.
  std::vector<Test> tests;
  tests.reserve(test_count);
  const Build build = candidate_build(options);
  for (std::size_t s = 0; s < config.strategies.size(); ++s) {
    const std::vector<std::size_t>& used = used_by_strategy[s];
    std::vector<std::size_t> choice(used.size(), 0);
    for (bool more = true; more; more = next_choice(config, used, choice)) {
      ParamValues values;
      for (std::size_t u = 0; u < used.size(); ++u) {
        const auto& [name, param_values] = config.params[used[u]];
        values.emplace_back(name, param_values[choice[u]]);
      }
      tests.push_back(make_test(config, s, std::move(values), build));
    }
  }
  if (const auto repeat =
          util::first_repeat(tests, [](const Test& t) -> const std::string& { return t.name; })) {
    const auto [first, again] = *repeat;
    throw Error(fmt::format(
        "{}: strategies[{}].name: expands to '{}', which strategies[{}] also gives; make the "
        "names differ",
        config.file.string(), tests[again].strategy, tests[again].name, tests[first].strategy));
  }
  return tests;
}

void add_base_twins(const Config& config, const PlanOptions& options, Plan& plan) {
  if (options.shard_count > 1)
    throw Error("--versus measures both builds of a cell in one session; leave --shard out");
  if (config.order == RunOrder::kGrouped)
    throw Error(
        fmt::format("{}: order: grouped runs one build's runs after the other's; --versus "
                    "needs interleave, duet or shuffle",
                    config.file.string()));
  const Build base{(*options.versus_dir / "iobench-worker").string(), options.versus_dir->string()};
  std::vector<Test> twins;
  twins.reserve(2 * plan.tests.size());
  for (Test& test : plan.tests) {
    Test& twin = twins.emplace_back(make_test(config, test.strategy, test.param_values, base));
    twin.name = test.name + std::string(runfile::kBaseBuildSuffix);
    twin.output_class = test.output_class;
    twin.base_build = true;
    twins.push_back(std::move(test));
  }
  plan.tests = std::move(twins);
  if (plan.baseline_test) plan.baseline_test = 2 * *plan.baseline_test + 1;
  plan.twins = true;
  if (const auto repeat = util::first_repeat(
          plan.tests, [](const Test& t) -> const std::string& { return t.name; })) {
    throw Error(
        fmt::format("{}: '{}' is a test's name and its base twin's under --versus; rename "
                    "the test",
                    config.file.string(), plan.tests[repeat->second].name));
  }
}

}  // namespace iobench::config
