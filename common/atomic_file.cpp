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
#include "common/sysio.hpp"

namespace iobench {

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path(), ec);
  if (ec) {
    throw Error(fmt::format("{}: cannot create the folder: {}", path_.parent_path().string(),
                            ec.message()));
  }
  // Hidden, so a glob such as results/*.tsv never picks up a file being written.
  std::string name = ".";
  name += path_.filename().string();
  name += ".tmp.XXXXXX";
  std::string pattern = (path_.parent_path() / name).string();
  fd_.reset(::mkostemp(pattern.data(), O_CLOEXEC));
  if (!fd_) throw Error(fmt::format("{}: cannot write: {}", path_.string(), std::strerror(errno)));
  temp_ = pattern;
  ::fchmod(fd_.get(), 0644);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  fd_.reset();
  ::unlink(temp_.c_str());
}

void AtomicFile::commit() {
  if (::close(fd_.release()) != 0) {
    const int err = errno;
    ::unlink(temp_.c_str());
    committed_ = true;  // nothing left to remove
    throw Error(fmt::format("{}: cannot write: {}", path_.string(), std::strerror(err)));
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_.c_str());
    committed_ = true;
    throw Error(fmt::format("{}: cannot write: {}", path_.string(), std::strerror(err)));
  }
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile file(path);
  try {
    sys::write_all(file.fd(), content.data(), content.size());
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot write: {}", path.string(), e.code().message()));
  }
  file.commit();
}

}  // namespace iobench
