// The one set of formatting rules: exact strings at every threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "driver/util/format.hpp"

namespace iobench::util {
namespace {

TEST(Format, DurationIsAClock) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(64.6), "1:05");
  EXPECT_EQ(format_duration(3599.4), "59:59");
  EXPECT_EQ(format_duration(43389), "12:03:09");
}

TEST(Format, SecondsKeepThreeOrFourDigitsAcrossUnits) {
  EXPECT_EQ(format_seconds(123.44), "123.4 s");
  EXPECT_EQ(format_seconds(100), "100.0 s");
  EXPECT_EQ(format_seconds(99.9994), "99.999 s");
  EXPECT_EQ(format_seconds(1.2344), "1.234 s");
  EXPECT_EQ(format_seconds(1), "1.000 s");
  EXPECT_EQ(format_seconds(0.0123456), "12.35 ms");
  EXPECT_EQ(format_seconds(0.001), "1.00 ms");
  EXPECT_EQ(format_seconds(0.000999), "999 µs");
  EXPECT_EQ(format_seconds(0.0000004), "0 µs");
  EXPECT_EQ(format_seconds(std::nan("")), "-");
}

TEST(Format, KibAsMib) {
  EXPECT_EQ(format_kib(1810), "1.8 MiB");
  EXPECT_EQ(format_kib(1024 * 300), "300.0 MiB");
  EXPECT_EQ(format_kib(std::nan("")), "-");
}

TEST(Format, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("µs"), 2u);
  EXPECT_EQ(display_width("133× faster"), 11u);
  EXPECT_EQ(display_width("─"), 1u);
  EXPECT_EQ(display_width(""), 0u);
}

TEST(Format, RelativeAsPeopleSayIt) {
  EXPECT_EQ(format_relative(1.0 / 133), "133× faster");
  EXPECT_EQ(format_relative(0.008), "125× faster");
  EXPECT_EQ(format_relative(1.36), "1.36× slower");
  EXPECT_EQ(format_relative(13.62), "13.6× slower");
  EXPECT_EQ(format_relative(0.5), "2.00× faster");
  EXPECT_EQ(format_relative(1), "1.00×");
  EXPECT_EQ(format_relative(1.004), "1.00×");  // shows as the same time
  EXPECT_EQ(format_relative(0.9999), "1.00×");
  EXPECT_EQ(format_relative(1.006), "1.01× slower");
  EXPECT_EQ(format_relative(9.996), "10.0× slower");  // rounds up across the threshold
  EXPECT_EQ(format_relative(99.96), "100× slower");
  EXPECT_EQ(format_relative(0), "");
  EXPECT_EQ(format_relative(std::nan("")), "");
}

TEST(Format, GroupLabel) {
  const std::vector<std::string> key{"getline", "in.txt", "", "h1"};
  EXPECT_EQ(format_group_label(key, "test"), "getline (in.txt, h1)");
  const std::vector<std::string> bare{"", "pipe"};
  EXPECT_EQ(format_group_label(bare, "test"), "(no test) (pipe)");
  EXPECT_EQ(format_group_label({}, "test"), "all runs");
}

}  // namespace
}  // namespace iobench::util
