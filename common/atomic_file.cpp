#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    throw Error(
        fmt::format("{}: cannot create the folder: {}", path.parent_path().string(), ec.message()));
  }
  std::string temp = path.string() + ".tmp.XXXXXX";
  {
    const UniqueFd fd(::mkostemp(temp.data(), O_CLOEXEC));
    if (!fd) throw Error(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    try {
      ::fchmod(fd.get(), 0644);
      sys::write_all(fd.get(), content.data(), content.size());
    } catch (const std::system_error& e) {
      ::unlink(temp.c_str());
      throw Error(fmt::format("{}: cannot write: {}", path.string(), e.code().message()));
    }
  }
  // rename() replaces a link at the target itself, without following it.
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw Error(fmt::format("{}: cannot write: {}", path.string(), ec.message()));
  }
}

}  // namespace iobench
