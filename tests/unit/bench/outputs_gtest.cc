// bench's line when its commands wrote different bytes (driver/bench/outputs.hpp,
// docs/bench.md "Verification"): from the text a real run file writer wrote, one line per input
// that differs, each command's bytes and hash with the reference first; nothing when all agree or
// nothing was hashed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/bench/outputs.hpp"
#include "driver/runfile/writer.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::bench {
namespace {

runfile::RunRow row_of(const std::string& test, const std::string& input, std::uint64_t bytes,
                       const std::string& hash) {
  runfile::RunRow row;
  row.test = test;
  row.input = input;
  row.sink = "pipe";
  row.repeat = 1;
  row.bytes_out = bytes;
  row.output_hash = hash;
  return row;
}

class BenchOutputs : public ::testing::Test {
 protected:
  runfile::WrittenRun write(const std::vector<runfile::RunRow>& rows) {
    std::filesystem::path path = dir_.path() / "runs.tsv";
    std::filesystem::remove(path);
    runfile::RunTsvWriter writer(path);
    for (const runfile::RunRow& row : rows) writer.append(row);
    return {path, writer.take_text(), std::nullopt, {}};
  }
  const iobench::test::TempDir dir_{"bench-outputs"};
};

TEST_F(BenchOutputs, OneLinePerInputThatDiffersTheReferenceFirst) {
  const auto runs = write({row_of("b", "/d/x.txt", 3, "bbbb"), row_of("a", "/d/x.txt", 2, "aaaa"),
                           row_of("b", "/d/x.txt", 3, "bbbb"), row_of("a", "/d/y.txt", 2, "aaaa"),
                           row_of("b", "/d/y.txt", 2, "aaaa")});
  const std::vector<std::string> lines = outputs_differ_lines(runs, "a");
  ASSERT_EQ(lines.size(), 1U) << "y.txt: both wrote the same bytes";
  EXPECT_EQ(lines[0],
            "outputs differ on x.txt (all timed; --verify on fails a command that differs from "
            "the reference): 'a' 2 bytes (hash aaaa), 'b' 3 bytes (hash bbbb)");
}

TEST_F(BenchOutputs, NothingWhenAllAgreeOrNothingWasHashed) {
  EXPECT_TRUE(
      outputs_differ_lines(write({row_of("a", "", 2, "aaaa"), row_of("b", "", 2, "aaaa")}), "a")
          .empty());
  runfile::RunRow null_sink = row_of("b", "", 0, "");
  null_sink.sink = "null";
  null_sink.bytes_out.reset();
  EXPECT_TRUE(outputs_differ_lines(write({row_of("a", "", 2, "aaaa"), null_sink}), "a").empty());
}

}  // namespace
}  // namespace iobench::bench
