// read_runs maps a regular file whole and reads anything else (a FIFO, an empty file) as a pipe
// (docs/reports.md, "Speed"): each way gives what parsing the same text gives.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <thread>

#include "driver/runfile/reader.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

// No final newline, a CRLF row, a blank line: the end of a mapped file is the end of the text.
const std::string kText =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n"
    "A\t1.5\t1\t0.5\t99%\t100\r\n\nB\t2\t1\t0.5\t50\t200\nA\t2.5\t1\t0.5\t60\t300";

void expect_same(const RunSet& read, const RunSet& parsed) {
  ASSERT_EQ(read.groups.size(), parsed.groups.size());
  EXPECT_EQ(read.rows, parsed.rows);
  for (std::size_t g = 0; g < read.groups.size(); ++g) {
    EXPECT_EQ(read.groups[g].key, parsed.groups[g].key);
    EXPECT_EQ(read.groups[g].samples, parsed.groups[g].samples);
  }
}

TEST(ReaderFiles, AMappedFileReadsAsItsText) {
  const iobench::test::TempDir dir("reader-files");
  const auto path = dir.path() / "runs.tsv";
  std::ofstream(path) << kText;
  const RunSet read = read_runs({path});
  expect_same(read, parse_runs(kText, "text"));
  ASSERT_EQ(read.groups.size(), 2U);
  EXPECT_EQ(read.groups[0].metric(Metric::kMem), (std::vector<double>{100, 300}));
  EXPECT_EQ(read.files, std::vector<std::string>{path.string()});
}

TEST(ReaderFiles, AFifoIsReadAsAPipe) {
  const iobench::test::TempDir dir("reader-files");
  const auto path = dir.path() / "runs.fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(path) << kText; });
  const RunSet read = read_runs({path});
  writer.join();
  expect_same(read, parse_runs(kText, "text"));
}

}  // namespace
}  // namespace iobench::runfile
