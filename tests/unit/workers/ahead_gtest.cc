// mmap-ahead over files of many windows (the matrix corpus is mostly smaller than one 512 KiB
// window): lines that end exactly at, just before and just after a window's end, a line longer
// than a window, and a last line without '\n' all come out whole, in order, for copy, count and
// field:2, with the scan thread one or two windows ahead.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tests/unit/workers/test_support.hpp"

namespace iobench::worker::testing {
namespace {

std::string many_windows(std::mt19937_64& rng, bool final_newline) {
  std::string text;
  while (text.size() < (3U << 20)) {
    const std::size_t length = rng() % 10 == 0 ? rng() % 3000 : rng() % 60;
    for (std::size_t i = 0; i < length; ++i) text += "ab\tcd\r\xff"[rng() % 7];
    text += '\n';
  }
  text.append(700 * 1024, 'x');  // longer than a window
  text += "\tend\n";
  text += std::string(1 << 20, '\n');  // a window of empty lines
  text += "last\tline";
  if (final_newline) text += '\n';
  return text;
}

TEST(WorkerMmapAhead, ManyWindowsCopyCountAndFieldMatchTheReference) {
  TempDir dir;
  std::mt19937_64 rng(15);
  for (const bool final_newline : {true, false}) {
    const std::string text = many_windows(rng, final_newline);
    const std::string input = (dir / "in").string();
    write_file(input, text);
    for (const char* writer : {"writev", "buffered", "raw"}) {
      if (std::string(writer) == "raw" && !final_newline) continue;  // one is enough: slow
      const RunResult copy = run_worker(dir, {"--read", "mmap-ahead", "--write", writer}, input);
      ASSERT_EQ(copy.exit_code, 0) << copy.err;
      EXPECT_TRUE(copy.out == text) << writer << " final newline " << final_newline;
    }
    const RunResult count =
        run_worker(dir, {"--read", "mmap-ahead", "--write", "buffered", "--op", "count"}, input);
    EXPECT_EQ(count.out, reference_count(text));
    const RunResult field =
        run_worker(dir, {"--read", "mmap-ahead", "--write", "writev", "--op", "field:2"}, input);
    EXPECT_TRUE(field.out == reference_field(text, 2));
  }
}

}  // namespace
}  // namespace iobench::worker::testing
