#include "driver/run/shard.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <optional>

#include "common/error.hpp"
#include "common/hash.hpp"

namespace iobench::run {
namespace {

std::optional<long> read_number(const EnvLookup& lookup, const char* name) {
  const char* text = lookup(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  long value = 0;
  const char* end = text + std::strlen(text);
  if (std::from_chars(text, end, value).ptr != end) {
    throw Error(fmt::format("--shard auto: {}='{}' is not a number", name, text));
  }
  return value;
}

ShardChoice from_slurm(const EnvLookup& lookup, long task_id) {
  const auto count = read_number(lookup, "SLURM_ARRAY_TASK_COUNT");
  const auto min = read_number(lookup, "SLURM_ARRAY_TASK_MIN");
  const auto max = read_number(lookup, "SLURM_ARRAY_TASK_MAX");
  const long step = read_number(lookup, "SLURM_ARRAY_TASK_STEP").value_or(1);
  if (!count || *count < 1) {
    throw Error(
        "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; run under "
        "sbatch --array, or give --shard K/N");
  }
  // Without MIN the array is taken as 0-based (--array=0-(N-1)), Slurm's usual form.
  const long first = min.value_or(0);
  const long last = max.value_or(first + (*count - 1) * step);
  if (step < 1 || (last - first) % step != 0 || (last - first) / step + 1 != *count) {
    throw Error(fmt::format(
        "--shard auto: the Slurm array {}-{}:{} with {} tasks is not a regular range; use "
        "--array=0-{} (or give --shard K/N)",
        first, last, step, *count, *count - 1));
  }
  if (task_id < first || task_id > last || (task_id - first) % step != 0) {
    throw Error(fmt::format("--shard auto: SLURM_ARRAY_TASK_ID={} is not in the array {}-{}:{}",
                            task_id, first, last, step));
  }
  ShardChoice choice;
  choice.index = static_cast<int>((task_id - first) / step);
  choice.count = static_cast<int>(*count);
  choice.source = fmt::format("SLURM_ARRAY_TASK_ID={} of {}-{}:{}", task_id, first, last, step);
  return choice;
}

}  // namespace

ShardChoice resolve_shard(const std::string& text, const EnvLookup& lookup) {
  ShardChoice choice;
  if (text.empty()) return choice;
  if (text != "auto") {
    std::tie(choice.index, choice.count) = config::parse_shard(text);
    choice.source = "--shard";
    return choice;
  }
  if (const auto task_id = read_number(lookup, "SLURM_ARRAY_TASK_ID")) {
    return from_slurm(lookup, *task_id);
  }
  if (const auto index = read_number(lookup, "JOB_COMPLETION_INDEX")) {
    const auto count = read_number(lookup, "IOBENCH_SHARD_COUNT");
    if (!count || *count < 1) {
      throw Error(
          "--shard auto: JOB_COMPLETION_INDEX is set but IOBENCH_SHARD_COUNT is not; set it to "
          "the Indexed Job's completions");
    }
    if (*index < 0 || *index >= *count) {
      throw Error(
          fmt::format("--shard auto: JOB_COMPLETION_INDEX={} is not below "
                      "IOBENCH_SHARD_COUNT={}",
                      *index, *count));
    }
    choice.index = static_cast<int>(*index);
    choice.count = static_cast<int>(*count);
    choice.source =
        fmt::format("JOB_COMPLETION_INDEX={} of IOBENCH_SHARD_COUNT={}", *index, *count);
    return choice;
  }
  throw Error(
      "--shard auto: none of SLURM_ARRAY_TASK_ID (Slurm job array) or JOB_COMPLETION_INDEX with "
      "IOBENCH_SHARD_COUNT (Kubernetes Indexed Job) is set; give --shard K/N");
}

runfile::Matrix describe_matrix(const config::Config& config, const config::Plan& unsharded,
                                const ShardChoice& shard) {
  // What the hash covers: what decides which runs there are and what they measure. Not the
  // worker's install path (it differs between nodes), nor the config's file name.
  nlohmann::ordered_json identity;
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const config::Test& test : unsharded.tests) {
    std::vector<std::string> argv = test.argv;
    if (config.strategies[test.strategy].kind == config::StrategySpec::Kind::kWorker &&
        !argv.empty()) {
      argv.front() = "iobench-worker";
    }
    tests.push_back({{"name", test.name}, {"argv", argv}, {"verify", test.verify}});
  }
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const config::Cell& cell : unsharded.cells) {
    cells.push_back({unsharded.tests[cell.test].name, config.inputs[cell.input].path.string(),
                     std::string(to_string(cell.sink))});
  }
  identity["tests"] = tests;
  identity["cells"] = cells;
  identity["repeats"] = unsharded.repeats;
  identity["warmup"] = config.warmup;
  identity["cache"] = to_string(config.cache);
  identity["order"] = to_string(config.order);
  identity["seed"] = config.seed;
  identity["timeout_s"] = config.timeout_s;
  identity["cpus"] = config.cpus;
  identity["pipe_size_bytes"] =
      config.pipe_size_bytes ? nlohmann::ordered_json(*config.pipe_size_bytes) : nullptr;
  identity["baseline"] = config.baseline;
  // Keys added later (counters, ...) count too; the description does not change a measurement.
  nlohmann::ordered_json written = config.as_written.tree();
  if (written.is_object()) written.erase("description");
  identity["config"] = written;
  const std::string text = identity.dump();

  runfile::Matrix matrix;
  matrix.hash = hex_hash64(text);
  matrix.shard = runfile::ShardId{shard.index + 1, shard.count};
  matrix.shard_source = shard.source.empty() ? "none (whole matrix)" : shard.source;
  matrix.repeats = unsharded.repeats;
  for (const config::Cell& cell : unsharded.cells) {
    matrix.cells.push_back({unsharded.tests[cell.test].name,
                            config.inputs[cell.input].path.string(),
                            std::string(to_string(cell.sink))});
  }
  return matrix;
}

}  // namespace iobench::run
