// `run` and `bench` write their run file once and never read it, or its meta file, back (issue
// 49): what follows the runs (medians, warnings, blocks, exports, gate) reads the run held in
// memory (runfile::WrittenRun). Every open(2) of a run file, and of a file read whole (the meta
// file), goes through the system-call seam (common/sysio.hpp), so a test counts them. Real runs:
// the commands are started by the spawner.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/sysio.hpp"
#include "driver/bench/bench.hpp"
#include "driver/config/config.hpp"
#include "driver/run/runner.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {
namespace {

namespace fs = std::filesystem;

// Every open through the seam: the absolute path and the access mode.
struct Open {
  fs::path path;
  int access = 0;
};
std::vector<Open> g_opens;

int logged_open(const char* path, int flags, mode_t mode) {
  g_opens.push_back({fs::absolute(path), flags & O_ACCMODE});
  return sys::open_file(path, flags, mode);
}

class WrittenOnce : public test::BenchRequestTest {
 protected:
  void SetUp() override {
    // Started where the tests began: the spawner's folder is its children's, and each test's
    // folder goes with the test (the inputs below are absolute).
    spawn::Spawner::start_global();
    test::BenchRequestTest::SetUp();
    g_opens.clear();
  }
  // The opens of `file` with this access mode.
  static std::size_t opens_of(const fs::path& file, int access) {
    std::size_t n = 0;
    for (const Open& open : g_opens) n += open.path == fs::absolute(file) && open.access == access;
    return n;
  }
  static sys::Ops logging_opens() {
    sys::Ops ops = sys::ops();
    ops.open = &logged_open;
    return ops;
  }
};

TEST_F(WrittenOnce, RunWritesItsRunFileOnceAndReadsNothingBack) {
  std::ofstream("c.json") << R"({"name": "c", "inputs": [")" << fs::absolute("data/in.txt").string()
                          << R"("], "repeats": 3, "warmup": 0,
    "strategies": [{"name": "a", "command": ["cat", "{input}"]},
                   {"name": "b", "command": ["cat", "{input}"]}]})";
  run::RunOptions options;
  options.config_path = "c.json";
  options.output = "runs.tsv";
  options.quiet = true;
  options.print_table = false;
  run::RunResult result;
  {
    const sys::ScopedOps seam(logging_opens());
    result = run::run_experiment(options);
  }
  ASSERT_TRUE(result.written.has_value());
  EXPECT_EQ(result.exit_code, 0) << result.written->text;
  EXPECT_EQ(opens_of("runs.tsv", O_WRONLY), 1U);
  EXPECT_EQ(opens_of("runs.tsv", O_RDONLY), 0U);
  EXPECT_EQ(opens_of("meta/runs.json", O_RDONLY), 0U);
  // What the run holds is what the file says.
  std::ifstream file("runs.tsv", std::ios::binary);
  const std::string on_disk((std::istreambuf_iterator<char>(file)), {});
  EXPECT_EQ(result.written->text, on_disk);
  EXPECT_TRUE(result.written->meta.has_value());
  // The seam saw the opens at all: the config was read through it.
  EXPECT_EQ(opens_of("c.json", O_RDONLY), 1U);
}

TEST_F(WrittenOnce, BenchWritesItsRunFileOnceAndReadsNothingBack) {
  BenchOptions options;
  options.request = two_commands();
  options.request.inputs = {fs::absolute("data/in.txt").string()};
  options.request.runs = 3;
  options.run.output = "runs.tsv";
  options.run.quiet = true;
  options.report.print = false;
  run::RunResult result;
  {
    const sys::ScopedOps seam(logging_opens());
    result = run_bench(options);
  }
  ASSERT_TRUE(result.written.has_value());
  EXPECT_EQ(result.exit_code, 0) << result.written->text;
  EXPECT_EQ(opens_of("runs.tsv", O_WRONLY), 1U);
  EXPECT_EQ(opens_of("runs.tsv", O_RDONLY), 0U);
  EXPECT_EQ(opens_of("meta/runs.json", O_RDONLY), 0U);
  // The shell's start-up is in the record from its first writing, not added by a rewrite.
  ASSERT_TRUE(result.written->meta.has_value());
  EXPECT_TRUE(result.written->meta->shell_startup.has_value());
}

}  // namespace
}  // namespace iobench::bench
