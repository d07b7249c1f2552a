// The config's disturbance keys (docs/formats.md, "Config"): their defaults, and a bad value is
// one line naming the key, exit 2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/disturbance_keys.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

// Sets IOBENCH_DISTURBANCE (or unsets it, given nullptr) for one test, and restores it.
class DisturbanceEnv {
 public:
  explicit DisturbanceEnv(const char* value) {
    if (const char* old = std::getenv(kDisturbanceEnv)) saved_ = old;
    if (value) {
      ::setenv(kDisturbanceEnv, value, 1);
    } else {
      ::unsetenv(kDisturbanceEnv);
    }
  }
  ~DisturbanceEnv() {
    if (saved_) {
      ::setenv(kDisturbanceEnv, saved_->c_str(), 1);
    } else {
      ::unsetenv(kDisturbanceEnv);
    }
  }
  DisturbanceEnv(const DisturbanceEnv&) = delete;
  DisturbanceEnv& operator=(const DisturbanceEnv&) = delete;

 private:
  std::optional<std::string> saved_;
};

TEST(DisturbanceKeys, DefaultToRerunAboveATenthOfACpu) {
  const DisturbanceEnv unset(nullptr);
  const Config config = parse_config(testing::with_keys(""), "configs/x.json");
  EXPECT_EQ(config.disturbance, DisturbanceMode::kRerun);
  EXPECT_EQ(config.disturbance_threshold_cpus, 0.1);
}

TEST(DisturbanceKeys, TheEnvironmentSetsTheDefaultAndTheKeyStillWins) {
  const DisturbanceEnv off("off");
  EXPECT_EQ(parse_config(testing::with_keys(""), "configs/x.json").disturbance,
            DisturbanceMode::kOff);
  EXPECT_EQ(
      parse_config(testing::with_keys(R"(, "disturbance": "flag")"), "configs/x.json").disturbance,
      DisturbanceMode::kFlag);
  const DisturbanceEnv empty("");
  EXPECT_EQ(parse_config(testing::with_keys(""), "configs/x.json").disturbance,
            DisturbanceMode::kRerun);
  const DisturbanceEnv bad("sometimes");
  EXPECT_EQ(testing::config_error_of(testing::with_keys("")),
            "IOBENCH_DISTURBANCE: 'sometimes' is not one of: off, flag, rerun");
}

// bench's --disturbance default reads the variable through the same function.
TEST(DisturbanceKeys, TheEnvironmentsModeIsReadOnceForRunAndBench) {
  {
    const DisturbanceEnv unset(nullptr);
    EXPECT_FALSE(disturbance_mode_from_env().has_value());
  }
  {
    const DisturbanceEnv flag("flag");
    EXPECT_EQ(disturbance_mode_from_env().value_or(DisturbanceMode::kOff), DisturbanceMode::kFlag);
  }
  const DisturbanceEnv bad("Off");  // the names are lower case, as the config's
  try {
    (void)disturbance_mode_from_env();
    ADD_FAILURE() << "no error for Off";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_STREQ(e.what(), "IOBENCH_DISTURBANCE: 'Off' is not one of: off, flag, rerun");
  }
}

TEST(DisturbanceKeys, EveryModeAndAThresholdAreRead) {
  const DisturbanceEnv unset(nullptr);
  for (const auto mode : {DisturbanceMode::kOff, DisturbanceMode::kFlag, DisturbanceMode::kRerun}) {
    const Config config = parse_config(
        testing::with_keys(R"(, "disturbance": ")" + std::string(to_string(mode)) + R"(")"),
        "configs/x.json");
    EXPECT_EQ(config.disturbance, mode);
  }
  EXPECT_EQ(
      parse_config(testing::with_keys(R"(, "disturbance_threshold_cpus": 1.25)"), "configs/x.json")
          .disturbance_threshold_cpus,
      1.25);
}

TEST(DisturbanceKeys, BadValuesAreOneLineNamingTheKey) {
  EXPECT_EQ(testing::config_error_of(testing::with_keys(R"(, "disturbance": "retry")")),
            "configs/x.json: disturbance: 'retry' is not one of: off, flag, rerun");
  for (const char* bad : {"0", "-1", "\"1\"", "2000"}) {
    const std::string error = testing::config_error_of(
        testing::with_keys(std::string(R"(, "disturbance_threshold_cpus": )") + bad));
    EXPECT_EQ(error,
              "configs/x.json: disturbance_threshold_cpus: must be a number of CPUs above 0 and "
              "at most 1024")
        << bad;
  }
}

}  // namespace
}  // namespace iobench::config
