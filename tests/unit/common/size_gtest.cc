// common/size: what parse_size accepts (docs/formats.md "Driver commands": sizes), that
// format_size reads back exactly, and that overflow and stray text are refused with a message.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "common/size.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t kKi = 1024;

TEST(ParseSize, BinaryAndDecimalSuffixes) {
  EXPECT_EQ(parse_size("4096"), 4096U);
  EXPECT_EQ(parse_size("0"), 0U);
  EXPECT_EQ(parse_size("7B"), 7U);
  EXPECT_EQ(parse_size("64K"), 64 * kKi);
  EXPECT_EQ(parse_size("64k"), 64 * kKi);
  EXPECT_EQ(parse_size("64KiB"), 64 * kKi);
  EXPECT_EQ(parse_size("64KB"), 64000U);
  EXPECT_EQ(parse_size("1M"), kKi * kKi);
  EXPECT_EQ(parse_size("1m"), kKi * kKi);
  EXPECT_EQ(parse_size("1MiB"), kKi * kKi);
  EXPECT_EQ(parse_size("3MB"), 3000000U);
  EXPECT_EQ(parse_size("2G"), 2 * kKi * kKi * kKi);
  EXPECT_EQ(parse_size("2g"), 2 * kKi * kKi * kKi);
  EXPECT_EQ(parse_size("1GiB"), kKi * kKi * kKi);
  EXPECT_EQ(parse_size("1GB"), 1000000000U);
  EXPECT_EQ(parse_size("5T"), 5 * kKi * kKi * kKi * kKi);
  EXPECT_EQ(parse_size("5TiB"), 5 * kKi * kKi * kKi * kKi);
  EXPECT_EQ(parse_size("5TB"), 5000000000000U);
}

TEST(ParseSize, RefusesMalformedTextWithAReason) {
  for (const char* text :
       {"", "K", "-1", " 1K", "1 K", "1.5M", "1KIB", "1kib", "1Q", "0x10", "1KiBB", "1t"}) {
    std::string error;
    EXPECT_FALSE(parse_size(text, &error).has_value()) << text;
    EXPECT_NE(error.find('\'' + std::string(text) + '\''), std::string::npos)
        << "the message names the text: " << error;
  }
}

TEST(ParseSize, OverflowIsAnErrorNotAWrap) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(parse_size(std::to_string(max)), max);
  std::string error;
  EXPECT_FALSE(parse_size("18446744073709551616", &error).has_value());  // max + 1
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(parse_size("99999999999999999999999", &error).has_value());
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  // 16 EiB does not fit, 16 EiB - 1 KiB does: the suffix multiplication is checked too.
  error.clear();
  EXPECT_FALSE(parse_size("16777216T", &error).has_value());
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  EXPECT_EQ(parse_size("16777215T"), 16777215ULL * kKi * kKi * kKi * kKi);
  EXPECT_FALSE(parse_size("18446744073709551615K").has_value());
  EXPECT_EQ(parse_size("0T"), 0U);  // zero times anything is no overflow
}

TEST(ParseSize, ErrorIsOptional) {
  EXPECT_FALSE(parse_size("nope").has_value());
}

TEST(FormatSize, LargestExactBinaryUnit) {
  EXPECT_EQ(format_size(0), "0");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(1024), "1KiB");
  EXPECT_EQ(format_size(1536), "1536");
  EXPECT_EQ(format_size(3 * kKi * kKi), "3MiB");
  EXPECT_EQ(format_size(kKi * kKi * kKi + kKi), "1048577KiB");
  EXPECT_EQ(format_size(2 * kKi * kKi * kKi), "2GiB");
  EXPECT_EQ(format_size(kKi * kKi * kKi * kKi), "1TiB");
}

TEST(FormatSize, RoundTripsThroughParseSize) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t bytes :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{16}, std::uint64_t{1000},
        std::uint64_t{4096}, 65 * kKi, kKi * kKi - 1, 7 * kKi * kKi, 5 * kKi * kKi * kKi,
        kKi * kKi * kKi * kKi * 1024, max, max - 1023, max / kKi * kKi}) {
    EXPECT_EQ(parse_size(format_size(bytes)), bytes) << format_size(bytes);
  }
}

}  // namespace
}  // namespace iobench
