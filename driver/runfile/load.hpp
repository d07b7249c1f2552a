#pragma once
// A run file's bytes from disk: a regular file mapped whole and read-only (the parser reads the
// page cache's pages where they are, docs/reports.md "Speed"), anything else (stdin, a pipe, a
// FIFO, a file that cannot be mapped) read; opened once, so a FIFO's writer is met once.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace iobench::runfile {

struct MappedFile;

struct RunFileData {
  std::shared_ptr<const MappedFile> mapped;
  std::string read;
  [[nodiscard]] std::string_view text() const;
};

// "-" is standard input. Throws iobench::Error (exit 2) naming the path when it cannot be read.
RunFileData load_run_file(const std::filesystem::path& path);

}  // namespace iobench::runfile
