// driver/run/page_cache: residency as cachestat and mincore see it, warming reads every page in,
// eviction drops them. Eviction depends on the file system (tmpfs and overlay keep pages that back
// the file itself): where it cannot be shown the test is skipped, visibly, saying why.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "driver/run/page_cache.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

class PageCacheTest : public ::testing::Test {
 protected:
  fs::path make_file(const std::string& name, std::size_t bytes) const {
    fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    const std::string block(1 << 16, 'x');
    for (std::size_t left = bytes; left > 0;) {
      const std::size_t n = std::min(left, block.size());
      out.write(block.data(), static_cast<std::streamsize>(n));
      left -= n;
    }
    return path;
  }

  // Beside the build rather than in /tmp, which is often a tmpfs (pages that cannot be evicted).
  const iobench::test::TempDir dir_{"page-cache", fs::path(IOBENCH_BIN_DIR) / ".."};
};

TEST_F(PageCacheTest, EmptyFileIsFullyResident) {
  EXPECT_EQ(resident_pct(make_file("empty", 0)), 100.0);
}

TEST_F(PageCacheTest, NotARegularFileHasNoResidency) {
  EXPECT_FALSE(resident_pct(dir_.path()).has_value());
  EXPECT_FALSE(resident_pct(dir_ / "missing").has_value());
  EXPECT_FALSE(resident_pct("/dev/null").has_value());
}

TEST_F(PageCacheTest, WarmMakesEveryPageResident) {
  const fs::path file = make_file("data", 4 << 20);
  evict_page_cache(file, false);
  warm_page_cache(file);
  const auto pct = resident_pct(file);
  ASSERT_TRUE(pct.has_value());
  EXPECT_EQ(*pct, 100.0);
}

TEST_F(PageCacheTest, WarmAndEvictNameAMissingFile) {
  for (const auto& call : {+[](const fs::path& p) { warm_page_cache(p); },
                           +[](const fs::path& p) { evict_page_cache(p, false); }}) {
    try {
      call(dir_ / "missing");
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
    }
  }
}

TEST_F(PageCacheTest, EvictDropsThePagesWhereTheFileSystemAllows) {
  const fs::path file = make_file("data", 4 << 20);
  warm_page_cache(file);
  ASSERT_EQ(resident_pct(file), 100.0);
  const auto left = evict_page_cache(file, false);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left, resident_pct(file));  // it returns what is left
  if (*left > 5.0) {
    struct statfs info {};
    ::statfs(dir_.path().c_str(), &info);
    GTEST_SKIP() << "posix_fadvise(DONTNEED) left " << *left << " % resident on this file system"
                 << " (type 0x" << std::hex << info.f_type << "); eviction cannot be shown here";
  }
  EXPECT_LE(*left, 5.0);
}

// cachestat and mincore count the same pages: all of a warm file, and after an eviction the
// same few (or none) where the file system lets pages go.
TEST_F(PageCacheTest, CachestatAndMincoreAgree) {
  const std::size_t size = (4 << 20) + 100;  // a last page partly used
  const fs::path file = make_file("data", size);
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd);
  warm_page_cache(file);
  const auto by_mincore = resident_pages_by_mincore(fd.get(), size);
  ASSERT_EQ(by_mincore, (size + page - 1) / page);
  const auto by_cachestat = resident_pages_by_cachestat(fd.get());
  if (!by_cachestat) GTEST_SKIP() << "no cachestat(2) on this kernel (Linux 6.5 has it)";
  EXPECT_EQ(by_cachestat, by_mincore);
  evict_page_cache(file, false);
  EXPECT_EQ(resident_pages_by_cachestat(fd.get()), resident_pages_by_mincore(fd.get(), size));
}

}  // namespace
}  // namespace iobench::run
