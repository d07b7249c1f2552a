// common/atomic_file: the one atomic writer. It replaces a file whole, never follows a link planted
// at a temporary name or at the target, and leaves nothing behind when it fails.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/sysio.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  // Every name in the folder (links included), so a leftover temporary file shows whatever its
  // name.
  [[nodiscard]] std::set<std::string> names() const {
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_.path()))
      found.insert(entry.path().filename());
    return found;
  }

  const iobench::test::TempDir dir_{"atomic"};
};

TEST_F(AtomicFileTest, ReplacesAFileWholeAndLeavesOnlyIt) {
  const fs::path target = dir_ / "meta.json";
  write(target, std::string(10000, 'x'));
  write_file_atomically(target, "short\n");
  EXPECT_EQ(read(target), "short\n");  // no tail of the longer old file
  EXPECT_EQ(names(), (std::set<std::string>{"meta.json"}));
  struct stat info {};
  ASSERT_EQ(::stat(target.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644U);
}

TEST_F(AtomicFileTest, CreatesMissingFolders) {
  const fs::path target = dir_ / "a" / "b" / "medians.tsv";
  write_file_atomically(target, "x\n");
  EXPECT_EQ(read(target), "x\n");
}

TEST_F(AtomicFileTest, StreamsIntoAHiddenTemporaryFileUntilCommitted) {
  const fs::path target = dir_ / "data.tsv";
  write(target, "old\n");
  AtomicFile file(target);
  const std::string name = file.temp_path().filename();
  EXPECT_EQ(file.temp_path().parent_path(),
            dir_.path());  // beside: the rename stays on one file system
  EXPECT_EQ(name.rfind(".data.tsv.tmp.", 0), 0U) << name;
  const std::string block(1 << 20, 'y');
  for (int i = 0; i < 8; ++i) sys::write_all(file.fd(), block.data(), block.size());
  EXPECT_EQ(read(target), "old\n");  // a reader still sees the old file
  file.commit();
  EXPECT_EQ(fs::file_size(target), 8U << 20);
  EXPECT_EQ(names(), (std::set<std::string>{"data.tsv"}));
}

// Each name a writer of this project once used for its temporary file (plot's `<out>.tmp`, gen's
// `.NAME.tmp.PID`, the meta writer's `NAME.tmp`), and the target itself, hold a link to a victim.
TEST_F(AtomicFileTest, NeverFollowsALinkPlantedAtATemporaryNameOrTheTarget) {
  const fs::path victim = dir_ / "victim";
  write(victim, "precious\n");
  const std::string pid = std::to_string(::getpid());
  const std::set<std::string> planted{"out.svg.tmp", ".out.svg.tmp." + pid, "out.svg.tmp." + pid,
                                      ".out.svg.tmp"};
  for (const auto& name : planted) fs::create_symlink(victim, dir_ / name);
  fs::create_symlink(victim, dir_ / "out.svg");
  write_file_atomically(dir_ / "out.svg", "<svg/>\n");
  {
    AtomicFile file(dir_ / "out.svg");
    EXPECT_FALSE(fs::is_symlink(file.temp_path()));
    EXPECT_EQ(planted.count(file.temp_path().filename()), 0U);
    sys::write_all(file.fd(), "<svg/>\n", 7);
    file.commit();
  }
  EXPECT_EQ(read(victim), "precious\n");
  EXPECT_FALSE(
      fs::is_symlink(dir_ / "out.svg"));  // the link at the target was replaced, not followed
  EXPECT_EQ(read(dir_ / "out.svg"), "<svg/>\n");
  std::set<std::string> expected = planted;
  expected.insert({"victim", "out.svg"});
  EXPECT_EQ(names(), expected);
}

TEST_F(AtomicFileTest, UncommittedLeavesNothingAndTheOldFileAsItWas) {
  write(dir_ / "x.tsv", "old\n");
  {
    AtomicFile file(dir_ / "x.tsv");
    sys::write_all(file.fd(), "new\n", 4);
    // An exception between the writes and commit() (a generator failing) ends here.
  }
  EXPECT_EQ(read(dir_ / "x.tsv"), "old\n");
  EXPECT_EQ(names(), (std::set<std::string>{"x.tsv"}));
}

TEST_F(AtomicFileTest, AFailedWriteThrowsNamingTheFileAndLeavesNothing) {
  write(dir_ / "m.tsv", "old\n");
  sys::Ops full = sys::ops();
  full.write = [](int, const void*, std::size_t) -> ssize_t {
    errno = ENOSPC;
    return -1;
  };
  try {
    const sys::ScopedOps scoped(full);
    write_file_atomically(dir_ / "m.tsv", "new content\n");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.tsv: cannot write: No space left"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read(dir_ / "m.tsv"), "old\n");
  EXPECT_EQ(names(), (std::set<std::string>{"m.tsv"}));
}

TEST_F(AtomicFileTest, AFailedRenameThrowsAndLeavesNothing) {
  fs::create_directories(dir_ / "taken" / "inside");  // rename cannot put a file over a folder
  try {
    write_file_atomically(dir_ / "taken", "x");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("taken: cannot write"), std::string::npos) << e.what();
  }
  EXPECT_EQ(names(), (std::set<std::string>{"taken"}));
}

TEST_F(AtomicFileTest, AnUnwritableFolderIsAnErrorNamingTheFile) {
  const fs::path blocker = dir_ / "file";
  write(blocker, "");
  try {
    write_file_atomically(blocker / "sub" / "x.json", "x");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create the folder"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace iobench
