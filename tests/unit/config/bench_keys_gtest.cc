// The config keys `iobench bench` needs beyond a matrix of files (docs/formats.md "Config"): a
// config without "inputs", "stdin", a strategy's "shell" naming a shell, its hooks ("setup",
// "prepare", "cleanup"), "ignore_failure", and the inherit sink.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"

namespace iobench::config {
namespace {

std::string bench_keys_error(const std::string& text) {
  try {
    parse_config(text, "dir/c.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BenchKeys, AConfigWithoutInputsHasOneInputThatIsNone) {
  const Config config = parse_config(
      R"({"name": "n", "strategies": [{"name": "s", "command": "sleep 0", "shell": true}]})",
      "dir/c.json");
  ASSERT_EQ(config.inputs.size(), 1u);
  EXPECT_TRUE(config.inputs[0].none());
  EXPECT_TRUE(config.inputs[0].path.empty());
  // Given, "inputs" is still a non-empty list, and every input is a file.
  EXPECT_NE(bench_keys_error(
                R"({"name": "n", "inputs": [], "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("inputs: must be a non-empty list"),
            std::string::npos);
  EXPECT_FALSE(parse_config(R"({"name": "n", "inputs": ["in.txt"],
                                "strategies": [{"name": "s", "command": ["x"]}]})",
                            "dir/c.json")
                   .inputs[0]
                   .none());
}

TEST(BenchKeys, WithoutInputsNothingMayNameOne) {
  EXPECT_NE(bench_keys_error(
                R"({"name": "n", "strategies": [{"name": "s", "command": ["cat", "{input}"]}]})")
                .find("strategies[0].command[1]: placeholder {input} names the input, but the "
                      "config has no \"inputs\""),
            std::string::npos);
  EXPECT_NE(bench_keys_error(
                R"({"name": "n", "strategies": [{"name": "w", "worker": ["--read", "read"]}]})")
                .find("strategies[0].worker: a worker reads an input file, but the config has no "
                      "\"inputs\""),
            std::string::npos);
}

TEST(BenchKeys, StdinIsAPathResolvedLikeTheInputs) {
  const std::string text =
      R"({"name": "n", "stdin": "data/feed.txt", "strategies": [{"name": "s", "command": ["wc"]}]})";
  Config config = parse_config(text, "dir/c.json");
  EXPECT_EQ(config.stdin_text, "data/feed.txt");
  EXPECT_EQ(config.stdin_path, "dir/data/feed.txt");
  set_data_dir(config, "/data");
  EXPECT_EQ(config.stdin_path, "/data/data/feed.txt");
  EXPECT_NE(bench_keys_error(
                R"({"name": "n", "stdin": "", "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("stdin: must not be empty"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(
                R"({"name": "n", "stdin": 3, "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("stdin: must be a string"),
            std::string::npos);
}

TEST(BenchKeys, AShellNamedByItsCommandLineRunsTheCommand) {
  const Config config = parse_config(R"({"name": "n", "strategies": [
      {"name": "a", "command": "echo $0", "shell": "bash --norc"},
      {"name": "b", "command": "echo $0", "shell": true}]})",
                                     "dir/c.json");
  EXPECT_TRUE(config.strategies[0].shell);
  EXPECT_EQ(config.strategies[0].shell_words, (std::vector<std::string>{"bash", "--norc"}));
  EXPECT_EQ(config.strategies[1].shell_words, std::vector<std::string>{"sh"});
  PlanOptions options;
  options.worker_path = "iobench-worker";
  const Plan plan = build_plan(config, options);
  EXPECT_EQ(plan.tests[0].argv, (std::vector<std::string>{"bash", "--norc", "-c", "echo $0"}));
  EXPECT_EQ(plan.tests[1].argv, (std::vector<std::string>{"sh", "-c", "echo $0"}));
  const std::string strategy = R"({"name": "n", "strategies": [{"name": "a", "command": "x", )";
  EXPECT_NE(bench_keys_error(strategy + R"("shell": ""}]})")
                .find("strategies[0].shell: must name a shell"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(strategy + R"("shell": 1}]})")
                .find("strategies[0].shell: must be true, false or a shell's command line"),
            std::string::npos);
}

TEST(BenchKeys, HooksAndIgnoreFailureAreAStrategysOwn) {
  const Config config = parse_config(R"({"name": "n", "params": {"n": [1, 2]}, "strategies": [
      {"name": "make {n}", "command": "make -j{n}", "shell": true, "setup": "./configure",
       "prepare": "make clean", "cleanup": "rm -f out-{n}", "ignore_failure": true},
      {"name": "plain", "command": ["true"]},
      {"name": "codes", "command": ["true"], "ignore_failure": [3, 1, 3]}]})",
                                     "dir/c.json");
  EXPECT_EQ(config.strategies[0].setup, "./configure");
  EXPECT_EQ(config.strategies[0].prepare, "make clean");
  EXPECT_EQ(config.strategies[0].cleanup, "rm -f out-{n}");
  EXPECT_TRUE(config.strategies[0].ignore_failure.all);
  EXPECT_TRUE(config.strategies[1].setup.empty());
  EXPECT_FALSE(config.strategies[1].ignore_failure.any());
  EXPECT_EQ(config.strategies[2].ignore_failure.codes, (std::vector<int>{1, 3}));
  EXPECT_TRUE(config.strategies[2].ignore_failure.covers(3));
  EXPECT_FALSE(config.strategies[2].ignore_failure.covers(2));
  const std::string head = R"({"name": "n", "params": {"n": [1]}, "strategies": [)";
  EXPECT_NE(bench_keys_error(head + R"({"name": "s", "command": ["x"], "prepare": "rm {n}"}]})")
                .find("strategies[0].prepare: {n} is not a param of the strategy's name"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(R"({"name": "n", "inputs": ["in"], "strategies": [{"name": "s {input}",
                        "command": ["x"], "setup": "cat {input}"}]})")
                .find("strategies[0].setup: {input} is not a param"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(head + R"({"name": "s", "command": ["x"], "cleanup": ""}]})")
                .find("strategies[0].cleanup: must not be empty"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(head + R"({"name": "s", "command": ["x"], "ignore_failure": 1}]})")
                .find("strategies[0].ignore_failure: must be true, false or a list of exit codes"),
            std::string::npos);
  EXPECT_NE(bench_keys_error(head + R"({"name": "s", "command": ["x"], "ignore_failure": [0]}]})")
                .find("strategies[0].ignore_failure[0]: must be from 1 to 255"),
            std::string::npos);
}

TEST(BenchKeys, InheritIsASinkBesideTheOthers) {
  const Config config = parse_config(R"({"name": "n", "sinks": ["inherit", "null"],
      "strategies": [{"name": "s", "command": ["true"]}]})",
                                     "dir/c.json");
  EXPECT_EQ(config.sinks, (std::vector<SinkKind>{SinkKind::kInherit, SinkKind::kNull}));
  EXPECT_EQ(to_string(SinkKind::kInherit), "inherit");
  EXPECT_NE(bench_keys_error(R"({"name": "n", "sinks": ["tty"], "strategies": [{"name": "s",
      "command": ["true"]}]})")
                .find("'tty' is not one of: null, pipe, file, inherit"),
            std::string::npos);
}

}  // namespace
}  // namespace iobench::config
