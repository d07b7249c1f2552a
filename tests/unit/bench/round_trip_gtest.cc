// bench's Config, built directly from its options, saved as --save-config writes it
// (config_to_json) and read back by `iobench run`'s parser: the same Config.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/bench/request.hpp"
#include "driver/config/config_json.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {

using config::Config;
using config::config_to_json;
using config::parse_config;

namespace {

namespace fs = std::filesystem;

class BenchRoundTrip : public test::BenchRequestTest {
 protected:
  // The saved text parsed as `iobench run save_path` parses it, `file` aside (it names the source).
  static Config saved_and_parsed(const Config& config, const fs::path& save_path) {
    Config again = parse_config(config_to_save(config, save_path).dump(2), save_path);
    again.file = config.file;
    return again;
  }
  static void expect_round_trip(const BenchRequest& request) {
    const Config config = build_bench_config(request);
    const Config again = saved_and_parsed(config, "bench.json");
    EXPECT_EQ(config_to_json(again).dump(2), config_to_json(config).dump(2));
    EXPECT_TRUE(again == config) << config_to_json(config).dump(2);
  }
};

TEST_F(BenchRoundTrip, ADefaultRequestComesBackEqual) {
  expect_round_trip(two_commands());
  BenchRequest no_input;
  no_input.commands = {"sleep 0", "true"};
  expect_round_trip(no_input);
}

TEST_F(BenchRoundTrip, EveryOptionComesBackEqual) {
  // Every option but those that exclude others (-r, --show-output, --no-shell: below), in
  // BenchRequest's order.
  BenchRequest request{.commands = {"head -n {n} {input} # {d}", "cat {input} # {d}"},
                       .names = {"head-{n}-{d}", "cat-{n}-{d}"},
                       .inputs = {"data/in.txt"},
                       .stdin_file = "data/in.txt",
                       .param_specs = {"n=1,2"},
                       .reference = "true {n} {d}",
                       .reference_name = "ref-{n}-{d}",
                       .verify = "on",
                       .runs = std::nullopt,
                       .min_runs = 3,
                       .max_runs = 9,
                       .ci_pct = 1.5,
                       .parameter_scan = {"d", "0.5", "1"},
                       .parameter_step = "0.25",
                       .shell_name = "bash --norc",
                       .setup = "echo {n}",
                       .prepare = {"sync"},
                       .conclude = {"rm -f out-{n}"},
                       .cleanup = "echo done",
                       .ignore_failure = "1,3",
                       .outputs = {},  // below: it excludes --sink
                       .warmup = 2,
                       .sinks = {"null", "pipe"},
                       .cache = "cold",
                       .order = "shuffle",
                       .timeout_s = 2.5,
                       .counters = {"task-clock", "syscalls"},
                       .disturbance = "flag",
                       .disturbance_threshold_cpus = 0.75,
                       .decide = "on",
                       .decide_margin_pct = 2.5,
                       .fill_s = std::nullopt,
                       .made_by = ""};
  request.made_by = bench_command_line(request);
  expect_round_trip(request);

  request = two_commands();
  request.shell = false;  // words, not a shell's command line
  request.runs = 4;
  request.show_output = true;
  request.decide = "off";
  expect_round_trip(request);

  request = two_commands();
  request.outputs = {"./a.log", "./b.log"};  // --output FILE per command: the file sink's files
  expect_round_trip(request);
}

// A save elsewhere rewrites the relative paths only: parsed from there, the same files.
TEST_F(BenchRoundTrip, SavedInAnotherFolderTheSameFiles) {
  BenchRequest request = two_commands();
  request.stdin_file = "data/in.txt";
  const Config config = build_bench_config(request);
  fs::create_directories("saved");
  Config again = saved_and_parsed(config, "saved/x.json");
  EXPECT_EQ(again.inputs[0].path, config.inputs[0].path);
  EXPECT_EQ(again.stdin_path, config.stdin_path);
  EXPECT_EQ(again.inputs[0].path_text, "../data/in.txt");
  EXPECT_FALSE(again == config) << "a test that cannot fail: the path texts differ";
}

}  // namespace
}  // namespace iobench::bench
