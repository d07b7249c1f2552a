// ProcFiles: one descriptor per path however often it is read, the text read anew each time
// (a regular file rewritten in place, and /proc/stat whose clock ticks move), a text longer
// than the first buffer whole, and a missing file empty.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "driver/run/machine_load.hpp"
#include "driver/run/proc_files.hpp"

namespace iobench::run {
namespace {

class TempFile {
 public:
  TempFile() {
    fd_ = ::mkstemp(path_.data());
    EXPECT_GE(fd_, 0);
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  void rewrite(const std::string& text) const {
    ASSERT_EQ(::ftruncate(fd_, 0), 0);
    ASSERT_EQ(::pwrite(fd_, text.data(), text.size(), 0), static_cast<ssize_t>(text.size()));
  }
  [[nodiscard]] const char* path() const { return path_.c_str(); }

 private:
  std::string path_ = "/tmp/iobench-proc-files-XXXXXX";
  int fd_ = -1;
};

TEST(ProcFiles, ReadsTheTextAnewThroughOneDescriptor) {
  TempFile file;
  ProcFiles files;
  file.rewrite("first\n");
  EXPECT_EQ(files.read(file.path()), "first\n");
  file.rewrite("second, longer\n");
  EXPECT_EQ(files.read(file.path()), "second, longer\n");
  file.rewrite("3\n");
  EXPECT_EQ(files.read(file.path()), "3\n");
  EXPECT_EQ(files.open_count(), 1U);
}

TEST(ProcFiles, ATextLongerThanTheBufferComesWhole) {
  TempFile file;
  const std::string text(10'000, 'x');
  file.rewrite(text);
  ProcFiles files;
  EXPECT_EQ(files.read(file.path()), text);
  file.rewrite("short\n");
  EXPECT_EQ(files.read(file.path()), "short\n");
}

TEST(ProcFiles, AMissingFileIsEmptyAndKeepsNoDescriptor) {
  ProcFiles files;
  EXPECT_EQ(files.read("/nonexistent/iobench/proc"), "");
  EXPECT_EQ(files.open_count(), 0U);
}

// The kernel makes /proc/stat's text at each read from offset 0: after sleeping five clock ticks
// the aggregate line's total (idle included) has moved, though the descriptor stayed open.
TEST(ProcFiles, ProcStatMovesBetweenReads) {
  ProcFiles files;
  const auto before = parse_proc_stat(files.read("/proc/stat"));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto after = parse_proc_stat(files.read("/proc/stat"));
  ASSERT_TRUE(before && after);
  EXPECT_GT(after->total, before->total);
  EXPECT_EQ(files.open_count(), 1U);
}

}  // namespace
}  // namespace iobench::run
