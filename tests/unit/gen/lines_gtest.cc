// `iobench gen lines`: the line-length specs, their distributions, exact size, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "common/error.hpp"
#include "driver/gen/detail.hpp"
#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::lines_of;
using testing::request;

std::vector<std::size_t> lengths(std::string_view data) {
  std::vector<std::size_t> out;
  for (const auto line : lines_of(data)) out.push_back(line.size());
  return out;
}

TEST(GenLines, ParsesTheThreeShapes) {
  using Shape = detail::LineLength::Shape;
  auto fixed = detail::parse_line_length("fixed:80");
  EXPECT_EQ(fixed.shape, Shape::kFixed);
  EXPECT_EQ(fixed.a, 80U);
  EXPECT_EQ(detail::parse_line_length("fixed:64KiB").a, 65536U);
  auto uniform = detail::parse_line_length("uniform:0-200");
  EXPECT_EQ(uniform.shape, Shape::kUniform);
  EXPECT_EQ(uniform.a, 0U);
  EXPECT_EQ(uniform.b, 200U);
  auto lognormal = detail::parse_line_length("lognormal:4,1.5");
  EXPECT_EQ(lognormal.shape, Shape::kLognormal);
  EXPECT_DOUBLE_EQ(lognormal.mu, 4.0);
  EXPECT_DOUBLE_EQ(lognormal.sigma, 1.5);
}

TEST(GenLines, RejectsBadSpecsWithExitCode2) {
  for (const char* spec :
       {"", "fixed", "fixed:", "fixed:abc", "fixed:-1", "fixed:100GiB", "uniform:10-5", "uniform:5",
        "uniform:-", "lognormal:4", "lognormal:x,1", "lognormal:4,-1", "lognormal:40,1",
        "lognormal:4,1,2", "gauss:1,2", "80"}) {
    try {
      detail::parse_line_length(spec);
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
      EXPECT_NE(std::string(e.what()).find("line_length"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(validate(request("lines", 100, 1, {{"line_length", "fixed"}})), Error);
  EXPECT_THROW(validate(request("lines", 100, 1, {{"line_length", 80}})), Error);
}

TEST(GenLines, FixedLengthAndExactSize) {
  TempDir dir("lines-fixed");
  const auto data =
      testing::generate_to_string(request("lines", 1000000, 1, {{"line_length", "fixed:80"}}), dir);
  ASSERT_EQ(data.size(), 1000000U);
  ASSERT_EQ(data.back(), '\n');
  const auto sizes = lengths(data);
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) ASSERT_EQ(sizes[i], 80U);
  EXPECT_EQ(sizes.back(), 1000000 % 81 - 1);      // the last line is cut to fit
  EXPECT_NE(data.find('\t'), std::string::npos);  // fields for field:N
}

TEST(GenLines, UniformIsWithinItsRangeWithTheRightMean) {
  TempDir dir("lines-uniform");
  const auto data = testing::generate_to_string(request("lines", 4 << 20), dir);  // default spec
  ASSERT_EQ(data.size(), 4U << 20);
  auto sizes = lengths(data);
  sizes.pop_back();
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), 200U);
  EXPECT_EQ(*std::min_element(sizes.begin(), sizes.end()), 0U);
  const double mean = static_cast<double>(std::accumulate(sizes.begin(), sizes.end(), 0ULL)) /
                      static_cast<double>(sizes.size());
  EXPECT_NEAR(mean, 100.0, 3.0);
}

TEST(GenLines, LognormalHasItsMedian) {
  TempDir dir("lines-lognormal");
  const auto data = testing::generate_to_string(
      request("lines", 4 << 20, 5, {{"line_length", "lognormal:4,1"}}), dir);
  ASSERT_EQ(data.size(), 4U << 20);
  auto sizes = lengths(data);
  sizes.pop_back();
  std::sort(sizes.begin(), sizes.end());
  const double median = static_cast<double>(sizes[sizes.size() / 2]);
  EXPECT_NEAR(median, 54.6, 3.0);  // e^4
  EXPECT_GT(sizes.back(), 1000U);  // the long right tail
}

TEST(GenLines, LinesLongerThanTheWritersBlock) {
  TempDir dir("lines-long");
  const std::uint64_t size = 5 * (3000000 + 1) + 1234;
  const auto data = testing::generate_to_string(
      request("lines", size, 1, {{"line_length", "fixed:3000000"}}), dir);
  ASSERT_EQ(data.size(), size);
  const auto sizes = lengths(data);
  ASSERT_EQ(sizes.size(), 6U);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(sizes[i], 3000000U);
  EXPECT_EQ(sizes[5], 1233U);
}

TEST(GenLines, SameSeedSameBytesOtherSeedOtherBytes) {
  TempDir dir("lines-det");
  const nlohmann::json options = {{"line_length", "lognormal:3,1"}};
  const auto a = testing::generate_to_string(request("lines", 1 << 20, 1, options), dir, "a");
  const auto b = testing::generate_to_string(request("lines", 1 << 20, 1, options), dir, "b");
  const auto c = testing::generate_to_string(request("lines", 1 << 20, 2, options), dir, "c");
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == c);
}

TEST(GenLines, SizeIsExactForSmallSizes) {
  TempDir dir("lines-small");
  for (std::uint64_t size = 1; size <= 300; size += (size < 40 ? 1 : 13)) {
    const auto data = testing::generate_to_string(request("lines", size, size), dir);
    ASSERT_EQ(data.size(), size);
    ASSERT_EQ(data.back(), '\n');
  }
}

}  // namespace
}  // namespace iobench::gen
