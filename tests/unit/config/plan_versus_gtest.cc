// `run --versus DIR` (docs/driver.md, "Two builds"): every test measured with the base build too,
// in the same session, side by side with its candidate, and compared with it alone.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

const char* const kTwoStrategies = R"({"name": "n", "inputs": ["in.txt"], "strategies": [
    {"name": "copy", "worker": ["--read", "read", "--write", "buffered"]},
    {"name": "tool", "command": ["{build}/tool", "-x", "{input}"]}],
    "baseline": "tool", "repeats": 6, "warmup": 0})";

PlanOptions two_builds() {
  PlanOptions options = testing::worker_options();
  options.build_dir = "/head";
  options.versus_dir = "/base";
  return options;
}

TEST(PlanVersus, EachTestHasItsBaseTwinJustBeforeItMadeWithTheBaseBuild) {
  const Plan plan = build_plan(parse_config(kTwoStrategies, "c.json"), two_builds());
  ASSERT_EQ(plan.tests.size(), 4u);
  EXPECT_TRUE(plan.twins);
  const std::vector<std::string> names{plan.tests[0].name, plan.tests[1].name, plan.tests[2].name,
                                       plan.tests[3].name};
  EXPECT_EQ(names, (std::vector<std::string>{"copy@base", "copy", "tool@base", "tool"}));
  EXPECT_EQ(plan.tests[0].argv.front(), "/base/iobench-worker");
  EXPECT_EQ(plan.tests[1].argv.front(), "/head/iobench-worker");
  EXPECT_EQ(plan.tests[2].argv, (std::vector<std::string>{"/base/tool", "-x", "{input}"}));
  EXPECT_EQ(plan.tests[3].argv, (std::vector<std::string>{"/head/tool", "-x", "{input}"}));
  // Each candidate against its own twin, whose output must be its own; the baseline's index moved.
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(plan.tests[t].base_build, t % 2 == 0) << t;
    EXPECT_EQ(plan.tests[t].reference, t % 2 == 1 ? std::optional(t - 1) : std::nullopt) << t;
  }
  EXPECT_EQ(plan.tests[2].output_class, plan.tests[3].output_class);
  EXPECT_EQ(plan.baseline_test, std::optional<std::size_t>(3));
}

TEST(PlanVersus, WithoutTwinsEveryTestButTheBaselineIsComparedWithTheBaseline) {
  PlanOptions options = testing::worker_options();
  options.build_dir = "/head";
  const Plan plan = build_plan(parse_config(kTwoStrategies, "c.json"), options);
  ASSERT_EQ(plan.tests.size(), 2u);
  EXPECT_FALSE(plan.twins);
  EXPECT_EQ(plan.tests[0].reference, std::optional<std::size_t>(1));
  EXPECT_EQ(plan.tests[1].reference, std::nullopt);
}

// A duet runs a round's adjacent pair at once, and the paired rule pairs the i-th runs: each
// pair must be side by side in every round, neither build always first.
TEST(PlanVersus, RoundsKeepEachPairSideBySideAndAlternateWhichGoesFirst) {
  const Plan plan = build_plan(parse_config(kTwoStrategies, "c.json"), two_builds());
  std::vector<std::size_t> measured;
  for (const PlannedRun& run : plan.runs)
    if (run.phase == RunPhase::kMeasure) measured.push_back(run.cell);
  ASSERT_EQ(measured.size(), 4u * 6);
  std::size_t base_first = 0;
  for (std::size_t i = 0; i < measured.size(); i += 2) {
    EXPECT_EQ(measured[i] / 2, measured[i + 1] / 2) << "run " << i << " is not beside its twin";
    if (measured[i] % 2 == 0) ++base_first;
  }
  EXPECT_EQ(base_first, 6u);  // of 12 pairs
  EXPECT_EQ(twins_round(4, 0), (std::vector<std::size_t>{0, 1, 3, 2}));
  EXPECT_EQ(twins_round(4, 1), (std::vector<std::size_t>{2, 3, 1, 0}));
}

std::string plan_error(const std::string& text, const PlanOptions& options) {
  try {
    build_plan(parse_config(text, "c.json"), options);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "(no error)";
}

TEST(PlanVersus, WhatCannotBeMeasuredAsTwoBuildsIsRefused) {
  EXPECT_EQ(plan_error(kTwoStrategies, testing::worker_options()),
            "c.json: strategies[1]: {build} names the build measured: give --build DIR (and "
            "--versus DIR for the base build)");
  PlanOptions sharded = two_builds();
  sharded.shard_count = 2;
  EXPECT_EQ(plan_error(kTwoStrategies, sharded),
            "--versus measures both builds of a cell in one session; leave --shard out");
  std::string grouped = kTwoStrategies;
  grouped.insert(grouped.rfind('}'), R"(, "order": "grouped")");
  EXPECT_EQ(plan_error(grouped, two_builds()),
            "c.json: order: grouped runs one build's runs after the other's; --versus needs "
            "interleave, duet or shuffle");
  std::string taken = kTwoStrategies;
  taken.insert(taken.find("}],") + 1, R"(, {"name": "tool@base", "command": ["true"]})");
  EXPECT_EQ(plan_error(taken, two_builds()),
            "c.json: 'tool@base' is a test's name and its base twin's under --versus; rename the "
            "test");
}

// Config "family_reference" (issue 48): each pipe size against 64 KiB within its own command, not
// every cell against one baseline 10x slower, which decided "different" and said nothing.
TEST(PlanFamilies, EachTestIsComparedWithItsFamilysReferenceMember) {
  const Config config = parse_config(R"({"name": "n", "inputs": ["in.txt"], "strategies": [
      {"name": "gzip-{ps}", "worker": ["--read", "read", "--pipe-size", "{ps}"]},
      {"name": "split{n}-{ps}", "worker": ["--read", "read", "--outputs", "{n}", "--pipe-size", "{ps}"]},
      {"name": "plain", "worker": ["--read", "read"]}],
      "params": {"ps": ["64KiB", "1MiB"], "n": [1, 3]}, "baseline": "plain",
      "family_reference": {"ps": "64KiB"}})",
                                     "c.json");
  const Plan plan = build_plan(config, testing::worker_options());
  std::map<std::string, std::string> reference_of;
  for (const config::Test& test : plan.tests)
    reference_of[test.name] = test.reference ? plan.tests[*test.reference].name : "-";
  EXPECT_EQ(reference_of, (std::map<std::string, std::string>{{"gzip-64KiB", "-"},
                                                              {"gzip-1MiB", "gzip-64KiB"},
                                                              {"split1-64KiB", "-"},
                                                              {"split1-1MiB", "split1-64KiB"},
                                                              {"split3-64KiB", "-"},
                                                              {"split3-1MiB", "split3-64KiB"},
                                                              {"plain", "-"}}));
  // A family whose reference member --filter left out has nothing to be compared with.
  PlanOptions filtered = testing::worker_options();
  filtered.filter_regex = "1MiB";
  const Plan filtered_plan = build_plan(config, filtered);
  for (const config::Test& test : filtered_plan.tests)
    EXPECT_EQ(test.reference, std::nullopt) << test.name;
}

TEST(PlanFamilies, AFamilyReferenceNamesAParamAndOneOfItsValues) {
  const std::string config = R"({"name": "n", "inputs": ["in.txt"], "strategies": [
      {"name": "a-{ps}", "worker": ["--read", "read", "--pipe-size", "{ps}"]}],
      "params": {"ps": ["64KiB", "1MiB"]}, "family_reference": )";
  EXPECT_EQ(testing::config_error_of(config + R"({"size": "64KiB"}})"),
            "configs/x.json: family_reference.size: is not a param (define it under \"params\")");
  EXPECT_EQ(testing::config_error_of(config + R"({"ps": "4KiB"}})"),
            "configs/x.json: family_reference.ps: '4KiB' is not one of its values (64KiB, 1MiB)");
  EXPECT_EQ(testing::config_error_of(config + R"(["ps"]})"),
            "configs/x.json: family_reference: must be an object of param values, like {\"ps\": "
            "\"64KiB\"}");
}

}  // namespace
}  // namespace iobench::config
