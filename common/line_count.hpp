#pragma once
// Counting a file's lines as the worker's `count` op does (docs/formats.md "Worker CLI"): every
// '\n', and a final line without one. The driver's reference for `--op count` and the lines the
// summary's syscalls-per-line divides by.
#include <cstdint>
#include <filesystem>

namespace iobench {

// Reads the whole file through the system-call seam (common/sysio.hpp). Throws std::system_error
// (its code the open's or the read's errno) when it cannot.
std::uint64_t count_lines(const std::filesystem::path& path);

}  // namespace iobench
