#include "common/read_file.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench {
namespace {

constexpr std::size_t kUnknownSizeBytes = std::size_t{1} << 16;

[[noreturn]] void cannot_read(const std::filesystem::path& path, const std::string& why) {
  throw Error(fmt::format("{}: cannot read: {}", path.string(), why));
}

// The file opened, or nullopt when it is missing and `missing_ok`; throws on any other failure.
std::optional<UniqueFd> open_for_reading(const std::filesystem::path& path, bool missing_ok) {
  UniqueFd fd(sys::ops().open(path.c_str(), O_RDONLY | O_CLOEXEC, 0));
  if (fd) return fd;
  if (missing_ok && errno == ENOENT) return std::nullopt;
  cannot_read(path, std::strerror(errno));
}

std::string read_opened(const UniqueFd& fd, const std::filesystem::path& path) {
  struct stat st {};
  // A regular file's size saves the buffer's regrowth; /proc files and pipes say 0.
  const bool sized = ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  return read_fd_bytes(fd.get(), sized ? static_cast<std::size_t>(st.st_size) : 0, path);
}

}  // namespace

std::string read_fd_bytes(int fd, std::size_t size_hint_bytes, const std::filesystem::path& path) {
  std::string data(size_hint_bytes > 0 ? size_hint_bytes + 1 : kUnknownSizeBytes, '\0');
  std::size_t filled = 0;
  try {
    for (;;) {
      if (filled == data.size()) data.resize(data.size() * 2);
      const std::size_t got = sys::read_some(fd, data.data() + filled, data.size() - filled);
      if (got == 0) break;
      filled += got;
    }
  } catch (const std::system_error& e) {
    cannot_read(path, e.code().message());
  }
  data.resize(filled);
  return data;
}

std::string read_file_bytes(const std::filesystem::path& path) {
  return read_opened(*open_for_reading(path, false), path);
}

std::optional<std::string> read_file_bytes_if_present(const std::filesystem::path& path) {
  const std::optional<UniqueFd> fd = open_for_reading(path, true);
  if (!fd) return std::nullopt;
  return read_opened(*fd, path);
}

}  // namespace iobench
