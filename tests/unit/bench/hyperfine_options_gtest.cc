// hyperfine's options of `iobench bench`, with hyperfine's meaning (docs/bench.md): the config
// keys each becomes, the command line that gives them again, and a one-line error for each bad
// value.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.hpp"
#include "driver/bench/hyperfine_options.hpp"
#include "driver/bench/request.hpp"
#include "driver/config/config_json.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {

using config::Config;
using config::SinkKind;
using config::StrategySpec;

namespace {

namespace fs = std::filesystem;

class BenchHyperfineTest : public test::BenchRequestTest {
 protected:
  static void expect_error(const BenchRequest& request, const std::string& part) {
    EXPECT_NE(error_of(request).find(part), std::string::npos)
        << "expected '" << part << "' in: " << error_of(request);
  }
};

// hyperfine's -r, -m, -M: exactly N, or as many runs as fill 3 s within [-m, -M] (hyperfine's
// options.rs and benchmark/mod.rs); --ci-pct a precision target between them instead; none of
// them: hyperfine's default, at least 10 runs and more to fill 3 s.
// Each config's repeats as {min, max, ci_pct, fill_s}.
struct Repeats {
  int min = 0;
  int max = 0;
  double ci_pct = 0;
  double fill_s = 0;
  bool operator==(const Repeats&) const = default;
};

Repeats repeats_of(const BenchRequest& request) {
  const Config config = build_bench_config(request);
  return {config.repeats_min, config.repeats, config.repeats_ci_pct, config.repeats_fill_s};
}

// A gate's time to fill (cmd_bench sets it for --fail-if-slower without -r, -m or -M) replaces
// hyperfine's 3 s, within the same bounds.
TEST_F(BenchHyperfineTest, AGatesTimeToFillReplacesHyperfines) {
  BenchRequest request = two_commands();
  request.fill_s = kGateFillS;
  EXPECT_EQ(repeats_of(request), (Repeats{10, 1000, 0, kGateFillS}));
  request.runs = 4;
  EXPECT_EQ(repeats_of(request), (Repeats{4, 4, 0, 0}));
}

TEST_F(BenchHyperfineTest, RunCountsMeanWhatTheyMeanInHyperfine) {
  BenchRequest request = two_commands();
  EXPECT_EQ(repeats_of(request), (Repeats{10, 1000, 0, 3}));
  request.runs = 4;
  EXPECT_EQ(repeats_of(request), (Repeats{4, 4, 0, 0}));
  request.runs.reset();
  request.min_runs = 5;
  request.max_runs = 20;
  EXPECT_EQ(repeats_of(request), (Repeats{5, 20, 0, 3})) << "no precision target unless --ci-pct";
  request.ci_pct = 5;
  EXPECT_EQ(repeats_of(request), (Repeats{5, 20, 5, 0}));
  request.ci_pct.reset();
  request.max_runs.reset();  // -m alone: hyperfine has no most; here the default's 1000
  EXPECT_EQ(repeats_of(request).max, 1000);
  request.min_runs = 1500;
  EXPECT_EQ(repeats_of(request), (Repeats{1500, 1500, 0, 0})) << "-m above 1000: at most -m";
  request.min_runs.reset();  // -M alone: at least min(10, -M)
  request.max_runs = 30;
  EXPECT_EQ(repeats_of(request), (Repeats{10, 30, 0, 3}));
  request.max_runs = 4;
  EXPECT_EQ(repeats_of(request), (Repeats{4, 4, 0, 0}));  // -M 4: at least 4 too, so exactly 4
}

TEST_F(BenchHyperfineTest, ParameterScansStepAsHyperfineWritesThem) {
  using Values = std::vector<std::string>;
  EXPECT_EQ(parameter_scan_values({"n", "1", "3"}, "").second, (Values{"1", "2", "3"}));
  EXPECT_EQ(parameter_scan_values({"n", "1", "10"}, "3").second, (Values{"1", "4", "7", "10"}));
  EXPECT_EQ(parameter_scan_values({"d", "0.3", "0.7"}, "0.2").second,
            (Values{"0.3", "0.5", "0.7"}));
  EXPECT_EQ(parameter_scan_values({"d", "1", "2"}, "0.25").second,
            (Values{"1", "1.25", "1.50", "1.75", "2.00"}));
  EXPECT_EQ(parameter_scan_values({"d", "-1", "0.75"}, "0.5").second,
            (Values{"-1", "-0.5", "0.0", "0.5"}));
  EXPECT_EQ(parameter_scan_values({"n", "2", "2"}, "").second, (Values{"2"}));
  EXPECT_TRUE(parameter_scan_values({}, "").first.empty());
  BenchRequest request;
  request.commands = {"sleep 0.0{n}"};
  request.parameter_scan = {"n", "1", "3"};
  const Config config = build_bench_config(request);
  ASSERT_EQ(config.params.size(), 1u);
  EXPECT_EQ(config.params[0].first, "n");
  EXPECT_EQ(config.params[0].second, (Values{"1", "2", "3"}));
  EXPECT_EQ(config.baseline, "sleep 0.01");
}

TEST_F(BenchHyperfineTest, HooksShellAndIgnoreFailureReachEveryCommand) {
  BenchRequest request;
  request.commands = {"make -j {n}", "ninja -j {n}"};
  request.param_specs = {"n=1,2"};
  request.setup = "./configure";
  request.prepare = {"make clean"};
  request.cleanup = "rm -rf build-{n}";
  request.ignore_failure = "true";
  request.shell_name = "bash --norc";
  Config config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 2u);
  for (const StrategySpec& strategy : config.strategies) {
    EXPECT_EQ(strategy.setup, "./configure");
    EXPECT_EQ(strategy.prepare, "make clean");
    EXPECT_EQ(strategy.cleanup, "rm -rf build-{n}");
    EXPECT_TRUE(strategy.ignore_failure.all);
    EXPECT_TRUE(strategy.shell);
    EXPECT_EQ(strategy.shell_words, (std::vector<std::string>{"bash", "--norc"}));
  }
  request.prepare = {"make clean", "ninja -t clean"};  // once per command, in order
  config = build_bench_config(request);
  EXPECT_EQ(config.strategies[1].prepare, "ninja -t clean");
  request.shell_name = "none";  // -S none: --no-shell
  config = build_bench_config(request);
  EXPECT_FALSE(config.strategies[0].shell);
  EXPECT_EQ(config.strategies[0].args, (std::vector<std::string>{"make", "-j", "{n}"}));
  request.shell_name = "default";
  EXPECT_EQ(build_bench_config(request).strategies[0].shell_words, std::vector<std::string>{"sh"});
}

TEST_F(BenchHyperfineTest, ShowOutputIsTheInheritSink) {
  BenchRequest request = two_commands();
  request.show_output = true;
  EXPECT_EQ(build_bench_config(request).sinks, std::vector<SinkKind>{SinkKind::kInherit});
  request.show_output = false;
  request.sinks = {"inherit", "pipe"};
  EXPECT_EQ(build_bench_config(request).sinks,
            (std::vector<SinkKind>{SinkKind::kInherit, SinkKind::kPipe}));
}

// hyperfine's --output WHERE (its options.rs): null, pipe, inherit are those sinks; a path of two
// parts or more is a FILE, the file sink writing there; once for all commands or once per command.
TEST_F(BenchHyperfineTest, OutputIsWhereTheCommandsOutputGoesAsInHyperfine) {
  BenchRequest request = two_commands();
  for (const std::string where : {"null", "pipe", "inherit"}) {
    request.outputs = {where};
    const Config config = build_bench_config(request);
    ASSERT_EQ(config.sinks.size(), 1u) << where;
    EXPECT_EQ(to_string(config.sinks.front()), where);
    EXPECT_EQ(config.strategies[0].output_file, "") << where;
  }
  request.outputs = {"./capture.txt"};
  Config config = build_bench_config(request);
  EXPECT_EQ(config.sinks, std::vector<SinkKind>{SinkKind::kFile});
  EXPECT_EQ(config.strategies[0].output_file, "./capture.txt");
  EXPECT_EQ(config.strategies[1].output_file, "./capture.txt");
  // Once per command, in order; the added reference takes the one given for all.
  request.outputs = {"./a.log", "/tmp/b.log"};
  config = build_bench_config(request);
  EXPECT_EQ(config.strategies[0].output_file, "./a.log");
  EXPECT_EQ(config.strategies[1].output_file, "/tmp/b.log");
  request.outputs = {"null", "null"};
  EXPECT_EQ(build_bench_config(request).sinks, std::vector<SinkKind>{SinkKind::kNull});
  request.outputs = {"./all.log"};
  request.reference = "true";
  config = build_bench_config(request);
  ASSERT_EQ(config.strategies.size(), 3u);
  EXPECT_EQ(config.strategies[0].output_file, "./all.log");
  // The saved config keeps it, and `iobench run` reads it back.
  EXPECT_EQ(config::config_to_json(config)["strategies"][0]["output_file"], "./all.log");
  EXPECT_TRUE(bench_command_line(request).find("--output ./all.log") != std::string::npos)
      << bench_command_line(request);
}

TEST_F(BenchHyperfineTest, OutputMistakesAreOneLineNamingTheOption) {
  BenchRequest request = two_commands();
  // A bare word is no file, as in hyperfine: a runs file's old spelling names its new option.
  // Outputs of different kinds would put the commands in sinks that are never compared.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"runs.tsv"},
       "--output runs.tsv: not null, pipe or inherit; --output ./runs.tsv writes each command's "
       "output to that file, as hyperfine's (-o/--runs-file names iobench's runs file)"},
      {{"nul"}, "--output nul: not null, pipe or inherit"},
      {{"null", "./b.log"},
       "--output null and --output ./b.log: iobench compares commands within one sink"}};
  for (const auto& [outputs, part] : cases) {
    request.outputs = outputs;
    expect_error(request, part);
  }
  request = two_commands();
  request.outputs = {"pipe"};
  request.sinks = {"pipe"};
  expect_error(request, "--output and --sink both say where the output goes; give one of them");
  request.sinks.clear();
  request.show_output = true;
  expect_error(request, "--output and --show-output both say where the output goes");
}

TEST_F(BenchHyperfineTest, HyperfineOptionMistakesAreOneLineNamingTheOption) {
  BenchRequest request = two_commands();
  request.runs = 3;
  request.min_runs = 2;
  expect_error(request, "--runs 3: is exactly that many runs, while -m/-M bound the count");
  request = two_commands();
  request.ci_pct = 2;
  expect_error(request, "--ci-pct: is the target between -m and -M");
  request.min_runs = 2;
  request.ci_pct = 0;
  expect_error(request, "--ci-pct 0: must be a percentage above 0");
  request = two_commands();
  request.min_runs = 1;
  request.ci_pct = 2;
  expect_error(request, "--min-runs 1: must be 2 or more, the fewest a spread needs");
  request.ci_pct.reset();
  EXPECT_EQ(error_of(request), "(no error)") << "-m 1 fills 3 s, as hyperfine's";
  request.min_runs = 0;
  expect_error(request, "--min-runs 0: must be 1 or more");
  request.min_runs = 5;
  request.max_runs = 3;
  expect_error(request, "--max-runs 3: below --min-runs 5");
  request = two_commands();
  request.max_runs = 0;
  expect_error(request, "--max-runs 0: must be 1 or more");
  request = two_commands();
  request.commands = {"sleep {n}"};
  request.parameter_scan = {"n", "3", "1"};
  expect_error(request, "-P n 3 1: an empty range");
  request.parameter_scan = {"n", "0.5", "2"};
  expect_error(request, "bounds with decimals need a step size: give -D");
  request.parameter_step = "0";
  expect_error(request, "-D 0: must be above 0");
  request.parameter_scan = {"n", "1", "x"};
  request.parameter_step = "";
  expect_error(request, "-P n MAX 'x': not a number");
  request.parameter_scan.clear();
  request.parameter_step = "0.5";
  expect_error(request, "-D 0.5: steps a -P VAR MIN MAX; give -P");
  request = two_commands();
  request.commands = {"sleep {n}"};
  request.param_specs = {"n=1,2"};
  request.parameter_scan = {"n", "1", "2"};
  expect_error(request, "-P n: is given by -L too");
  // Given once for all or once per command, as hyperfine takes them.
  for (const auto& [option, field, given] :
       {std::tuple{"--prepare", &BenchRequest::prepare, std::vector<std::string>{"a", "b", "c"}},
        std::tuple{"--output", &BenchRequest::outputs,
                   std::vector<std::string>{"./a", "./b", "./c"}}}) {
    request = two_commands();
    request.*field = given;
    expect_error(request, fmt::format("{} is given 3 times for 2 commands", option));
    (request.*field).pop_back();
    request.reference = "true";
    expect_error(
        request,
        fmt::format("{} is given per command, and the --reference is not one of them", option));
  }
  request = two_commands();
  request.shell = false;
  request.shell_name = "bash";
  expect_error(request, "-S bash: and --no-shell say different things");
  request = two_commands();
  request.shell_name = "'bash";
  expect_error(request, "bench command line: strategies[0].shell: must name a shell");
  request = two_commands();
  request.show_output = true;
  request.sinks = {"pipe"};
  expect_error(request, "--show-output is the inherit sink, and --sink says");
  request = two_commands();
  request.commands = {"true"};
  request.parameter_scan = {"n", "1", "2"};
  expect_error(request, "-P n: no command uses {n}");
}

TEST_F(BenchHyperfineTest, TheCommandLineSpellsThemOutAsGiven) {
  BenchRequest request = two_commands();
  request.commands = {"sleep 0.{n}"};
  request.min_runs = 3;
  request.max_runs = 9;
  request.ci_pct = 1.5;
  request.parameter_scan = {"n", "1", "3"};
  request.parameter_step = "2";
  request.shell_name = "bash --norc";
  request.setup = "make";
  request.prepare = {"sync"};
  request.cleanup = "make clean";
  request.ignore_failure = "true";
  request.show_output = true;
  EXPECT_EQ(bench_command_line(request),
            "iobench bench --input data/in.txt --min-runs 3 --max-runs 9 --ci-pct 1.5 "
            "--parameter-scan n 1 3 --parameter-step-size 2 --shell 'bash --norc' --setup make "
            "--prepare sync --cleanup 'make clean' --ignore-failure --show-output --warmup 1 "
            "--cache warm --order interleave 'sleep 0.{n}'");
  request.ignore_failure = "2,7";  // one word: a flag takes no second one
  EXPECT_NE(bench_command_line(request).find(" --ignore-failure=2,7 --show-output "),
            std::string::npos);
}

}  // namespace
}  // namespace iobench::bench
