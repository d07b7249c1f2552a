// The config's decide keys (docs/formats.md, "Config"): on by default only with a precision
// target, the margin read, and a bad value is one line naming the key, exit 2.
#include <gtest/gtest.h>

#include <string>

#include "driver/config/config.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

TEST(DecideKeys, OnOnlyWithAPrecisionTarget) {
  const Config plain = parse_config(testing::with_keys(R"(, "repeats": 10)"), "configs/x.json");
  EXPECT_FALSE(plain.decide);
  EXPECT_EQ(plain.decide_margin_pct, 1);
  const Config target = parse_config(
      testing::with_keys(R"(, "repeats": {"min": 5, "max": 20, "ci_pct": 2})"), "configs/x.json");
  EXPECT_TRUE(target.decide);
}

TEST(DecideKeys, TheKeysOverrideTheDefault) {
  EXPECT_TRUE(parse_config(testing::with_keys(R"(, "decide": true)"), "configs/x.json").decide);
  EXPECT_FALSE(
      parse_config(
          testing::with_keys(R"(, "repeats": {"min": 5, "max": 20, "ci_pct": 2}, "decide": false)"),
          "configs/x.json")
          .decide);
  EXPECT_EQ(parse_config(testing::with_keys(R"(, "decide_margin_pct": 2.5)"), "configs/x.json")
                .decide_margin_pct,
            2.5);
}

TEST(DecideKeys, BadValuesAreOneLineNamingTheKey) {
  EXPECT_EQ(testing::config_error_of(testing::with_keys(R"(, "decide": "yes")")),
            "configs/x.json: decide: must be true or false, not string");
  for (const char* bad : {"0", "-1", "\"1\"", "100"}) {
    EXPECT_EQ(testing::config_error_of(
                  testing::with_keys(std::string(R"(, "decide_margin_pct": )") + bad)),
              "configs/x.json: decide_margin_pct: must be a percentage above 0 and below 100")
        << bad;
  }
}

}  // namespace
}  // namespace iobench::config
