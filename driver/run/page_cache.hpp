#pragma once
// The input's page-cache state, prepared and then verified, not assumed (docs/driver.md "The page
// cache").
#include <cstddef>
#include <filesystem>
#include <optional>

namespace iobench::run {

// Percentage of the file's pages resident in the page cache (cachestat, else mincore). Empty for
// a file that is not a regular file or cannot be measured; 100 for an empty file.
std::optional<double> resident_pct(const std::filesystem::path& path);
// Its two ways, for tests: cachestat(2) is empty on a kernel without it (before 6.5).
std::optional<std::size_t> resident_pages_by_cachestat(int fd);
std::optional<std::size_t> resident_pages_by_mincore(int fd, std::size_t size);

// Reads the whole file once so its pages are cached, as `wc` or `cat` would.
void warm_page_cache(const std::filesystem::path& path);

// Drops the file's pages: fdatasync, then posix_fadvise(DONTNEED). Returns the residency left.
// When pages stay resident and drop_caches is allowed (root), writes 1 to
// /proc/sys/vm/drop_caches (system-wide; only then).
std::optional<double> evict_page_cache(const std::filesystem::path& path, bool allow_drop_caches);

}  // namespace iobench::run
