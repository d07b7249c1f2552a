// read_runs maps a regular file whole and reads anything else (a FIFO, an empty file) as a pipe
// (docs/reports.md, "Speed"): each way gives what parsing the same text gives; files of different
// cache modes group apart.
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

// Issue 48: a warm run file and a cold one were pooled, a median of 48.4 ms made of ~12 ms warm
// runs and ~84 ms cold ones. By default they are two groups, keyed by the cache mode their meta
// files name; files of one mode keep the columns they had; --group-by chooses.
TEST(ReaderFiles, RunsOfAnotherCacheModeAreNeverPooledByDefault) {
  const std::string warm = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\nA\t0.012\t0\t0\t1\t1\n";
  const std::string cold = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\nA\t0.084\t0\t0\t1\t1\n";
  const RunSet two = parse_run_views({{"w.tsv", warm, "warm"}, {"c.tsv", cold, "cold"}});
  EXPECT_EQ(two.group_by, (std::vector<std::string>{"test", "cache"}));
  ASSERT_EQ(two.groups.size(), 2U);
  EXPECT_EQ(two.groups[0].key, (std::vector<std::string>{"A", "warm"}));
  EXPECT_EQ(two.groups[1].key, (std::vector<std::string>{"A", "cold"}));
  EXPECT_EQ(two.groups[1].metric(Metric::kElapsed), std::vector<double>{0.084});
  const RunSet same = parse_run_views({{"w.tsv", warm, "warm"}, {"w2.tsv", warm, "warm"}});
  EXPECT_EQ(same.group_by, std::vector<std::string>{"test"});
  EXPECT_EQ(same.groups.size(), 1U);
  ReadOptions pooled;
  pooled.group_by = {"test"};
  EXPECT_EQ(
      parse_run_views({{"w.tsv", warm, "warm"}, {"c.tsv", cold, "cold"}}, pooled).groups.size(),
      1U);
  ReadOptions by_cache;
  by_cache.group_by = {"cache"};
  EXPECT_EQ(parse_run_views({{"w.tsv", warm, "warm"}}, by_cache).groups[0].key,
            std::vector<std::string>{"warm"});
}

}  // namespace
}  // namespace iobench::runfile
