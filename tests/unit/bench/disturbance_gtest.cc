// bench's --disturbance and --disturbance-threshold become the config keys of the same meaning
// (docs/formats.md, "Config"); a bad value is one line naming the option, exit 2.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/bench/request.hpp"
#include "tests/unit/bench/request_test.hpp"

namespace iobench::bench {

using config::Config;
using config::DisturbanceMode;
using config::kDefaultDisturbanceThresholdCpus;

namespace {

class BenchDisturbance : public test::BenchRequestTest {
 protected:
  void SetUp() override {
    BenchRequestTest::SetUp();
    request_ = two_commands();
  }
  BenchRequest request_;
};

TEST_F(BenchDisturbance, DefaultsToRerunAndLeavesTheCommandLineAlone) {
  const Config config = build_bench_config(request_);
  EXPECT_EQ(config.disturbance, DisturbanceMode::kRerun);
  EXPECT_EQ(config.disturbance_threshold_cpus, kDefaultDisturbanceThresholdCpus);
  EXPECT_EQ(bench_command_line(request_).find("--disturbance"), std::string::npos);
}

TEST_F(BenchDisturbance, TheOptionsBecomeTheConfigKeysAndAreInTheCommandLine) {
  request_.disturbance = "flag";
  request_.disturbance_threshold_cpus = 1.5;
  const Config config = build_bench_config(request_);
  EXPECT_EQ(config.disturbance, DisturbanceMode::kFlag);
  EXPECT_EQ(config.disturbance_threshold_cpus, 1.5);
  const std::string line = bench_command_line(request_);
  EXPECT_NE(line.find("--disturbance flag"), std::string::npos) << line;
  EXPECT_NE(line.find("--disturbance-threshold 1.5"), std::string::npos) << line;
}

TEST_F(BenchDisturbance, ABadModeIsOneLineNamingTheOption) {
  request_.disturbance = "always";
  try {
    build_bench_config(request_);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find("--disturbance always: not one of off, flag, rerun"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace iobench::bench
