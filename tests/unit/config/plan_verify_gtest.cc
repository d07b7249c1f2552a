// Which cells the plan gives a verification run (docs/driver.md, "Verification"): with `warmup`
// 0, outside `grouped`, a verified pipe cell whose class the driver computes itself has none (its
// first ok measured run is compared with the reference); every other verified pair keeps one.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "driver/config/output_class.hpp"
#include "driver/config/plan.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

// copy, count and field:2 have a reference the driver computes; gzip's output and the command
// baseline's do not.
Config classes_config(const std::string& extra) {
  return parse_config(R"({
    "name": "classes", "inputs": ["a.tsv"],
    "strategies": [
      {"name": "copy", "worker": ["--read", "read", "--write", "raw"]},
      {"name": "count", "worker": ["--op", "count"]},
      {"name": "field", "worker": ["--op", "field:2"]},
      {"name": "gzip", "worker": ["--compress", "gzip"]},
      {"name": "unverified", "worker": ["--op", "count"], "verify": false}
    ], "repeats": 3)" + extra +
                          "}",
                      "cfg/classes.json");
}

// The names of the tests with a verification run, and those whose cells are verified by their
// first ok run.
struct Verification {
  std::set<std::string> verify_runs;
  std::set<std::string> by_first_ok_run;
};

Verification verification_of(const Plan& plan) {
  Verification found;
  for (const PlannedRun& run : plan.runs) {
    if (run.phase == RunPhase::kVerify) {
      EXPECT_TRUE(found.verify_runs.insert(plan.tests[plan.cells[run.cell].test].name).second);
    }
  }
  for (const Cell& cell : plan.cells) {
    if (cell.verified_by_first_ok_run) found.by_first_ok_run.insert(plan.tests[cell.test].name);
  }
  return found;
}

TEST(PlanVerify, NoVerificationRunForAPipeCellWhoseClassTheDriverComputes) {
  for (const char* order : {"interleave", "shuffle"}) {
    const Plan plan =
        build_plan(classes_config(fmt::format(R"(, "warmup": 0, "order": "{}")", order)),
                   testing::worker_options());
    const Verification found = verification_of(plan);
    EXPECT_EQ(found.verify_runs, (std::set<std::string>{"gzip"})) << order;
    EXPECT_EQ(found.by_first_ok_run, (std::set<std::string>{"copy", "count", "field"})) << order;
    EXPECT_EQ(plan.runs.size(), 1 + plan.cells.size() * 3) << order << ": gzip's run, measured";
  }
}

TEST(PlanVerify, WarmupsGroupedOtherSinksAndCommandBaselinesKeepTheVerificationRun) {
  const std::set<std::string> every_verified{"copy", "count", "field", "gzip"};
  for (const char* extra : {R"(, "warmup": 1)", R"(, "warmup": 0, "order": "grouped")"}) {
    const Verification found =
        verification_of(build_plan(classes_config(extra), testing::worker_options()));
    EXPECT_EQ(found.verify_runs, every_verified) << extra;
    EXPECT_TRUE(found.by_first_ok_run.empty()) << extra;
  }
  // A pair with a null-sink cell: its null rows are checked through the verification run only.
  const Plan with_null = build_plan(classes_config(R"(, "warmup": 0, "sinks": ["pipe", "null"])"),
                                    testing::worker_options());
  EXPECT_EQ(verification_of(with_null).verify_runs, every_verified);
  EXPECT_TRUE(verification_of(with_null).by_first_ok_run.empty());
  // A file sink is hashed too, but stays as it was: only pipe-only pairs change.
  const Plan with_file =
      build_plan(classes_config(R"(, "warmup": 0, "sinks": ["file"])"), testing::worker_options());
  EXPECT_EQ(verification_of(with_file).verify_runs, every_verified);
  // Commands take a command baseline's class, which only its first test can give.
  const Plan commands = build_plan(parse_config(R"({"name": "c", "inputs": ["a.tsv"],
      "strategies": [{"name": "grep", "command": ["grep", "x", "{input}"]},
                     {"name": "rg", "command": ["rg", "x", "{input}"]}],
      "baseline": "grep", "warmup": 0})",
                                                "cfg/c.json"),
                                   testing::worker_options());
  EXPECT_EQ(verification_of(commands).verify_runs, (std::set<std::string>{"grep", "rg"}));
}

TEST(PlanVerify, ARunWithoutAnInputKeepsItsVerificationRun) {
  const Plan plan = build_plan(parse_config(R"({"name": "n",
      "strategies": [{"name": "a", "command": ["echo", "a"]}], "warmup": 0})",
                                            "cfg/n.json"),
                               testing::worker_options());
  EXPECT_EQ(verification_of(plan).verify_runs, (std::set<std::string>{"a"}));
}

TEST(PlanVerify, TheClassesTheDriverComputesItself) {
  using Kind = IndependentReference::Kind;
  EXPECT_EQ(independent_reference_of("copy")->kind, Kind::kCopy);
  EXPECT_EQ(independent_reference_of("worker --op count")->kind, Kind::kCount);
  EXPECT_EQ(independent_reference_of("worker --op field:3")->kind, Kind::kField);
  EXPECT_EQ(independent_reference_of("worker --op field:3")->field, 3U);
  for (const char* none : {"worker --op field:0", "worker --op field:", "worker --op field:2x",
                           "worker --compress gzip --op copy", "worker --op count -x",
                           "output of grep", "worker --op split --outputs 2"}) {
    EXPECT_FALSE(independent_reference_of(none).has_value()) << none;
  }
}

}  // namespace
}  // namespace iobench::config
