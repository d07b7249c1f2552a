// bench's --decide and --decide-margin become the config keys decide and decide_margin_pct
// (docs/bench.md, docs/formats.md); a bad value is one line naming the option, exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "driver/config/bench_config.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

class BenchDecide : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = fs::current_path();
    fs::current_path(folder_.path());
    std::ofstream("in.txt") << "a\n";
    request_.commands = {"cat {input}", "tac {input}"};
    request_.inputs = {"in.txt"};
  }
  void TearDown() override { fs::current_path(previous_); }

  const test::TempDir folder_{"bench-decide"};
  fs::path previous_;
  BenchRequest request_;
};

TEST_F(BenchDecide, OnByDefaultAndLeavesTheCommandLineAlone) {
  const Config config = build_bench_config(request_);
  EXPECT_TRUE(config.decide);
  EXPECT_EQ(config.decide_margin_pct, 1);
  EXPECT_EQ(bench_command_line(request_).find("--decide"), std::string::npos);
}

TEST_F(BenchDecide, OffAndAMarginAreSpelledOut) {
  request_.decide = "off";
  request_.decide_margin_pct = 2.5;
  const Config config = build_bench_config(request_);
  EXPECT_FALSE(config.decide);
  EXPECT_EQ(config.decide_margin_pct, 2.5);
  const std::string line = bench_command_line(request_);
  EXPECT_NE(line.find("--decide off"), std::string::npos) << line;
  EXPECT_NE(line.find("--decide-margin 2.5"), std::string::npos) << line;
}

TEST_F(BenchDecide, ABadValueIsOneLineNamingTheOption) {
  request_.decide = "maybe";
  try {
    build_bench_config(request_);
    FAIL() << "accepted --decide maybe";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--decide maybe: not one of on, off"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.exit_code(), kExitUsage);
  }
  request_.decide = "on";
  request_.decide_margin_pct = 0;
  try {
    build_bench_config(request_);
    FAIL() << "accepted --decide-margin 0";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("decide_margin_pct: must be a percentage above 0 and "
                                         "below 100"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.exit_code(), kExitUsage);
  }
}

}  // namespace
}  // namespace iobench
