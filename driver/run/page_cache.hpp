#pragma once
// The input's page-cache state, prepared and then verified, not assumed (docs/driver.md "The page
// cache").
#include <filesystem>
#include <optional>

namespace iobench {

// Percentage of the file's pages resident in the page cache (mincore). Empty for a file that is
// not a regular file or cannot be mapped; 100 for an empty file.
std::optional<double> resident_pct(const std::filesystem::path& path);

// Reads the whole file once so its pages are cached, as `wc` or `cat` would.
void warm_page_cache(const std::filesystem::path& path);

// Drops the file's pages: fdatasync, then posix_fadvise(DONTNEED). Returns the residency left.
// When pages stay resident and drop_caches is allowed (root), writes 1 to
// /proc/sys/vm/drop_caches (system-wide; only then).
std::optional<double> evict_page_cache(const std::filesystem::path& path, bool allow_drop_caches);

}  // namespace iobench
