// bench's --decide and --decide-margin become the config keys decide and decide_margin_pct
// (docs/bench.md, docs/formats.md); a bad value is one line naming the option, exit 2.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/bench/request.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {

using config::Config;

namespace {

class BenchDecide : public test::BenchRequestTest {
 protected:
  void SetUp() override {
    BenchRequestTest::SetUp();
    request_ = two_commands();
  }
  BenchRequest request_;
};

TEST_F(BenchDecide, OnByDefaultAndLeavesTheCommandLineAlone) {
  const Config config = build_bench_config(request_);
  EXPECT_TRUE(config.decide);
  EXPECT_EQ(config.decide_margin_pct, 1);
  EXPECT_EQ(bench_command_line(request_).find("--decide"), std::string::npos);
}

// -r, -m and -M give hyperfine's counts: the rule stops a comparison only when asked for then.
TEST_F(BenchDecide, OffByDefaultWithARunCountAndOnWhenAsked) {
  request_.runs = 10;
  EXPECT_FALSE(build_bench_config(request_).decide);
  request_.runs.reset();
  request_.min_runs = 5;
  request_.max_runs = 20;
  EXPECT_FALSE(build_bench_config(request_).decide);
  request_.decide = "on";
  EXPECT_TRUE(build_bench_config(request_).decide);
  EXPECT_NE(bench_command_line(request_).find("--decide on"), std::string::npos);
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
}  // namespace iobench::bench
