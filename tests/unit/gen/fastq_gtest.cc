// `iobench gen fastq`: well-formed records, exact size, determinism, gzip output.
#include <gtest/gtest.h>

#include <cstdio>

#include "common/error.hpp"
#include "tests/unit/gen/test_util.hpp"

namespace iobench::gen {
namespace {

using iobench::test::TempDir;
using testing::lines_of;
using testing::request;

// Checks every record; returns the number of records.
std::size_t check_fastq(std::string_view data, std::size_t max_read_length) {
  const auto lines = lines_of(data);
  EXPECT_EQ(lines.size() % 4, 0U);
  EXPECT_TRUE(data.empty() || data.back() == '\n');
  for (std::size_t i = 0; i + 3 < lines.size(); i += 4) {
    const auto header = lines[i];
    const auto bases = lines[i + 1];
    const auto qualities = lines[i + 3];
    EXPECT_TRUE(header.starts_with("@IOBENCH:1:FC00001:")) << header;
    EXPECT_EQ(lines[i + 2], "+");
    EXPECT_FALSE(bases.empty());
    EXPECT_LE(bases.size(), max_read_length);
    EXPECT_EQ(bases.size(), qualities.size()) << "record " << i / 4;
    EXPECT_EQ(bases.find_first_not_of("ACGTN"), std::string_view::npos) << bases;
    for (std::size_t j = 0; j < qualities.size(); ++j) {
      EXPECT_GE(qualities[j], '!');
      EXPECT_LE(qualities[j], 'J');
      if (bases[j] == 'N') {
        EXPECT_EQ(qualities[j], '#');
      }
    }
    if (::testing::Test::HasFailure()) return i / 4;
  }
  return lines.size() / 4;
}

TEST(GenFastq, RecordsAreWellFormed) {
  TempDir dir("fastq-format");
  const auto data = testing::generate_to_string(request("fastq", 2 << 20, 3), dir);
  ASSERT_EQ(data.size(), 2U << 20);
  EXPECT_GT(check_fastq(data, 150), 5000U);  // about 361 bytes a record
  EXPECT_NE(data.find('N'), std::string::npos);
}

TEST(GenFastq, ReadLengthOption) {
  TempDir dir("fastq-readlength");
  const auto data =
      testing::generate_to_string(request("fastq", 1 << 20, 1, {{"read_length", 10000}}), dir);
  ASSERT_EQ(data.size(), 1U << 20);
  check_fastq(data, 10000);
  EXPECT_EQ(lines_of(data)[1].size(), 10000U);
  EXPECT_THROW(validate(request("fastq", 100, 1, {{"read_length", 0}})), Error);
  EXPECT_THROW(validate(request("fastq", 100, 1, {{"read_length", "abc"}})), Error);
  EXPECT_THROW(validate(request("fastq", 100, 1, {{"read_length", -5}})), Error);
  EXPECT_NO_THROW(validate(request("fastq", 100, 1, {{"read_length", "75"}})));
}

TEST(GenFastq, SizeIsExactFromOneShortRecordOn) {
  TempDir dir("fastq-size");
  constexpr std::uint64_t kSmallest = 52 + 7;  // header, one base, "+", one quality, four LFs
  for (std::uint64_t size = 1; size <= 1000; size += (size < 700 ? 1 : 7)) {
    const auto data = testing::generate_to_string(request("fastq", size, size), dir);
    if (size < kSmallest) {
      EXPECT_TRUE(data.empty()) << size;
      continue;
    }
    ASSERT_EQ(data.size(), size);
    check_fastq(data, 150);
    if (::testing::Test::HasFailure()) FAIL() << "size " << size;
  }
}

TEST(GenFastq, SameSeedSameBytesOtherSeedOtherBytes) {
  TempDir dir("fastq-det");
  const auto a = testing::generate_to_string(request("fastq", 1 << 20, 4), dir, "a");
  const auto b = testing::generate_to_string(request("fastq", 1 << 20, 4), dir, "b");
  const auto c = testing::generate_to_string(request("fastq", 1 << 20, 5), dir, "c");
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == c);
}

TEST(GenFastq, GzipCompressesTheSameBytesDeterministically) {
  TempDir dir("fastq-gzip");
  const nlohmann::json gzip = {{"compress", "gzip"}};
  const auto plain = testing::generate_to_string(request("fastq", 1 << 20, 9), dir, "plain");
  const auto packed = testing::generate_to_string(request("fastq", 1 << 20, 9, gzip), dir, "a.gz");
  const auto again = testing::generate_to_string(request("fastq", 1 << 20, 9, gzip), dir, "b.gz");
  ASSERT_GE(packed.size(), 2U);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1fU);
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8bU);
  EXPECT_LT(packed.size(), plain.size() / 2);
  EXPECT_TRUE(packed == again);
  const auto unpacked_path = dir / "unpacked";
  const std::string command =
      "gzip -dc '" + (dir / "a.gz").string() + "' > '" + unpacked_path.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_TRUE(testing::read_file(unpacked_path) == plain);
  EXPECT_THROW(validate(request("fastq", 100, 1, {{"compress", "xz"}})), Error);
}

}  // namespace
}  // namespace iobench::gen
