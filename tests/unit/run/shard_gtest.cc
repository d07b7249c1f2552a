// --shard auto: K/N from a Slurm job array or a Kubernetes Indexed Job; the matrix block.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/error.hpp"
#include "driver/run/shard.hpp"

namespace iobench::run {
namespace {

EnvLookup env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ShardAuto, SlurmZeroBasedArray) {
  const auto s = resolve_shard("auto", env({{"SLURM_ARRAY_TASK_ID", "2"},
                                            {"SLURM_ARRAY_TASK_COUNT", "4"},
                                            {"SLURM_ARRAY_TASK_MIN", "0"},
                                            {"SLURM_ARRAY_TASK_MAX", "3"}}));
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 4);
}

TEST(ShardAuto, SlurmOneBasedAndSteppedArraysMapToOneToN) {
  // --array=1-4: task 1 is the first shard.
  auto s = resolve_shard("auto", env({{"SLURM_ARRAY_TASK_ID", "1"},
                                      {"SLURM_ARRAY_TASK_COUNT", "4"},
                                      {"SLURM_ARRAY_TASK_MIN", "1"},
                                      {"SLURM_ARRAY_TASK_MAX", "4"}}));
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.count, 4);
  // --array=10-16:2 (10, 12, 14, 16): 14 is the third of four.
  s = resolve_shard("auto", env({{"SLURM_ARRAY_TASK_ID", "14"},
                                 {"SLURM_ARRAY_TASK_COUNT", "4"},
                                 {"SLURM_ARRAY_TASK_MIN", "10"},
                                 {"SLURM_ARRAY_TASK_MAX", "16"},
                                 {"SLURM_ARRAY_TASK_STEP", "2"}}));
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 4);
}

TEST(ShardAuto, SlurmListThatIsNoRangeIsRefused) {
  // --array=1,3,7: three tasks whose ids are no range; their index cannot be derived.
  try {
    resolve_shard("auto", env({{"SLURM_ARRAY_TASK_ID", "3"},
                               {"SLURM_ARRAY_TASK_COUNT", "3"},
                               {"SLURM_ARRAY_TASK_MIN", "1"},
                               {"SLURM_ARRAY_TASK_MAX", "7"}}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find("not a regular range"), std::string::npos) << e.what();
  }
}

TEST(ShardAuto, KubernetesIndexedJob) {
  const auto s =
      resolve_shard("auto", env({{"JOB_COMPLETION_INDEX", "0"}, {"IOBENCH_SHARD_COUNT", "3"}}));
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.count, 3);
  EXPECT_THROW(
      resolve_shard("auto", env({{"JOB_COMPLETION_INDEX", "3"}, {"IOBENCH_SHARD_COUNT", "3"}})),
      Error);
  EXPECT_THROW(resolve_shard("auto", env({{"JOB_COMPLETION_INDEX", "0"}})), Error);
}

TEST(ShardAuto, NoSchedulerNamesTheVariables) {
  try {
    resolve_shard("auto", env({}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    const std::string message = e.what();
    for (const char* name : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "IOBENCH_SHARD_COUNT"})
      EXPECT_NE(message.find(name), std::string::npos) << message;
  }
}

TEST(ShardAuto, ExplicitAndNone) {
  const auto s = resolve_shard("2/5", env({{"SLURM_ARRAY_TASK_ID", "0"}}));
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(resolve_shard("", env({})).count, 1);
  EXPECT_THROW(resolve_shard("0/4", env({})), Error);
}

config::Config two_test_config(const std::string& worker_arg) {
  return config::parse_config(R"({"name": "m", "inputs": [{"path": "a.txt"}, {"path": "b.txt"}],
    "strategies": [{"name": "x", "worker": ["--read", "getline", "--write", ")" +
                                  worker_arg +
                                  R"("]}, {"name": "y", "command": ["cat", "{input}"]}],
    "sinks": ["pipe", "null"], "repeats": 2})",
                              "/cfg/m.json");
}

nlohmann::ordered_json matrix_of(const config::Config& config, const config::Plan& plan,
                                 const ShardChoice& shard) {
  return runfile::to_json(describe_matrix(config, plan, shard));
}

TEST(MatrixBlock, ListsEveryCellInShardOrderAndHashesThePlan) {
  const config::Config config = two_test_config("raw");
  config::PlanOptions options;
  options.worker_path = "/usr/bin/iobench-worker";
  const config::Plan plan = config::build_plan(config, options);
  const auto matrix = matrix_of(config, plan, ShardChoice{1, 3, "--shard"});
  EXPECT_EQ(matrix["shard"], "2/3");
  EXPECT_EQ(matrix["repeats"], 2);
  ASSERT_EQ(matrix["cells"].size(), 8U);  // 2 tests x 2 inputs x 2 sinks
  EXPECT_EQ(matrix["cells"][0][0], "x");
  EXPECT_EQ(matrix["cells"][0][1], "/cfg/a.txt");
  EXPECT_EQ(matrix["cells"][0][2], "pipe");
  // The hash does not depend on where the worker is installed, only on what runs.
  options.worker_path = "/home/me/build/bin/iobench-worker";
  EXPECT_EQ(matrix_of(config, config::build_plan(config, options), {})["hash"], matrix["hash"]);
  const config::Config other = two_test_config("stdio");
  EXPECT_NE(matrix_of(other, config::build_plan(other, options), {})["hash"], matrix["hash"]);
  options.repeats_override = 3;
  EXPECT_NE(matrix_of(config, config::build_plan(config, options), {})["hash"], matrix["hash"]);
}

TEST(MatrixBlock, ShardedPlansDealCellsAsTheMatrixListsThem) {
  // Cell c of the matrix list belongs to shard c mod N + 1: merge relies on it.
  const config::Config config = two_test_config("raw");
  config::PlanOptions whole;
  whole.worker_path = "w";
  const auto matrix = matrix_of(config, config::build_plan(config, whole), {});
  for (int k = 0; k < 3; ++k) {
    config::PlanOptions sharded = whole;
    sharded.shard_index = k;
    sharded.shard_count = 3;
    const config::Plan plan = config::build_plan(config, sharded);
    std::size_t expected = static_cast<std::size_t>(k);
    for (const config::Cell& cell : plan.cells) {
      ASSERT_LT(expected, matrix["cells"].size());
      EXPECT_EQ(matrix["cells"][expected][0], plan.tests[cell.test].name);
      EXPECT_EQ(matrix["cells"][expected][1], config.inputs[cell.input].path.string());
      EXPECT_EQ(matrix["cells"][expected][2], std::string(to_string(cell.sink)));
      expected += 3;
    }
    EXPECT_GE(expected, matrix["cells"].size());
  }
}

}  // namespace
}  // namespace iobench::run
