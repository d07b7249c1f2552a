#include "driver/run/page_cache.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench::run {

namespace {
// cachestat(2) (Linux 6.5): the cached pages of a file without mapping it. glibc 2.36 has no
// wrapper, so the structures are the kernel's (include/uapi/linux/mman.h).
struct CachestatRange {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;  // 0: to the end of the file
};
struct Cachestat {
  std::uint64_t cached = 0;
  std::uint64_t dirty = 0;
  std::uint64_t writeback = 0;
  std::uint64_t evicted = 0;
  std::uint64_t recently_evicted = 0;
};
constexpr long kCachestatSyscall = 451;  // x86_64 and the generic table alike
}  // namespace

std::optional<std::size_t> resident_pages_by_cachestat(int fd) {
  CachestatRange range;
  Cachestat stat;
  if (::syscall(kCachestatSyscall, fd, &range, &stat, 0U) != 0) return std::nullopt;
  return static_cast<std::size_t>(stat.cached);
}

std::optional<std::size_t> resident_pages_by_mincore(int fd, std::size_t size) {
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return std::nullopt;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> residency((size + page - 1) / page);
  const int rc = ::mincore(map, size, residency.data());
  ::munmap(map, size);
  if (rc != 0) return std::nullopt;
  std::size_t resident = 0;
  for (const unsigned char flag : residency) resident += flag & 1U;
  return resident;
}

// Checked before every run (docs/driver.md, "The page cache"): cachestat where the kernel has
// it, since a mapping and its munmap cost a TLB flush on every CPU the driver's threads ran on
// (a VM exit each on a VM); mincore elsewhere.
std::optional<double> resident_pct(const std::filesystem::path& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  if (info.st_size == 0) return 100.0;
  const auto size = static_cast<std::size_t>(info.st_size);
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (size + page - 1) / page;
  std::optional<std::size_t> resident = resident_pages_by_cachestat(fd.get());
  if (!resident) resident = resident_pages_by_mincore(fd.get(), size);
  if (!resident) return std::nullopt;
  return 100.0 * static_cast<double>(std::min(*resident, pages)) / static_cast<double>(pages);
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

}  // namespace iobench::run
