// The driver's own reference outputs (docs/driver.md, "Verification"): `count` and `field:N` are
// checked against the input, not only against the first test of their class.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "common/hash.hpp"
#include "driver/run/reference_output.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

std::string hash_of(const std::string& text) {
  StreamHash hash;
  hash.update(text.data(), text.size());
  return hash.hex();
}

class ReferenceOutputTest : public ::testing::Test {
 protected:
  fs::path input(const std::string& text) {
    fs::path path = dir_ / "in";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
  }
  const iobench::test::TempDir dir_{"reference"};
};

TEST_F(ReferenceOutputTest, CountCountsALastLineWithoutNewline) {
  EXPECT_EQ(reference_output("worker --op count", input("a\nb\nc"))->hash, hash_of("3\n"));
  EXPECT_EQ(reference_output("worker --op count", input("a\nb\n"))->hash, hash_of("2\n"));
  EXPECT_EQ(reference_output("worker --op count", input(""))->hash, hash_of("0\n"));
  EXPECT_EQ(reference_output("worker --op count", input("\n\n"))->hash, hash_of("2\n"));
}

TEST_F(ReferenceOutputTest, FieldCutsTheNthTabFieldEmptyWhenMissing) {
  const fs::path path = input("a\tb\tc\nd\te\nf\ng\th\r\ni\tj");
  EXPECT_EQ(reference_output("worker --op field:2", path)->hash, hash_of("b\ne\n\nh\r\nj\n"));
  EXPECT_EQ(reference_output("worker --op field:1", path)->hash, hash_of("a\nd\nf\ng\ni\n"));
  EXPECT_EQ(reference_output("worker --op field:3", path)->hash, hash_of("c\n\n\n\n\n"));
  EXPECT_EQ(reference_output("worker --op field:2", input(""))->hash, hash_of(""));
}

TEST_F(ReferenceOutputTest, CopyIsTheInputAndOtherClassesHaveNone) {
  const fs::path path = input("x\ny");
  EXPECT_EQ(reference_output("copy", path)->hash, hash_of("x\ny"));
  EXPECT_EQ(reference_output("copy", path)->bytes, 3U);
  EXPECT_FALSE(reference_output("worker --op split --outputs 2", path).has_value());
  EXPECT_FALSE(reference_output("output of grep", path).has_value());
}

TEST_F(ReferenceOutputTest, AnUnreadableInputIsAnError) {
  EXPECT_THROW(reference_output("worker --op count", dir_ / "missing"), Error);
}

}  // namespace
}  // namespace iobench::run
