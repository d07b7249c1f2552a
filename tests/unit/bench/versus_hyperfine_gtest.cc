// `bench --compare-with hyperfine` (docs/bench.md): the hyperfine command lines that measure what
// iobench measured, with the same options, one per input and sink.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/bench/request.hpp"
#include "driver/bench/versus_hyperfine.hpp"

namespace iobench::bench {
namespace {

// Whether `words` appear in argv one after the other.
bool has(const std::vector<std::string>& argv, const std::vector<std::string>& words) {
  return std::search(argv.begin(), argv.end(), words.begin(), words.end()) != argv.end();
}

std::vector<HyperfineCall> calls_of(const bench::BenchRequest& request, bool with_input_option,
                                    bool with_conclude_option = true, bool failure_codes = false) {
  const config::Config config = bench::build_bench_config(request);
  return hyperfine_calls(config, config::build_plan(config, config::PlanOptions{}),
                         "/usr/bin/hyperfine",
                         {with_input_option, with_conclude_option, failure_codes}, "/tmp/f");
}

bench::BenchRequest request_with_every_option() {
  bench::BenchRequest request;
  request.commands = {"sleep 0.{n}", "true {n}"};
  request.param_specs = {"n=1,2"};
  request.min_runs = 3;
  request.max_runs = 5;
  request.shell_name = "bash --norc";
  request.setup = "make";
  request.prepare = {"sync {n}", "true"};
  request.conclude = {"rm -f out-{n}"};
  request.ignore_failure = "true";
  request.sinks = {"null", "pipe"};
  request.stdin_file = "/etc/hostname";
  return request;
}

TEST(BenchVersusHyperfine, OneCallPerSinkWithTheSameOptionsAndCommands) {
  const std::vector<HyperfineCall> calls = calls_of(request_with_every_option(), false);
  ASSERT_EQ(calls.size(), 2u);  // null and pipe
  const std::vector<std::string>& argv = calls[0].argv;
  EXPECT_EQ(argv.front(), "/usr/bin/hyperfine");
  EXPECT_TRUE(has(argv, {"--style", "none"}));
  EXPECT_TRUE(has(argv, {"--min-runs", "3", "--max-runs", "5"}));
  EXPECT_TRUE(has(argv, {"--warmup", "1"}));
  EXPECT_TRUE(has(argv, {"--shell", "bash --norc"}));
  EXPECT_TRUE(has(argv, {"--ignore-failure"}));
  EXPECT_TRUE(has(argv, {"--output=null"}));
  EXPECT_TRUE(has(calls[1].argv, {"--output=pipe"}));
  EXPECT_TRUE(has(argv, {"--setup", "make"}));
  EXPECT_TRUE(has(argv, {"--export-json", calls[0].json.string()}));
  // One --prepare per command, params filled; then each command named as iobench names it, its
  // stdin redirected through the shell (hyperfine 1.15 has no --input).
  EXPECT_TRUE(has(argv, {"--prepare", "sync 1", "--prepare", "sync 2", "--prepare", "true"}));
  EXPECT_TRUE(has(argv, {"--conclude", "rm -f out-1", "--conclude", "rm -f out-2", "--conclude",
                         "rm -f out-1"}));
  EXPECT_TRUE(has(argv, {"-n", "sleep 0.1", "{ sleep 0.1\n} < '/etc/hostname'"}));
  EXPECT_TRUE(has(argv, {"-n", "true 2", "{ true 2\n} < '/etc/hostname'"}));
  EXPECT_EQ(calls[0].cells.size(), 4u);  // two commands, two values each
  EXPECT_FALSE(has(argv, {"--input", "/etc/hostname"}));
  // A hyperfine with --input gets the file there, the command as it is.
  const std::vector<HyperfineCall> newer = calls_of(request_with_every_option(), true);
  EXPECT_TRUE(has(newer[0].argv, {"--input", "/etc/hostname"}));
  EXPECT_TRUE(has(newer[0].argv, {"-n", "sleep 0.1", "sleep 0.1"}));
  // One without --conclude (before 1.19) is not given one; the side-by-side's note says so.
  const std::vector<HyperfineCall> older = calls_of(request_with_every_option(), false, false);
  EXPECT_FALSE(has(older[0].argv, {"--conclude"}));
}

// bench --output FILE goes to hyperfine as its --output FILE, written so that hyperfine takes it
// as a file; commands with their own files get a hyperfine each (1.15 takes one --output).
TEST(BenchVersusHyperfine, TheOutputFileGoesToHyperfine) {
  bench::BenchRequest request;
  request.commands = {"echo a", "echo b"};
  request.outputs = {"./capture.txt"};
  std::vector<HyperfineCall> calls = calls_of(request, true);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(has(calls[0].argv, {"--output=./capture.txt"}));
  request.outputs = {"./a.log", "/tmp/b.log"};
  calls = calls_of(request, true);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_TRUE(has(calls[0].argv, {"--output=./a.log"}));
  EXPECT_TRUE(has(calls[0].argv, {"-n", "echo a", "echo a"}));
  EXPECT_FALSE(has(calls[0].argv, {"-n", "echo b", "echo b"}));
  EXPECT_TRUE(has(calls[1].argv, {"--output=/tmp/b.log"}));
  EXPECT_TRUE(has(calls[1].argv, {"-n", "echo b", "echo b"}));
  // A config's own file sink keeps hyperfine's file in the call's folder.
  request.outputs.clear();
  request.sinks = {"file"};
  EXPECT_TRUE(has(calls_of(request, true)[0].argv, {"--output=/tmp/f/sink-0"}));
}

// 1.20 takes --ignore-failure=CODES; before it, only the bare flag (every code; the note says so).
TEST(BenchVersusHyperfine, TheIgnoredCodesGoToAHyperfineThatTakesThem) {
  bench::BenchRequest request;
  request.commands = {"true"};
  request.ignore_failure = "3,1";
  EXPECT_TRUE(has(calls_of(request, true, true, true)[0].argv, {"--ignore-failure=1,3"}));
  EXPECT_TRUE(has(calls_of(request, true, true, false)[0].argv, {"--ignore-failure"}));
  request.ignore_failure = "true";
  EXPECT_TRUE(has(calls_of(request, true, true, true)[0].argv, {"--ignore-failure"}));
}

TEST(BenchVersusHyperfine, AbilitiesComeFromTheVersionAndTheHelp) {
  const HyperfineAbilities debian = abilities_of("hyperfine 1.15.0", "  -N  ...\n  --prepare");
  EXPECT_FALSE(debian.input_option);
  EXPECT_FALSE(debian.conclude_option);
  EXPECT_FALSE(debian.failure_codes);
  const HyperfineAbilities newer =
      abilities_of("hyperfine 1.20.0\n", "  --input <WHERE>\n  -C, --conclude <CMD>");
  EXPECT_TRUE(newer.input_option);
  EXPECT_TRUE(newer.conclude_option);
  EXPECT_TRUE(newer.failure_codes);
  EXPECT_FALSE(abilities_of("hyperfine 1.19.0", "").failure_codes);
  EXPECT_TRUE(abilities_of("hyperfine 2.0.0", "").failure_codes);
  EXPECT_FALSE(abilities_of("hyperfine", "").failure_codes);  // no version: assume the least
}

TEST(BenchVersusHyperfine, ASetupWithParamsRunsOnceForEachValue) {
  bench::BenchRequest request;
  request.commands = {"sleep 0.{n}"};
  request.param_specs = {"n=1,2"};
  request.setup = "prepare {n}";
  const std::vector<HyperfineCall> calls = calls_of(request, false);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_TRUE(has(calls[0].argv, {"--setup", "prepare 1"}));
  EXPECT_TRUE(has(calls[1].argv, {"--setup", "prepare 2"}));
  // bench's default fills 3 s between 10 and 1000 runs: hyperfine's own rule between the bounds.
  EXPECT_TRUE(has(calls[0].argv, {"--min-runs", "10", "--max-runs", "1000"}));
  request.runs = 7;
  EXPECT_TRUE(has(calls_of(request, false)[0].argv, {"--runs", "7"}));
}

TEST(BenchVersusHyperfine, WithoutAShellTheCommandsAreWordsForMinusN) {
  bench::BenchRequest request;
  request.commands = {"printf '%s\\n' 'a b'"};
  request.shell = false;
  const std::vector<HyperfineCall> calls = calls_of(request, false);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(has(calls[0].argv, {"-N"}));
  EXPECT_TRUE(has(calls[0].argv, {"printf '%s\\n' 'a b'"}));
  request.stdin_file = "/etc/hostname";  // no shell to redirect it, no --input to pass it
  try {
    calls_of(request, false);
    FAIL() << "a stdin file without a shell or --input was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("this hyperfine has no --input"), std::string::npos);
  }
}

}  // namespace
}  // namespace iobench::bench
