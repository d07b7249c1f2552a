// common/read_file: the one whole-file reader. Every byte exactly (NUL bytes, past its first
// buffer, a /proc file whose size says 0), an empty file as empty, a missing file an error that
// names it (nullopt for the _if_present form), and reads through the system-call seam: EINTR and
// short reads retried, an error thrown naming the file and the errno's text.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/read_file.hpp"
#include "common/sysio.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

class ReadFile : public ::testing::Test {
 protected:
  fs::path write(const std::string& name, const std::string& bytes) const {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path;
  }
  // The message read_file_bytes threw for `path`, or "" when it threw none.
  static std::string error_of(const fs::path& path, int* exit_code = nullptr) {
    try {
      read_file_bytes(path);
    } catch (const Error& e) {
      if (exit_code != nullptr) *exit_code = e.exit_code();
      return e.what();
    }
    return "";
  }
  const iobench::test::TempDir dir_{"read-file"};
};

// `size_bytes` bytes, every value among them; past 64 KiB, what a read of unknown size starts with.
std::string every_byte(std::size_t size_bytes) {
  std::string bytes(size_bytes, '\0');
  for (std::size_t i = 0; i < size_bytes; ++i) bytes[i] = static_cast<char>(i * 7 % 256);
  return bytes;
}

TEST_F(ReadFile, GivesEveryByteOfTheFile) {
  EXPECT_EQ(read_file_bytes(write("small", "one\ntwo")), "one\ntwo");
  const std::string nul("a\0b\n", 4);
  EXPECT_EQ(read_file_bytes(write("nul", nul)), nul);
  const std::string big = every_byte(300 * 1024);
  EXPECT_EQ(read_file_bytes(write("big", big)), big);
  EXPECT_EQ(read_file_bytes_if_present(dir_ / "big"), std::optional<std::string>(big));
}

TEST_F(ReadFile, AnEmptyFileIsEmptyNotMissing) {
  const fs::path empty = write("empty", "");
  EXPECT_EQ(read_file_bytes(empty), "");
  EXPECT_EQ(read_file_bytes_if_present(empty), std::optional<std::string>(""));
}

TEST_F(ReadFile, AProcFileWhoseSizeSaysZeroIsReadToItsEnd) {
  const std::string status = read_file_bytes("/proc/self/status");
  EXPECT_EQ(status.rfind("Name:", 0), 0u) << status;
  EXPECT_EQ(status.back(), '\n');
}

TEST_F(ReadFile, AMissingFileIsAnErrorNamingItOrNullopt) {
  const fs::path missing = dir_ / "missing";
  int exit_code = 0;
  EXPECT_EQ(error_of(missing, &exit_code),
            missing.string() + ": cannot read: No such file or directory");
  EXPECT_EQ(exit_code, kExitUsage);
  EXPECT_EQ(read_file_bytes_if_present(missing), std::nullopt);
  EXPECT_EQ(read_file_bytes_if_present(dir_ / "no-folder" / "file"), std::nullopt);
}

TEST_F(ReadFile, AFolderIsAnErrorEvenIfPresentIsAsked) {
  EXPECT_EQ(error_of(dir_.path()), dir_.path().string() + ": cannot read: Is a directory");
  EXPECT_THROW(read_file_bytes_if_present(dir_.path()), Error);
}

TEST_F(ReadFile, AnUnreadableFileIsAnErrorEvenIfPresentIsAsked) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a file of mode 000";
  const fs::path locked = write("locked", "secret");
  fs::permissions(locked, fs::perms::none);
  EXPECT_EQ(error_of(locked), locked.string() + ": cannot read: Permission denied");
  EXPECT_THROW(read_file_bytes_if_present(locked), Error);
}

int g_calls = 0;
ssize_t interrupted_then_short(int fd, void* buf, std::size_t count) {
  if (g_calls++ % 2 == 0) {
    errno = EINTR;
    return -1;
  }
  return ::read(fd, buf, count < 4096 ? count : 4096);
}
ssize_t failing_read(int, void*, std::size_t) {
  errno = EIO;
  return -1;
}

TEST_F(ReadFile, ReadsThroughTheSeam) {
  const std::string bytes = every_byte(100 * 1024);
  const fs::path path = write("in", bytes);
  g_calls = 0;
  {
    const sys::ScopedOps interrupted(
        {&interrupted_then_short, sys::ops().write, sys::ops().writev});
    EXPECT_EQ(read_file_bytes(path), bytes);
  }
  EXPECT_GT(g_calls, 50);  // 25 short reads and as many EINTRs at least
  const sys::ScopedOps failing({&failing_read, sys::ops().write, sys::ops().writev});
  EXPECT_EQ(error_of(path), path.string() + ": cannot read: Input/output error");
  EXPECT_THROW(read_file_bytes_if_present(path), Error);
}

TEST_F(ReadFile, AnOpenDescriptorIsReadPastItsSizeHint) {
  const std::string bytes = every_byte(200 * 1024);
  const fs::path path = write("in", bytes);
  for (const std::size_t hint_bytes : {std::size_t{0}, std::size_t{1}, bytes.size()}) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    ASSERT_TRUE(fd);
    EXPECT_EQ(read_fd_bytes(fd.get(), hint_bytes, path), bytes) << hint_bytes;
  }
}

}  // namespace
}  // namespace iobench
