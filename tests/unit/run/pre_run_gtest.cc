// Settings the machine cannot honour are config errors (exit 2) found before anything runs
// (docs/driver.md, "What `ok` guarantees"): an offline CPU, a pipe size above pipe-max-size, the
// mmap reader on a pipe.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "common/signal_guard.hpp"
#include "driver/run/pre_run.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& fields, const fs::path& dir) {
  const config::Config config =
      config::parse_config(R"({"name": "n", "inputs": ["in"], )" + fields + "}", dir / "n.json");
  config::PlanOptions options;
  options.worker_path = "iobench-worker";
  const config::Plan plan = config::build_plan(config, options);
  try {
    check_machine_settings(config, plan);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "(no error)";
}

class PreRunTest : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_ / "in") << "x\n"; }
  const iobench::test::TempDir dir_{"prerun"};
};

constexpr const char* kReadWorker =
    R"("strategies": [{"name": "a", "worker": ["--read", "read", "--write", "raw"]}])";

TEST_F(PreRunTest, ACpuThatIsNotOnlineIsAConfigError) {
  EXPECT_EQ(error_of(std::string(kReadWorker) + R"(, "cpus": [0])", dir_.path()), "(no error)");
  const std::string error = error_of(std::string(kReadWorker) + R"(, "cpus": [1023])", dir_.path());
  EXPECT_NE(error.find("cpus[0]: CPU 1023 is not online"), std::string::npos) << error;
}

TEST_F(PreRunTest, APipeSizeAboveTheKernelsMaximumIsAConfigError) {
  std::ifstream in("/proc/sys/fs/pipe-max-size");
  std::uint64_t max_bytes = 0;
  ASSERT_TRUE(in >> max_bytes);
  EXPECT_EQ(error_of(std::string(kReadWorker) + R"(, "pipe_size": 4096)", dir_.path()),
            "(no error)");
  const std::string error = error_of(
      std::string(kReadWorker) + R"(, "pipe_size": )" + std::to_string(max_bytes + 1), dir_.path());
  EXPECT_NE(error.find("pipe_size: " + std::to_string(max_bytes + 1) +
                       " bytes is above /proc/sys/fs/pipe-max-size"),
            std::string::npos)
      << error;
}

TEST_F(PreRunTest, TheMmapReaderOnAPipeInputIsAConfigError) {
  fs::remove(dir_ / "in");
  ASSERT_EQ(::mkfifo((dir_ / "in").c_str(), 0600), 0);
  EXPECT_EQ(error_of(kReadWorker, dir_.path()), "(no error)");
  const std::string error = error_of(
      R"("strategies": [{"name": "m", "worker": ["--read=mmap", "--write", "raw"]}])", dir_.path());
  EXPECT_NE(error.find("test 'm' reads with mmap, but inputs[0]"), std::string::npos) << error;
}

// Ctrl-C while run generated an input left its hidden lock file (`.big.tsv.lock`) beside it, as
// gen once left its temporary file: an interrupted generation leaves the folder as it found it.
TEST_F(PreRunTest, AnInterruptedGenerationLeavesNothingBehind) {
  const config::Config config = config::parse_config(
      R"({"name": "n", "strategies": [{"name": "a", "command": ["cat"]}], "inputs": [)"
      R"({"path": "data/big.txt", "generate": {"kind": "lines", "size": "4MiB"}}]})",
      dir_ / "n.json");
  const SignalGuard outer(/*restart=*/true);  // run's, around the generation
  std::raise(SIGINT);
  try {
    prepare_inputs(config, /*quiet=*/true);
    ADD_FAILURE() << "no interrupt";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitInterrupted) << e.what();
  }
  ASSERT_TRUE(fs::is_directory(dir_ / "data"));
  EXPECT_TRUE(fs::is_empty(dir_ / "data"));
}

}  // namespace
}  // namespace iobench::run
