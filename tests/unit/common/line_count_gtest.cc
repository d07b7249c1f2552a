// common/line_count: lines as the worker's `count` counts them (a last line without '\n' counts),
// read through the system-call seam: EINTR retried, an error thrown, never a short count.
#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <system_error>

#include "common/line_count.hpp"
#include "common/sysio.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench {
namespace {

// 10,000 bytes, 1,000 lines.
const std::string kInput =
    std::string(IOBENCH_SOURCE_DIR) + "/tests/fixtures/reports/input-10k.txt";

class LineCount : public ::testing::Test {
 protected:
  std::uint64_t lines_of(const std::string& text) {
    std::ofstream(dir_ / "in", std::ios::binary | std::ios::trunc) << text;
    return count_lines(dir_ / "in");
  }
  const iobench::test::TempDir dir_{"lines"};
};

TEST_F(LineCount, CountsLinesAsTheWorkerDoes) {
  EXPECT_EQ(count_lines(kInput), 1000u);
  EXPECT_THROW(count_lines("/nonexistent/input"), std::system_error);
}

TEST_F(LineCount, ALastLineWithoutNewlineCounts) {
  EXPECT_EQ(lines_of(""), 0u);
  EXPECT_EQ(lines_of("a"), 1u);
  EXPECT_EQ(lines_of("a\n"), 1u);
  EXPECT_EQ(lines_of("a\n\nb"), 3u);
  EXPECT_EQ(lines_of("\n\n"), 2u);
  // Across the 1 MiB read buffer: the last byte of a full read decides nothing on its own.
  EXPECT_EQ(lines_of(std::string((1 << 20) - 1, 'x') + "\n" + "tail"), 2u);
}

int g_line_count_reads = 0;
ssize_t interrupted_then_real(int fd, void* buf, std::size_t count) {
  if (g_line_count_reads++ % 2 == 0) {
    errno = EINTR;
    return -1;
  }
  return ::read(fd, buf, count < 3 ? count : 3);  // short reads too
}
ssize_t failing_line_count_read(int, void*, std::size_t) {
  errno = EIO;
  return -1;
}

TEST_F(LineCount, ReadsThroughTheSeam) {
  std::ofstream(dir_ / "in", std::ios::binary) << "one\ntwo\nthree";
  {
    const sys::ScopedOps interrupted({&interrupted_then_real, sys::ops().write, sys::ops().writev});
    EXPECT_EQ(count_lines(dir_ / "in"), 3u);
  }
  EXPECT_GT(g_line_count_reads, 2);
  const sys::ScopedOps failing({&failing_line_count_read, sys::ops().write, sys::ops().writev});
  try {
    count_lines(dir_ / "in");
    ADD_FAILURE() << "a read error gave a count";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), EIO);
  }
}

}  // namespace
}  // namespace iobench
