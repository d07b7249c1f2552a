// Which non-zero exits are no failure (driver/config/ignored_failures.hpp): the flag alone every
// one, --ignore-failure=CODES those codes, sorted and once each; anything else one line, exit 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/config/ignored_failures.hpp"

namespace iobench::config {
namespace {

std::string ignored_failures_error(const std::string& text) {
  try {
    parse_ignored_failures(text, "--ignore-failure");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(IgnoredFailures, TheFlagAloneIsEveryCodeAndCodesAreThoseOnly) {
  const IgnoredFailures all = parse_ignored_failures("true", "--ignore-failure");
  EXPECT_TRUE(all.all);
  EXPECT_TRUE(all.covers(255));
  const IgnoredFailures some = parse_ignored_failures("4,1,4", "--ignore-failure");
  EXPECT_FALSE(some.all);
  EXPECT_EQ(some.codes, (std::vector<int>{1, 4}));
  EXPECT_EQ(codes_text(some), "1,4");
  EXPECT_TRUE(some.covers(0));
  EXPECT_TRUE(some.covers(4));
  EXPECT_FALSE(some.covers(2));
  EXPECT_FALSE(IgnoredFailures{}.any());
  EXPECT_FALSE(IgnoredFailures{}.covers(1));
}

TEST(IgnoredFailures, AnythingButCodesFrom1To255IsAUsageError) {
  for (const char* bad : {"", "0", "256", "1,", ",1", "x", "1;2", "-1", "3.5"}) {
    EXPECT_EQ(ignored_failures_error(bad), std::string("--ignore-failure=") + bad +
                                               ": give exit codes 1 to 255, separated by commas "
                                               "(--ignore-failure=1,2), or none for every one")
        << bad;
  }
}

}  // namespace
}  // namespace iobench::config
