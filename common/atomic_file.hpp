#pragma once
// Replacing a file whole: written under a fresh mkstemp name beside it, then renamed over it, so
// a reader sees the old file or the new one, never half; a symlink planted at a fixed temporary
// name is never followed (O_EXCL).
#include <filesystem>
#include <string_view>

namespace iobench {

// Creates the parent folder when missing. Throws iobench::Error naming `path` on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace iobench
