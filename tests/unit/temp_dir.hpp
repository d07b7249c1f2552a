#pragma once
// The unit tests' one scratch folder: a fresh folder (mkdtemp, so parallel test processes and
// worktrees never share one) removed with everything in it when the object goes.
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace iobench::test {

class TempDir {
 public:
  // A folder named iobench-TAG-XXXXXX under parent ($TMPDIR or /tmp unless a test needs a
  // particular file system, such as /dev/shm). Throws std::system_error when it cannot be made.
  explicit TempDir(std::string_view tag = "test",
                   const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string pattern = (parent / ("iobench-" + std::string(tag) + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    }
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;  // a test that failed half-way may have left anything
    std::filesystem::remove_all(path_, ignored);
  }

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(std::string_view name) const {
    return path_ / name;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace iobench::test
