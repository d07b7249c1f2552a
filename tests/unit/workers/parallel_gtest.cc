// The parallel count reader: its ranges cover the input exactly, its count equals the one-thread
// count wherever a range boundary falls, and it refuses what it cannot do (another op, a pipe,
// --threads for a reader without threads).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/cpus.hpp"
#include "common/fd.hpp"
#include "tests/unit/workers/test_support.hpp"
#include "workers/cli.hpp"
#include "workers/readers.hpp"
#include "workers/worker.hpp"

namespace iobench::worker::testing {
namespace {

TEST(SplitRanges, CoverTheBytesInOrderWithoutGapsOrEmptyRanges) {
  for (const std::uint64_t begin : {0ULL, 7ULL}) {
    for (const std::uint64_t bytes : {1ULL, 2ULL, 3ULL, 10ULL, 4097ULL, 1000003ULL}) {
      for (const std::size_t parts : {1UL, 2UL, 3UL, 7UL, 64UL}) {
        const auto ranges = split_ranges(begin, begin + bytes, parts);
        const std::string what =
            std::to_string(begin) + "+" + std::to_string(bytes) + "/" + std::to_string(parts);
        ASSERT_EQ(ranges.size(), std::min<std::uint64_t>(parts, bytes)) << what;
        EXPECT_EQ(ranges.front().begin, begin) << what;
        EXPECT_EQ(ranges.back().end, begin + bytes) << what;
        std::uint64_t smallest = bytes;
        std::uint64_t largest = 0;
        for (std::size_t i = 0; i < ranges.size(); ++i) {
          EXPECT_LT(ranges[i].begin, ranges[i].end) << what << " range " << i;
          if (i > 0) {
            EXPECT_EQ(ranges[i].begin, ranges[i - 1].end) << what << " range " << i;
          }
          smallest = std::min(smallest, ranges[i].end - ranges[i].begin);
          largest = std::max(largest, ranges[i].end - ranges[i].begin);
        }
        EXPECT_LE(largest - smallest, 1u) << what << ": one thread must not get most of the work";
      }
    }
  }
}

TEST(SplitRanges, NoBytesIsOneEmptyRange) {
  const auto ranges = split_ranges(5, 5, 4);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].begin, 5u);
  EXPECT_EQ(ranges[0].end, 5u);
}

TEST(UsableCpus, AtLeastOne) {
  EXPECT_GE(usable_cpus(), 1u);
}

class ParallelCount : public ::testing::Test {
 protected:
  // `iobench-worker --read parallel --op count [--threads N]` over `bytes`; checks it against the
  // reference and against the one-thread chunk reader.
  void expect_count(const std::string& bytes, std::size_t threads, const std::string& what) {
    const std::string path = (dir_ / "input").string();
    write_file(path, bytes);
    std::vector<std::string> args = {"--read", "parallel", "--write", "raw", "--op", "count"};
    if (threads != 0) {
      args.emplace_back("--threads");
      args.push_back(std::to_string(threads));
    }
    const RunResult r = run_worker(dir_, args, path);
    ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
    EXPECT_EQ(r.out, reference_count(bytes)) << what << ", " << threads << " threads";
    EXPECT_EQ(r.err, "") << what;
  }

  TempDir dir_;
};

TEST_F(ParallelCount, EmptyFile) {
  for (const std::size_t threads : {0UL, 1UL, 2UL, 8UL}) expect_count("", threads, "empty");
}

TEST_F(ParallelCount, LastLineWithoutNewlineCounts) {
  for (const std::size_t threads : {1UL, 2UL, 3UL, 16UL}) {
    expect_count("x", threads, "one byte");
    expect_count("alpha\nbeta\ngamma", threads, "no final newline");
    expect_count("alpha\nbeta\n", threads, "final newline");
  }
}

TEST_F(ParallelCount, MoreThreadsThanBytes) {
  expect_count("\n", 64, "one newline");
  expect_count("a\nb", 64, "three bytes");
  expect_count("ab", 1024, "two bytes, the most threads");
}

TEST_F(ParallelCount, OnlyNewlines) {
  for (const std::size_t threads : {1UL, 2UL, 5UL, 64UL}) {
    expect_count(std::string(1, '\n'), threads, "1 newline");
    expect_count(std::string(4099, '\n'), threads, "4099 newlines");
  }
}

// A newline as the last byte of every range and another as the first byte of the next: a count
// that loses or doubles a boundary byte is off by the number of threads.
TEST_F(ParallelCount, NewlinesOnEveryRangeBoundary) {
  for (const std::size_t threads : {2UL, 3UL, 7UL}) {
    for (const std::size_t bytes : {std::size_t{14}, std::size_t{3 * 4096 + 5}}) {
      for (const bool last_newline : {true, false}) {
        std::string text(bytes, 'x');
        for (const ByteRange& range : split_ranges(0, bytes, threads)) {
          text[range.begin] = '\n';
          text[range.end - 1] = '\n';
        }
        if (!last_newline) text.back() = 'x';
        expect_count(text, threads,
                     std::to_string(bytes) + " bytes" + (last_newline ? "" : ", open last line"));
      }
    }
  }
}

// Large random files (lines of random length, some empty, random bytes between), counted with
// the default thread count and a few others, against the chunk reader on the same file.
TEST_F(ParallelCount, LargeRandomFilesMatchTheChunkCount) {
  std::mt19937_64 rng(15);
  for (int file = 0; file < 3; ++file) {
    std::string text;
    const std::size_t size = (40 << 20) + rng() % 4096;  // more than 2 drop windows per thread
    text.reserve(size);
    while (text.size() < size) {
      const std::size_t line = rng() % 97;
      for (std::size_t i = 0; i < line && text.size() < size; ++i) {
        const char c = static_cast<char>(rng() % 256);
        text += c == '\n' ? 'n' : c;
      }
      if (text.size() < size) text += '\n';
    }
    if (file == 1) text.back() = 'z';  // an open last line
    const std::string path = (dir_ / "random").string();
    write_file(path, text);
    const RunResult chunk =
        run_worker(dir_, {"--read", "chunk", "--write", "raw", "--op", "count"}, path);
    ASSERT_EQ(chunk.exit_code, 0) << chunk.err;
    ASSERT_EQ(chunk.out, reference_count(text));
    for (const std::string threads : {"", "1", "2", "3", "13"}) {
      std::vector<std::string> args = {"--read", "parallel", "--write", "raw", "--op", "count"};
      if (!threads.empty()) args.insert(args.end(), {"--threads", threads});
      const RunResult r = run_worker(dir_, args, path);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, chunk.out) << "file " << file << ", threads '" << threads << "'";
    }
  }
}

// As `mmap`: stdin may be a file another process has read partly; the count starts where it is.
TEST_F(ParallelCount, StdinAFileReadPartlyCountsFromItsOffset) {
  const std::string path = (dir_ / "input").string();
  write_file(path, "skip\nthese\none\ntwo\nthree");
  const UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_EQ(::lseek(in.get(), 11, SEEK_SET), 11);  // past "skip\nthese\n"
  const std::string out_path = (dir_ / "out").string();
  const UniqueFd out(::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  Options options;
  options.reader = "parallel";
  options.op = "count";
  options.threads = 3;
  Input input{in.get(), "", true};
  const std::unique_ptr<Op> op = find_op("count")->make(options, *find_writer("raw"), out.get());
  find_reader("parallel")->make(options)->run(input, *op);
  op->end_of_input();
  EXPECT_EQ(read_file(out_path), "3\n");
  EXPECT_EQ(::lseek(in.get(), 0, SEEK_CUR), 24)
      << "the input is consumed, as other readers leave it";
}

TEST_F(ParallelCount, OtherOpsAreRefusedWithTheReason) {
  const std::string path = (dir_ / "input").string();
  write_file(path, "a\tb\nc\td\n");
  for (const std::vector<std::string>& op :
       {std::vector<std::string>{"--op", "copy"}, std::vector<std::string>{},
        std::vector<std::string>{"--op", "field:2"},
        std::vector<std::string>{"--op", "split", "--outputs", "2", "--prefix",
                                 (dir_ / "part-").string()}}) {
    std::vector<std::string> args = {"--read", "parallel", "--write", "raw"};
    args.insert(args.end(), op.begin(), op.end());
    const RunResult r = run_worker(dir_, args, path);
    const std::string name = op.empty() ? "copy" : op[1].substr(0, op[1].find(':'));
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_NE(r.err.find("--read parallel cannot run --op " + name + " ("), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("ranges are read out of order"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists((dir_ / "part-0").string()))
        << "split created its outputs";
  }
}

// A pipe: tests/unit/workers/refusals_gtest.cc, with the mmap readers.

TEST(ParallelThreadsOption, ParsedForParallelRefusedElsewhereAndBounded) {
  EXPECT_EQ(parse_args({"--read", "parallel", "--write", "raw", "--op", "count", "--threads", "3"})
                .threads,
            3u);
  EXPECT_EQ(parse_args({"--read=parallel", "--write=raw", "--op=count", "--threads=1"}).threads,
            1u);
  EXPECT_EQ(parse_args({"--read", "parallel", "--write", "raw", "--op", "count"}).threads, 0u)
      << "0: every usable CPU";
  for (const char* bad : {"0", "-1", "two", "1025", ""}) {
    EXPECT_THROW(
        parse_args({"--read", "parallel", "--write", "raw", "--op", "count", "--threads", bad}),
        UsageError)
        << bad;
  }
  try {
    parse_args({"--read", "chunk", "--write", "raw", "--op", "count", "--threads", "2"});
    ADD_FAILURE() << "--threads accepted for chunk";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--threads applies to a reader that has threads"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace iobench::worker::testing
