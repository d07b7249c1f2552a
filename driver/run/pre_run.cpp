#include "driver/run/pre_run.hpp"

#include <fmt/core.h>

#include <system_error>

#include "common/error.hpp"
#include "common/size.hpp"
#include "driver/gen/gen.hpp"
#include "driver/run/worker_catalog.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

Error missing_input(const Config& config, std::size_t index) {
  return Error(
      fmt::format("{}: inputs[{}]: {} does not exist (give it a \"generate\" to have it made)",
                  config.file.string(), index, config.inputs[index].path.string()));
}

}  // namespace

void check_worker_strategies(const Config& config, const Plan& plan, const fs::path& worker) {
  bool any_worker = false;
  for (const auto& test : plan.tests) {
    any_worker |= config.strategies[test.strategy].kind == StrategySpec::Kind::kWorker;
  }
  if (!any_worker) return;
  const auto catalog = load_worker_catalog(worker);
  for (const auto& test : plan.tests) {
    if (config.strategies[test.strategy].kind != StrategySpec::Kind::kWorker) continue;
    const std::vector<std::string> args(test.argv.begin() + 1, test.argv.end() - 1);
    if (const std::string problem = check_worker_args(args, catalog); !problem.empty()) {
      throw Error(fmt::format("{}: strategies[{}].worker: test '{}': {}", config.file.string(),
                              test.strategy, test.name, problem));
    }
  }
}

void check_inputs_exist(const Config& config) {
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    std::error_code ec;
    if (!config.inputs[i].generate && !fs::exists(config.inputs[i].path, ec)) {
      throw missing_input(config, i);
    }
  }
}

void prepare_inputs(const Config& config, bool quiet) {
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    const InputSpec& input = config.inputs[i];
    std::error_code ec;
    if (fs::exists(input.path, ec)) continue;
    if (!input.generate) throw missing_input(config, i);
    if (!quiet) {
      fmt::print(stderr, "iobench: generating {} ({} {}, seed {})\n", input.path.string(),
                 format_size(input.generate->size_bytes), input.generate->kind,
                 input.generate->seed);
    }
    if (input.path.has_parent_path()) fs::create_directories(input.path.parent_path(), ec);
    gen::generate(*input.generate, input.path);
  }
}

}  // namespace iobench
