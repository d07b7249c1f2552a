#include "driver/run/proc_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace iobench::run {

int ProcFiles::descriptor(const char* path) {
  for (const Open& open : open_) {
    if (open.path == path) return open.fd.get();
  }
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd) return -1;
  const int raw = fd.get();
  open_.push_back({path, std::move(fd)});
  return raw;
}

std::string ProcFiles::read(const char* path) {
  const std::lock_guard lock(mutex_);
  const int fd = descriptor(path);
  if (fd < 0) return {};
  if (buffer_.size() < 4096) buffer_.resize(4096);
  for (;;) {
    // The text must come in one read to be one snapshot: grow until a read leaves room.
    const ssize_t got = ::pread(fd, buffer_.data(), buffer_.size(), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return {};
    if (static_cast<std::size_t>(got) < buffer_.size()) {
      return std::string(buffer_.data(), static_cast<std::size_t>(got));
    }
    buffer_.resize(buffer_.size() * 2);
  }
}

std::size_t ProcFiles::open_count() {
  const std::lock_guard lock(mutex_);
  return open_.size();
}

}  // namespace iobench::run
