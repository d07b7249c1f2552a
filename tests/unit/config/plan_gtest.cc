// Matrix expansion: cartesian params, order, shards, filters, output classes.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "common/error.hpp"
#include "driver/config/plan.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

Config demo_config(const std::string& extra = "") {
  return parse_config(R"({
    "name": "demo", "inputs": ["a.tsv", "b.tsv"],
    "strategies": [
      {"name": "raw", "worker": ["--read", "getline", "--write", "raw"]},
      {"name": "buf-{r}-{buf}", "worker": ["--read", "{r}", "--write", "buffered", "--buffer", "{buf}"]},
      {"name": "count-{r}", "worker": ["--read", "{r}", "--write", "raw", "--op", "count"]},
      {"name": "cat", "command": ["cat", "{input}"]}
    ],
    "params": {"buf": ["4KiB", "1MiB"], "r": ["read", "fread", "mmap"]},
    "sinks": ["pipe", "null"], "repeats": 2, "warmup": 1)" +
                          extra + "}",
                      "cfg/demo.json");
}

TEST(Plan, ExpandsTheCartesianProductOfTheParamsEachStrategyUses) {
  const Plan plan = build_plan(demo_config(), testing::worker_options());
  std::vector<std::string> names;
  for (const config::Test& test : plan.tests) names.push_back(test.name);
  EXPECT_EQ(names.size(), 1u + 6u + 3u + 1u);
  EXPECT_NE(std::find(names.begin(), names.end(), "buf-mmap-1MiB"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "count-fread"), names.end());
  const auto& buf = *std::find_if(plan.tests.begin(), plan.tests.end(),
                                  [](const config::Test& t) { return t.name == "buf-fread-4KiB"; });
  EXPECT_EQ(buf.argv, (std::vector<std::string>{"/bin/iobench-worker", "--read", "fread", "--write",
                                                "buffered", "--buffer", "4KiB", "{input}"}));
  EXPECT_EQ(plan.cells.size(), names.size() * 2 * 2);
  EXPECT_EQ(plan.measured_runs(), plan.cells.size() * 2);
}

TEST(Plan, OutputClassesIgnoreOptionsThatMustNotChangeTheOutput) {
  const Plan plan = build_plan(demo_config(), testing::worker_options());
  for (const auto& test : plan.tests) {
    if (test.name.rfind("count-", 0) == 0) {
      EXPECT_EQ(test.output_class, "worker --op count") << test.name;
    } else {
      EXPECT_EQ(test.output_class, "copy") << test.name;
    }
  }
}

// Commands take the baseline's class: a worker's, or a command baseline's own output (what
// `iobench bench` relies on), and the input itself without a baseline.
TEST(Plan, OutputClassesComeFromTheParsedOptionsNotTheirSpelling) {
  const Plan plan = build_plan(parse_config(R"({"name": "n", "inputs": ["a"], "strategies": [
      {"name": "a", "worker": ["--read", "read", "--write", "raw", "--op", "count"]},
      {"name": "b", "worker": ["--op=count", "-v", "--write=raw", "--read", "mmap"]},
      {"name": "c", "worker": ["--verbose", "--op", "count", "--buffer=4KiB", "--read=getc", "--write", "raw"]},
      {"name": "d", "worker": ["--read", "read", "--write", "raw", "--op=copy", "--verbose"]},
      {"name": "e", "worker": ["--read", "read", "--write", "raw", "--op", "field:2"]},
      {"name": "f", "worker": ["--read", "read", "--write", "raw", "--decompress", "gzip -dc"]},
      {"name": "g", "worker": ["--read", "parallel", "--write", "raw", "--op", "count", "--threads", "2"]},
      {"name": "h", "worker": ["--threads=3", "--read=parallel", "--op=count", "--write=raw"]}]})",
                                            "n.json"),
                               testing::worker_options());
  ASSERT_EQ(plan.tests.size(), 8U);
  EXPECT_EQ(plan.tests[1].output_class, plan.tests[0].output_class);
  EXPECT_EQ(plan.tests[2].output_class, plan.tests[0].output_class);
  EXPECT_EQ(plan.tests[3].output_class, "copy");
  EXPECT_NE(plan.tests[4].output_class, plan.tests[0].output_class);
  EXPECT_NE(plan.tests[5].output_class, "copy") << "a decompressed input is not the input";
  EXPECT_EQ(plan.tests[6].output_class, plan.tests[0].output_class) << "--threads is how, not what";
  EXPECT_EQ(plan.tests[7].output_class, plan.tests[0].output_class);
}

TEST(Plan, SplitGetsItsPrefixFromTheDriverNeverFromTheConfig) {
  const Plan plan = build_plan(parse_config(R"({"name": "n", "inputs": ["a"], "strategies": [
      {"name": "s", "worker": ["--read", "read", "--write", "raw", "--op", "split", "--outputs", "2"]}]})",
                                            "n.json"),
                               testing::worker_options());
  EXPECT_TRUE(plan.tests[0].writes_files);
  const auto& argv = plan.tests[0].argv;
  const auto prefix = std::find(argv.begin(), argv.end(), "--prefix");
  ASSERT_NE(prefix, argv.end());
  EXPECT_EQ(*(prefix + 1), kSplitPrefixPlaceholder);
  try {
    build_plan(parse_config(R"({"name": "n", "inputs": ["a"], "strategies": [
      {"name": "s", "worker": ["--op=split", "--outputs", "2", "--prefix", "/tmp/x-{}"]}]})",
                            "n.json"),
               testing::worker_options());
    ADD_FAILURE() << "a fixed --prefix was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("remove --prefix"), std::string::npos) << e.what();
  }
}

TEST(Plan, CommandsTakeTheBaselinesOutputClass) {
  const std::string commands = R"({"name": "n", "inputs": ["x"], "strategies": [
      {"name": "grep", "command": "grep a {input}", "shell": true},
      {"name": "awk", "command": "awk /a/ {input}", "shell": true},
      {"name": "count", "worker": ["--read", "read", "--op", "count"]}])";
  const Plan with_command_baseline = build_plan(
      parse_config(commands + R"(, "baseline": "awk"})", "c.json"), testing::worker_options());
  EXPECT_EQ(with_command_baseline.tests[0].output_class, "output of awk");
  EXPECT_EQ(with_command_baseline.tests[1].output_class, "output of awk");
  EXPECT_EQ(with_command_baseline.tests[2].output_class, "worker --op count");
  const Plan with_worker_baseline = build_plan(
      parse_config(commands + R"(, "baseline": "count"})", "c.json"), testing::worker_options());
  EXPECT_EQ(with_worker_baseline.tests[0].output_class, "worker --op count");
  const Plan without_baseline =
      build_plan(parse_config(commands + "}", "c.json"), testing::worker_options());
  EXPECT_EQ(without_baseline.tests[0].output_class, "copy");
}

TEST(Plan, VerifiesEachTestAndInputOnceWithClassReferencesFirst) {
  const Plan plan = build_plan(demo_config(), testing::worker_options());
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t verify_runs = 0;
  bool seen_non_verify = false;
  for (const auto& run : plan.runs) {
    if (run.phase != RunPhase::kVerify) {
      seen_non_verify = true;
      continue;
    }
    EXPECT_FALSE(seen_non_verify) << "verification runs come first";
    ++verify_runs;
    pairs.emplace(plan.cells[run.cell].test, plan.cells[run.cell].input);
  }
  EXPECT_EQ(verify_runs, plan.tests.size() * 2);
  EXPECT_EQ(pairs.size(), verify_runs);
}

// In rounds, a pipe cell's verification run (its test, its input, into a pipe) is its first
// warmup; grouped runs, null-sink cells and unverified tests get every warmup as a warmup run.
TEST(Plan, EveryCellGetsTheSameWarmupsRightBeforeItsMeasuredRuns) {
  for (const char* order : {"interleave", "grouped", "shuffle", "duet"}) {
    const Plan plan = build_plan(demo_config(fmt::format(R"(, "warmup": 2, "order": "{}")", order)),
                                 testing::worker_options());
    std::vector<int> warmups(plan.cells.size(), 0);
    std::vector<int> verify_runs(plan.cells.size(), 0);
    std::vector<bool> measured(plan.cells.size(), false);
    for (const auto& run : plan.runs) {
      if (run.phase == RunPhase::kVerify) {
        for (std::size_t c = 0; c < plan.cells.size(); ++c) {
          const bool same_pair = plan.cells[c].test == plan.cells[run.cell].test &&
                                 plan.cells[c].input == plan.cells[run.cell].input;
          if (same_pair && plan.cells[c].sink == SinkKind::kPipe) ++verify_runs[c];
        }
      }
      if (run.phase == RunPhase::kWarmup) {
        ++warmups[run.cell];
        EXPECT_FALSE(measured[run.cell]) << order << ": a warmup after a measured run";
      }
      if (run.phase == RunPhase::kMeasure) measured[run.cell] = true;
    }
    for (std::size_t c = 0; c < plan.cells.size(); ++c) {
      const bool stands_in = std::string(order) != "grouped" && verify_runs[c] == 1;
      EXPECT_EQ(warmups[c], stands_in ? 1 : 2)
          << order << " " << plan.tests[plan.cells[c].test].name << " "
          << to_string(plan.cells[c].sink);
      if (plan.cells[c].sink == SinkKind::kPipe) {
        EXPECT_EQ(verify_runs[c], 1);
      }
    }
  }
}

// The design's defining property: over its rounds, every ordered pair of distinct cells is
// adjacent (b right after a) equally often, and each round visits every cell once.
TEST(Plan, WilliamsRoundsAreABalancedLatinSquare) {
  for (std::size_t n = 1; n <= 9; ++n) {
    const auto rounds = williams_rounds(n);
    ASSERT_EQ(rounds.size(), n % 2 == 0 ? n : 2 * n) << n;
    std::map<std::pair<std::size_t, std::size_t>, int> follows;
    for (const auto& round : rounds) {
      EXPECT_EQ(std::set<std::size_t>(round.begin(), round.end()).size(), n);
      for (std::size_t j = 1; j < round.size(); ++j) ++follows[{round[j - 1], round[j]}];
    }
    const int expected = n % 2 == 0 ? 1 : 2;
    EXPECT_EQ(follows.size(), n * (n - 1)) << n << " cells: some pair is never adjacent";
    for (const auto& [pair, count] : follows) {
      EXPECT_EQ(count, expected) << n << " cells: " << pair.second << " after " << pair.first;
    }
  }
}

TEST(Plan, InterleaveDoesNotAlwaysRunACellAfterTheSamePredecessor) {
  const Plan plan =
      build_plan(demo_config(R"(, "repeats": 4, "warmup": 0)"), testing::worker_options());
  std::map<std::size_t, std::set<std::size_t>> predecessors;
  std::optional<std::size_t> previous;
  for (const auto& run : plan.runs) {
    if (run.phase != RunPhase::kMeasure) continue;
    if (previous) predecessors[run.cell].insert(*previous);
    previous = run.cell;
  }
  for (const auto& [cell, before] : predecessors) EXPECT_GT(before.size(), 1U) << cell;
}

TEST(Plan, InterleaveRunsEveryCellBeforeTheNextRepeat) {
  const Plan plan = build_plan(demo_config(), testing::worker_options());
  std::vector<int> repeats;
  for (const auto& run : plan.runs) {
    if (run.phase == RunPhase::kMeasure) repeats.push_back(run.repeat);
  }
  ASSERT_EQ(repeats.size(), plan.cells.size() * 2);
  EXPECT_TRUE(std::is_sorted(repeats.begin(), repeats.end()));
}

// A duet's rounds are the interleaved ones: its pairs are neighbours in them, so who goes first
// (and takes the first CPU) changes from round to round.
TEST(Plan, DuetPlansTheInterleavedRounds) {
  const Plan interleaved = build_plan(demo_config(R"(, "repeats": 4)"), testing::worker_options());
  const Plan duet =
      build_plan(demo_config(R"(, "repeats": 4, "order": "duet")"), testing::worker_options());
  ASSERT_EQ(duet.runs.size(), interleaved.runs.size());
  for (std::size_t i = 0; i < duet.runs.size(); ++i) {
    EXPECT_EQ(duet.runs[i].cell, interleaved.runs[i].cell) << i;
    EXPECT_EQ(duet.runs[i].repeat, interleaved.runs[i].repeat) << i;
  }
}

TEST(Plan, GroupedRunsEachCellsRepeatsTogether) {
  const Plan plan = build_plan(demo_config(R"(, "order": "grouped")"), testing::worker_options());
  std::size_t last_cell = 0;
  int seen = 0;
  for (const auto& run : plan.runs) {
    if (run.phase != RunPhase::kMeasure) continue;
    if (seen++ % 2 == 1) {
      EXPECT_EQ(run.cell, last_cell);
    }
    last_cell = run.cell;
  }
}

TEST(Plan, ShuffleIsSeededAndKeepsEveryRun) {
  const Plan a =
      build_plan(demo_config(R"(, "order": "shuffle", "seed": 5)"), testing::worker_options());
  const Plan b =
      build_plan(demo_config(R"(, "order": "shuffle", "seed": 5)"), testing::worker_options());
  const Plan c =
      build_plan(demo_config(R"(, "order": "shuffle", "seed": 6)"), testing::worker_options());
  auto key = [](const Plan& plan) {
    std::vector<std::pair<std::size_t, int>> runs;
    for (const auto& run : plan.runs) runs.emplace_back(run.cell, run.repeat);
    return runs;
  };
  EXPECT_EQ(key(a), key(b));
  EXPECT_NE(key(a), key(c));
  auto sorted_a = key(a);
  auto sorted_c = key(c);
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_c.begin(), sorted_c.end());
  EXPECT_EQ(sorted_a, sorted_c);
}

TEST(Plan, ShardsPartitionTheCells) {
  const Config config = demo_config();
  const Plan whole = build_plan(config, testing::worker_options());
  std::size_t total = 0;
  for (int k = 0; k < 3; ++k) {
    PlanOptions options = testing::worker_options();
    options.shard_index = k;
    options.shard_count = 3;
    total += build_plan(config, options).cells.size();
  }
  EXPECT_EQ(total, whole.cells.size());
  EXPECT_EQ(parse_shard("2/3"), std::make_pair(1, 3));
  EXPECT_THROW(parse_shard("0/3"), Error);
  EXPECT_THROW(parse_shard("4/3"), Error);
  EXPECT_THROW(parse_shard("x"), Error);
}

TEST(Plan, FilterSelectsTestsAndRejectsBadPatterns) {
  PlanOptions options = testing::worker_options();
  options.filter_regex = "^count-";
  EXPECT_EQ(build_plan(demo_config(), options).tests.size(), 3u);
  options.filter_regex = "nothing-matches-this";
  EXPECT_THROW(build_plan(demo_config(), options), Error);
  options.filter_regex = "([";
  EXPECT_THROW(build_plan(demo_config(), options), Error);
}

// The kept tests move up over those the filter drops; the baseline's index follows its test.
TEST(Plan, FilterKeepsTheOrderAndTheBaselinesTest) {
  PlanOptions options = testing::worker_options();
  options.filter_regex = "^(count-mmap|cat|buf-read-4KiB)$";
  const Plan plan = build_plan(demo_config(R"(, "baseline": "cat")"), options);
  std::vector<std::string> names;
  for (const config::Test& test : plan.tests) names.push_back(test.name);
  EXPECT_EQ(names, (std::vector<std::string>{"buf-read-4KiB", "count-mmap", "cat"}));
  ASSERT_TRUE(plan.baseline_test.has_value());
  EXPECT_EQ(*plan.baseline_test, 2u);
  options.filter_regex = "^count-";
  EXPECT_FALSE(build_plan(demo_config(R"(, "baseline": "cat")"), options).baseline_test);
}

// The first test in config order whose name an earlier one gave, and that earlier one's strategy.
TEST(Plan, TwoTestsOfOneNameNameTheirStrategies) {
  const auto error_of = [](const std::string& strategies) {
    try {
      build_plan(parse_config(R"({"name": "d", "inputs": ["a"], "strategies": [)" + strategies +
                                  R"(], "params": {"r": ["x", "y"]}})",
                              "d.json"),
                 testing::worker_options());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"name": "z-{r}", "command": ["a", "{r}"]},
                        {"name": "b", "command": ["b"]},
                        {"name": "z-y", "command": ["c"]},
                        {"name": "b-{r}", "command": ["d", "{r}"]})"),
            "d.json: strategies[2].name: expands to 'z-y', which strategies[0] also gives; make "
            "the names differ");
  EXPECT_EQ(error_of(R"({"name": "a", "command": ["a"]}, {"name": "b-{r}", "command": ["{r}"]})"),
            "no error");
}

TEST(Plan, RepeatsOverrideAndBaseline) {
  PlanOptions options = testing::worker_options();
  options.repeats_override = 5;
  const Plan plan = build_plan(demo_config(R"(, "baseline": "raw")"), options);
  EXPECT_EQ(plan.repeats, 5);
  ASSERT_TRUE(plan.baseline_test.has_value());
  EXPECT_EQ(plan.tests[*plan.baseline_test].name, "raw");
  EXPECT_THROW(build_plan(demo_config(R"(, "baseline": "nope")"), testing::worker_options()),
               Error);
}

TEST(Plan, RunArgvFillsTheInputVerbatimOrShellQuoted) {
  const Config config = parse_config(R"({"name": "n", "inputs": ["x"], "strategies": [
      {"name": "a", "command": ["cat", "--", "{input}"]},
      {"name": "b", "command": "wc -l < {input}", "shell": true}]})",
                                     "c.json");
  const Plan plan = build_plan(config, testing::worker_options());
  EXPECT_EQ(run_argv(plan.tests[0], config, "it's $(x).txt"),
            (std::vector<std::string>{"cat", "--", "it's $(x).txt"}));
  EXPECT_EQ(run_argv(plan.tests[1], config, "it's $(x).txt"),
            (std::vector<std::string>{"sh", "-c", "wc -l < 'it'\\''s $(x).txt'"}));
}

}  // namespace
}  // namespace iobench::config
