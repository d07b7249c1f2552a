// Fault injection through the system-call seam (docs/reliability.md, "Faults"): the results disk
// fills up part way through a row. The writer must throw iobench::Error naming the file and the
// cause, and leave the file with whole rows only (the header and every row appended before), so a
// later reader never sees half a row.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "common/sysio.hpp"
#include "driver/runfile/writer.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

int g_writes_left = 0;  // full writes allowed before the disk "fills"

ssize_t filling_write(int fd, const void* buf, std::size_t count) {
  if (g_writes_left > 0) {
    --g_writes_left;
    return ::write(fd, buf, count);
  }
  if (g_writes_left == 0) {  // the disk takes a few bytes, then is full
    --g_writes_left;
    return ::write(fd, buf, count < 7 ? count : 7);
  }
  errno = ENOSPC;
  return -1;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

RunRow row(int repeat) {
  RunRow r;
  r.test = "t";
  r.input = "in.txt";
  r.sink = "null";
  r.repeat = repeat;
  r.host = "h";
  return r;
}

TEST(FaultResultsDiskFull, PartialRowIsCutBackAndTheErrorNamesFileAndCause) {
  const iobench::test::TempDir folder("fault-results");
  const std::filesystem::path path = folder / "runs.tsv";
  {
    RunTsvWriter writer(path);
    writer.append(row(1));
    writer.append(row(2));
    const std::string expected = file_text(path);
    sys::Ops ops = sys::ops();
    ops.write = &filling_write;
    g_writes_left = 0;
    const sys::ScopedOps scoped(ops);
    try {
      writer.append(row(3));
      FAIL() << "append on a full disk did not throw";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("runs.tsv"), std::string::npos) << message;
      EXPECT_NE(message.find("No space left"), std::string::npos) << message;
      EXPECT_EQ(e.exit_code(), kExitUsage);
    }
    EXPECT_EQ(file_text(path), expected) << "half a row was left in the file";
  }
}

}  // namespace
}  // namespace iobench::runfile
