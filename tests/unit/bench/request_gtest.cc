// `iobench bench` options -> the Config a file would give, and the JSON it saves parses back to
// the same Config.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/bench/request.hpp"
#include "driver/config/plan.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {

using config::build_plan;
using config::CacheMode;
using config::Config;
using config::parse_config;
using config::Plan;
using config::PlanOptions;
using config::RunOrder;
using config::SinkKind;
using config::StrategySpec;

namespace {

namespace fs = std::filesystem;

class BenchConfigTest : public test::BenchRequestTest {};

TEST_F(BenchConfigTest, CommandsBecomeShellStrategiesWithTheFirstAsReference) {
  BenchRequest request = two_commands();
  request.names = {"cat"};
  const Config config = build_bench_config(request);
  EXPECT_EQ(config.name, "bench");
  ASSERT_EQ(config.strategies.size(), 2u);
  EXPECT_EQ(config.strategies[0].name, "cat");
  EXPECT_EQ(config.strategies[1].name, "grep -c . {input}");  // unnamed: its own text
  for (const auto& strategy : config.strategies) {
    EXPECT_EQ(strategy.kind, StrategySpec::Kind::kCommand);
    EXPECT_TRUE(strategy.shell);
    EXPECT_FALSE(strategy.verify) << "bench verifies only with --verify on, as hyperfine";
  }
  EXPECT_EQ(config.strategies[1].args, std::vector<std::string>{"grep -c . {input}"});
  EXPECT_EQ(config.baseline, "cat");
  ASSERT_EQ(config.inputs.size(), 1u);
  EXPECT_EQ(config.inputs[0].path, "data/in.txt");
  EXPECT_EQ(config.sinks, std::vector<SinkKind>{SinkKind::kPipe});
  EXPECT_EQ(config.repeats_min, 10);
  EXPECT_EQ(config.repeats, 1000);
  EXPECT_EQ(config.repeats_fill_s, 3);
  EXPECT_EQ(config.warmup, 1);
  EXPECT_EQ(config.cache, CacheMode::kWarm);
  // Every command is one output class, whose reference is the first command's output.
  PlanOptions plan_options;
  plan_options.worker_path = "/bin/iobench-worker";
  const Plan plan = build_plan(config, plan_options);
  EXPECT_EQ(plan.tests[0].output_class, plan.tests[1].output_class);
  EXPECT_NE(plan.tests[0].output_class, "copy");
}

TEST_F(BenchConfigTest, EveryOptionReachesItsConfigKey) {
  BenchRequest request = two_commands();
  request.sinks = {"null", "file"};
  request.cache = "cold";
  request.order = "shuffle";
  request.runs = 3;
  request.warmup = 0;
  request.timeout_s = 2.5;
  request.verify = "on";
  const Config config = build_bench_config(request);
  EXPECT_EQ(config.sinks, (std::vector<SinkKind>{SinkKind::kNull, SinkKind::kFile}));
  EXPECT_EQ(config.cache, CacheMode::kCold);
  EXPECT_EQ(config.order, RunOrder::kShuffle);
  EXPECT_EQ(config.repeats, 3);
  EXPECT_EQ(config.warmup, 0);
  EXPECT_DOUBLE_EQ(config.timeout_s, 2.5);
  for (const auto& strategy : config.strategies) EXPECT_TRUE(strategy.verify);
  // --counters in the order given, checked as the config key's names are.
  request.counters = {"task-clock", "syscalls"};
  EXPECT_EQ(
      build_bench_config(request).counters,
      (std::vector<runfile::Counter>{runfile::Counter::kTaskClock, runfile::Counter::kSyscalls}));
  request.counters = {"task-clock", "ticks"};
  EXPECT_NE(error_of(request).find("bench command line: counters[1]: unknown counter 'ticks'"),
            std::string::npos)
      << error_of(request);
  request.counters.clear();
  EXPECT_TRUE(build_bench_config(request).counters.empty());
}

TEST_F(BenchConfigTest, ParamsExpandAsACartesianProductAndTheReferenceTakesTheFirstValues) {
  BenchRequest request;
  request.commands = {"head -c {n} {input} | tail -c {m}", "cat {input}"};
  request.inputs = {"data/in.txt"};
  request.param_specs = {"n=1,2,3", "m=1,2"};
  const Config config = build_bench_config(request);
  ASSERT_EQ(config.params.size(), 2u);
  EXPECT_EQ(config.params[0].second, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(config.baseline, "head -c 1 {input} | tail -c 1");
  PlanOptions plan_options;
  plan_options.worker_path = "/bin/iobench-worker";
  const Plan plan = build_plan(config, plan_options);
  EXPECT_EQ(plan.tests.size(), 3u * 2u + 1u);
  ASSERT_TRUE(plan.baseline_test.has_value());
  EXPECT_EQ(plan.tests[*plan.baseline_test].name, "head -c 1 {input} | tail -c 1");
}

TEST_F(BenchConfigTest, NoShellSplitsTheWordsAndRunsThemDirectly) {
  BenchRequest request = two_commands();
  request.commands = {"awk '{print $1}' {input}"};
  request.shell = false;
  const Config config = build_bench_config(request);
  EXPECT_FALSE(config.strategies[0].shell);
  EXPECT_EQ(config.strategies[0].args, (std::vector<std::string>{"awk", "{print $1}", "{input}"}));
  request.commands = {"awk '{print {input}"};
  EXPECT_NE(error_of(request).find("unterminated quote"), std::string::npos);
}

TEST_F(BenchConfigTest, TheReferenceIsAddedFirstOrChosenAmongTheCommands) {
  BenchRequest request = two_commands();
  request.reference = "wc -l {input}";
  Config config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 3u);
  EXPECT_EQ(config.strategies[0].name, "wc -l {input}");
  EXPECT_EQ(config.baseline, "wc -l {input}");
  request.reference = "grep -c . {input}";
  request.names = {"cat", "grep"};
  config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 2u);
  EXPECT_EQ(config.baseline, "grep");
}

// hyperfine 1.20's --reference-name: the reference's name, added or among the commands; without
// --reference it names nothing and is refused, as hyperfine's clap `requires` does.
// hyperfine runs a command given twice twice; a test's name keys its rows, so the second is
// named "CMD #2". Two commands given the same --name are still refused (MistakesAre...).
TEST_F(BenchConfigTest, TheSameCommandTwiceRunsTwiceUnderItsOwnName) {
  BenchRequest request = two_commands();
  request.commands = {"cat {input}", "cat {input}", "wc -l {input}", "cat {input}"};
  Config config = build_bench_config(request);
  std::vector<std::string> names;
  for (const auto& strategy : config.strategies) names.push_back(strategy.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cat {input}", "cat {input} #2", "wc -l {input}",
                                             "cat {input} #3"}));
  EXPECT_EQ(config.strategies[1].args, std::vector<std::string>{"cat {input}"});
  EXPECT_EQ(config.baseline, "cat {input}");
  request.commands = {"cat {input}", "cat {input} #2", "cat {input}"};  // that name is taken
  config = build_bench_config(request);
  EXPECT_EQ(config.strategies[2].name, "cat {input} #3");
}

TEST_F(BenchConfigTest, TheReferenceNameNamesTheReference) {
  BenchRequest request = two_commands();
  request.reference = "wc -l {input}";
  request.reference_name = "base";
  Config config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 3u);
  EXPECT_EQ(config.strategies[0].name, "base");
  EXPECT_EQ(config.baseline, "base");
  request.reference = "grep -c . {input}";
  request.names = {"cat", "grep"};
  config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 2u);
  EXPECT_EQ(config.strategies[1].name, "base");
  EXPECT_EQ(config.baseline, "base");
  request.reference.clear();
  EXPECT_NE(error_of(request).find(
                "--reference-name names the --reference command, and there is none (as "
                "hyperfine)"),
            std::string::npos)
      << error_of(request);
  request.reference = "wc -l {input}";
  EXPECT_NE(bench_command_line(request).find("--reference 'wc -l {input}' --reference-name base"),
            std::string::npos);
}

TEST_F(BenchConfigTest, TheSavedConfigParsesBackToTheSameConfig) {
  BenchRequest request = two_commands();
  request.param_specs = {"n=1,2"};
  request.commands = {"head -n {n} {input}", "cat {input}"};
  request.names = {"head-{n}"};
  request.sinks = {"pipe", "null"};
  request.made_by = "iobench bench --input data/in.txt 'head -n {n} {input}' 'cat {input}'";
  const Config config = build_bench_config(request);
  fs::create_directories("saved/deeper");
  for (const fs::path& save_path : {fs::path("saved/deeper/x.json"), fs::path("x.json"),
                                    fs::current_path() / "saved" / "y.json"}) {
    const auto saved = config_to_save(config, save_path);
    const Config again = parse_config(saved.dump(2), save_path);
    // A relative save path gives the very path bench ran with (the rows' input column).
    if (save_path.is_relative()) {
      EXPECT_EQ(again.inputs[0].path, config.inputs[0].path);
    }
    EXPECT_TRUE(fs::equivalent(again.inputs[0].path, config.inputs[0].path)) << save_path;
    ASSERT_EQ(again.strategies.size(), config.strategies.size());
    for (std::size_t i = 0; i < config.strategies.size(); ++i) {
      EXPECT_EQ(again.strategies[i].name, config.strategies[i].name);
      EXPECT_EQ(again.strategies[i].args, config.strategies[i].args);
      EXPECT_EQ(again.strategies[i].shell, config.strategies[i].shell);
      EXPECT_EQ(again.strategies[i].verify, config.strategies[i].verify);
    }
    EXPECT_EQ(again.params, config.params);
    EXPECT_EQ(again.sinks, config.sinks);
    EXPECT_EQ(again.repeats, config.repeats);
    EXPECT_EQ(again.warmup, config.warmup);
    EXPECT_EQ(again.cache, config.cache);
    EXPECT_EQ(again.order, config.order);
    EXPECT_EQ(again.baseline, config.baseline);
    EXPECT_EQ(again.description, config.description);
  }
  EXPECT_NE(config.description.find(request.made_by), std::string::npos);
  // Saved beside the input's folder, the path is written as `iobench run` resolves it.
  EXPECT_EQ(config_to_save(config, "saved/deeper/x.json")["inputs"][0], "../../data/in.txt");
}

TEST_F(BenchConfigTest, MistakesAreOneLineNamingTheOption) {
  auto expect_error = [](const BenchRequest& request, const std::string& part) {
    EXPECT_NE(error_of(request).find(part), std::string::npos)
        << "expected '" << part << "' in: " << error_of(request);
  };
  BenchRequest request = two_commands();
  request.inputs.clear();
  expect_error(request, "{input} is the --input path, but no --input is given");
  request.commands = {"true"};
  request.cache = "cold";
  expect_error(request, "--cache cold: prepares the --input files' page cache");
  request = two_commands();
  request.stdin_file = "data/missing.txt";
  expect_error(request, "--stdin data/missing.txt: cannot be read");
  request = two_commands();
  request.inputs = {"data/missing.txt"};
  expect_error(request, "--input data/missing.txt: not a readable file");
  request = two_commands();
  request.param_specs = {"novalues"};
  expect_error(request, "-L 'novalues': expected NAME V1,V2,... or NAME=V1,V2");
  request.param_specs = {"input=1,2"};
  expect_error(request, "{input} is the --input path");
  request.param_specs = {"n=1", "n=2"};
  expect_error(request, "-L n: given twice");
  request.param_specs = {"unused=1,2"};
  expect_error(request, "-L unused: no command uses {unused}");
  // hyperfine has no --input; iobench's is read through {input} only: unused, it would time
  // commands that never read it.
  request = two_commands();
  request.commands = {"cat", "wc -l"};
  expect_error(request,
               "--input: no command uses {input}; put {input} where the command takes its "
               "file (e.g. 'wc -l {input}'), or give --stdin FILE");
  request = two_commands();
  request.commands = {"head -n {n} {input}"};
  expect_error(request, "{n} is not defined; give its values with -L n=V1,V2");
  request.param_specs = {"n=1,2"};
  request.names = {"head"};
  expect_error(request, "--name 'head': must contain {n}");
  request = two_commands();
  request.names = {"a", "b", "c"};
  expect_error(request, "--name is given 3 times for 2 commands");
  request.names = {"same", "same"};
  expect_error(request, "'same' is given twice");
  request = two_commands();
  request.sinks = {"disk"};
  expect_error(request, "--sink disk: not one of null, pipe, file");
  request.sinks = {"pipe", "pipe"};
  expect_error(request, "--sink pipe: given twice");
  request = two_commands();
  request.cache = "hot";
  expect_error(request, "--cache hot: not one of warm, cold, none");
  request = two_commands();
  request.order = "random";
  expect_error(request, "--order random: not one of");
  request = two_commands();
  request.runs = 0;
  expect_error(request, "--runs 0: must be 1 or more");
  request = two_commands();
  request.timeout_s = 0;
  expect_error(request, "--timeout 0: must be a number of seconds above 0");
  request = two_commands();
  request.commands = {" "};
  expect_error(request, "a command is empty");
}

// hyperfine's habit: commands that read no file. They run with no input (one cell per command and
// sink, no cache step, the first command's output as the reference) and --stdin feeds them a file.
TEST_F(BenchConfigTest, WithoutAnInputTheCommandsRunWithNoneAndStdinFeedsThem) {
  BenchRequest request;
  request.commands = {"sleep 0", "wc -c"};
  const nlohmann::ordered_json json = build_bench_config(request).as_written.tree();
  EXPECT_FALSE(json.contains("inputs"));
  EXPECT_FALSE(json.contains("stdin"));
  EXPECT_EQ(json["cache"], "none");
  Config config = build_bench_config(request);
  ASSERT_EQ(config.inputs.size(), 1u);
  EXPECT_TRUE(config.inputs[0].none());
  EXPECT_EQ(config.cache, CacheMode::kNone);
  EXPECT_TRUE(config.stdin_path.empty());
  PlanOptions plan_options;
  plan_options.worker_path = "/bin/iobench-worker";
  const Plan plan = build_plan(config, plan_options);
  EXPECT_EQ(plan.cells.size(), 2u);
  EXPECT_EQ(plan.tests[0].output_class, plan.tests[1].output_class);
  EXPECT_NE(plan.tests[0].output_class, "copy");

  request.stdin_file = "data/in.txt";
  EXPECT_EQ(build_bench_config(request).as_written.tree()["stdin"], "data/in.txt");
  config = build_bench_config(request);
  EXPECT_EQ(config.stdin_path, "data/in.txt");
  EXPECT_EQ(bench_command_line(request),
            "iobench bench --stdin data/in.txt --warmup 1 --order interleave 'sleep 0' 'wc -c'");
  // Saved elsewhere, the stdin path is rewritten as `iobench run` resolves it.
  fs::create_directories("saved");
  EXPECT_EQ(config_to_save(config, "saved/x.json")["stdin"], "../data/in.txt");
  EXPECT_EQ(parse_config(config_to_save(config, "saved/x.json").dump(), "saved/x.json").stdin_path,
            "data/in.txt");
}

// The saved config's description names the command line that measures it again: every option,
// in one order, each value quoted for sh.
TEST_F(BenchConfigTest, TheCommandLineSpellsOutEveryOption) {
  BenchRequest request = two_commands();
  request.param_specs = {"n=1,2"};
  request.names = {"cat", "count"};
  request.reference = "cat {input}";
  request.sinks = {"pipe", "null"};
  request.timeout_s = 2.5;
  request.counters = {"syscalls", "task-clock"};
  request.shell = false;
  request.verify = "on";
  request.runs = 10;
  EXPECT_EQ(bench_command_line(request),
            "iobench bench --input data/in.txt -L n=1,2 --name cat --name count --reference "
            "'cat {input}' --runs 10 --warmup 1 --sink pipe --sink null --cache warm --order "
            "interleave --timeout 2.5 --counters syscalls,task-clock --no-shell --verify on "
            "'cat {input}' 'grep -c . {input}'");
  // Without -r, -m or -M: hyperfine's default, which no option spells.
  EXPECT_EQ(bench_command_line(two_commands()),
            "iobench bench --input data/in.txt --warmup 1 --cache warm --order "
            "interleave 'cat {input}' 'grep -c . {input}'");
}

}  // namespace
}  // namespace iobench::bench
