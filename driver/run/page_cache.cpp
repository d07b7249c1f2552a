#include "driver/run/page_cache.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench {

std::optional<double> resident_pct(const std::filesystem::path& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  if (info.st_size == 0) return 100.0;
  const auto size = static_cast<std::size_t>(info.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
  if (map == MAP_FAILED) return std::nullopt;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (size + page - 1) / page;
  std::vector<unsigned char> residency(pages);
  const int rc = ::mincore(map, size, residency.data());
  ::munmap(map, size);
  if (rc != 0) return std::nullopt;
  std::size_t resident = 0;
  for (const unsigned char flag : residency) resident += flag & 1U;
  return 100.0 * static_cast<double>(resident) / static_cast<double>(pages);
}

void warm_page_cache(const std::filesystem::path& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd)
    throw Error(fmt::format("{}: cannot read input: {}", path.string(), std::strerror(errno)));
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<char> buffer(1 << 20);
  try {
    while (sys::read_some(fd.get(), buffer.data(), buffer.size()) != 0) {
    }
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot read input: {}", path.string(), e.code().message()));
  }
}

std::optional<double> evict_page_cache(const std::filesystem::path& path, bool allow_drop_caches) {
  {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd)
      throw Error(fmt::format("{}: cannot open input: {}", path.string(), std::strerror(errno)));
    ::fdatasync(fd.get());  // dirty pages cannot be dropped
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
  }
  auto left = resident_pct(path);
  if (left && *left > 0 && allow_drop_caches) {
    ::sync();
    std::ofstream drop("/proc/sys/vm/drop_caches");
    if (drop << "1\n") {
      drop.close();
      left = resident_pct(path);
    }
  }
  return left;
}

}  // namespace iobench
