#pragma once
// Reading a file whole into bytes, the one way: open(2), then read(2) through the system-call seam
// (common/sysio.hpp) to end of file, so tests can inject EINTR, short reads and errors. Run files,
// imported results and the side files beside them are read with it; `runfile::load_run_file` maps
// a regular run file instead and reads anything else with read_fd_bytes.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace iobench {

// The file's bytes. Throws iobench::Error ("PATH: cannot read: STRERROR", exit 2) when it cannot
// be opened or read (a folder too: read(2) says EISDIR).
std::string read_file_bytes(const std::filesystem::path& path);

// As read_file_bytes, but nullopt when there is no such file (ENOENT: a side file that is
// optional). Every other failure throws.
std::optional<std::string> read_file_bytes_if_present(const std::filesystem::path& path);

// An open descriptor's bytes to its end. `size_hint_bytes` (0: unknown, a pipe) sizes the buffer
// so that a file of that size takes one read(2) and one more to see the end; it grows past it.
// Throws iobench::Error naming `path` on a read error.
std::string read_fd_bytes(int fd, std::size_t size_hint_bytes, const std::filesystem::path& path);

}  // namespace iobench
