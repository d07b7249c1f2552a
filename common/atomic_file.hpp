#pragma once
// Replacing a file whole: written under a fresh hidden name beside it (.NAME.tmp.XXXXXX, made by
// mkostemp with O_EXCL, so a symlink planted at any temporary name is never followed), then
// renamed over it, so a reader sees the old file or the new one, never half. The one atomic
// writer: meta and medians files (whole strings) and `iobench gen` (streamed) use it.
#include <filesystem>
#include <string_view>

#include "common/fd.hpp"

namespace iobench {

// The streaming form: write as much as you like into fd(), then commit(). Destroyed without a
// successful commit(), it removes its temporary file and leaves the target as it was.
class AtomicFile {
 public:
  // Creates the parent folder when missing, then the temporary file (mode 0644). Throws
  // iobench::Error naming `path`.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  [[nodiscard]] int fd() const noexcept { return fd_.get(); }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] const std::filesystem::path& temp_path() const noexcept { return temp_; }

  // Closes the file (a failed close is a failed write) and renames it over path(); rename()
  // replaces a link at the target itself without following it. Throws iobench::Error naming
  // path(); the temporary file is gone then.
  void commit();

 private:
  std::filesystem::path path_;
  std::filesystem::path temp_;
  UniqueFd fd_;
  bool committed_ = false;
};

// The whole-string form. Throws iobench::Error naming `path` on failure, leaving nothing behind.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace iobench
