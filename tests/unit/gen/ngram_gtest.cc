// `iobench gen ngram`: determinism, format, size, and the shape of the data.
#include <gtest/gtest.h>

#include <charconv>
#include <map>
#include <set>

#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::lines_of;
using testing::request;
using testing::split;

std::uint64_t number(std::string_view text) {
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  EXPECT_EQ(ec, std::errc()) << "not a number: '" << text << "'";
  EXPECT_EQ(ptr, text.data() + text.size()) << "not a number: '" << text << "'";
  EXPECT_FALSE(text.size() > 1 && text[0] == '0') << "leading zero: '" << text << "'";
  return value;
}

TEST(GenNgram, SameSeedSameBytesOtherSeedOtherBytes) {
  TempDir dir("ngram-det");
  const auto a = testing::generate_to_string(request("ngram", 3 << 20, 7), dir, "a");
  const auto b = testing::generate_to_string(request("ngram", 3 << 20, 7), dir, "b");
  const auto c = testing::generate_to_string(request("ngram", 3 << 20, 8), dir, "c");
  EXPECT_EQ(a.size(), 3U << 20);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == c);
  // A smaller request with the same seed is a prefix up to its shaped tail.
  const auto small = testing::generate_to_string(request("ngram", 1 << 20, 7), dir, "d");
  EXPECT_EQ(a.compare(0, (1 << 20) - 256, small, 0, (1 << 20) - 256), 0);
}

TEST(GenNgram, EveryLineIsWellFormed) {
  TempDir dir("ngram-format");
  const auto data = testing::generate_to_string(request("ngram", 4 << 20, 3), dir);
  ASSERT_EQ(data.size(), 4U << 20);
  ASSERT_EQ(data.back(), '\n');
  const auto lines = lines_of(data);
  ASSERT_GT(lines.size(), 100000U);
  std::set<std::string_view> words;
  std::size_t tagged = 0;
  std::size_t word_bytes = 0;
  std::size_t run_breaks = 0;
  std::string_view previous_word;
  std::uint64_t previous_year = 0;
  std::uint64_t max_match = 0;
  for (const auto line : lines) {
    const auto fields = split(line, '\t');
    ASSERT_EQ(fields.size(), 4U) << "line: '" << line << "'";
    ASSERT_FALSE(fields[0].empty());
    const auto year = number(fields[1]);
    const auto match = number(fields[2]);
    const auto volume = number(fields[3]);
    ASSERT_GE(year, 1500U);
    ASSERT_LE(year, 2019U);
    ASSERT_GE(match, 1U);
    ASSERT_GE(volume, 1U);
    ASSERT_LE(volume, match) << "line: '" << line << "'";
    max_match = std::max(max_match, match);
    if (fields[0] == previous_word) {
      // Runs of consecutive years per word (a new run of the same word may start anew).
      if (year != previous_year + 1) ++run_breaks;
    } else if (words.insert(fields[0]).second) {
      word_bytes += fields[0].size();
      if (fields[0].find('_') != std::string_view::npos && fields[0].size() > 2) ++tagged;
    }
    previous_word = fields[0];
    previous_year = year;
  }
  EXPECT_LT(run_breaks, 10U);
  // Several lines per word, realistic lengths, about a fifth tagged, a wide range of counts.
  EXPECT_GT(lines.size(), 5 * words.size());
  const double mean_length = static_cast<double>(word_bytes) / static_cast<double>(words.size());
  EXPECT_GT(mean_length, 5.0);
  EXPECT_LT(mean_length, 14.0);
  const double tagged_share = static_cast<double>(tagged) / static_cast<double>(words.size());
  EXPECT_GT(tagged_share, 0.12);
  EXPECT_LT(tagged_share, 0.28);
  EXPECT_GT(max_match, 100000U);
}

TEST(GenNgram, SizeIsExact) {
  TempDir dir("ngram-size");
  for (std::uint64_t size = 1; size <= 400; ++size) {
    const auto data = testing::generate_to_string(request("ngram", size, size), dir);
    if (size < 11) {
      EXPECT_TRUE(data.empty()) << "size " << size;  // shorter than the shortest line
      continue;
    }
    ASSERT_EQ(data.size(), size);
    for (const auto line : lines_of(data)) {
      const auto fields = split(line, '\t');
      ASSERT_EQ(fields.size(), 4U) << "size " << size << " line '" << line << "'";
      ASSERT_LE(number(fields[3]), number(fields[2]));
    }
  }
  for (const std::uint64_t size : {65535ULL, 1ULL << 20, (1ULL << 20) + 1, 2999999ULL}) {
    EXPECT_EQ(testing::generate_to_string(request("ngram", size), dir).size(), size);
  }
}

TEST(GenNgram, RejectsOptionsItDoesNotHave) {
  EXPECT_THROW(validate(request("ngram", 100, 1, {{"line_length", "fixed:8"}})), std::exception);
  EXPECT_THROW(validate(request("ngram", 0)), std::exception);
  EXPECT_NO_THROW(validate(request("ngram", 100, 1, {{"compress", "gzip"}})));
  // The request's own fields may ride along in options (a config's whole "generate" object).
  EXPECT_NO_THROW(validate(request("ngram", 100, 1, {{"kind", "ngram"}, {"seed", 3}})));
}

}  // namespace
}  // namespace iobench::gen
