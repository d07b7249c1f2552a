#include "driver/history/publish.hpp"

#include <fcntl.h>  // AT_FDCWD
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <stdio.h>   // renameat2
#include <stdlib.h>  // mkdtemp
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ostream>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace iobench::history {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail_on(const std::string& what, const fs::path& path, int err) {
  throw Error(
      fmt::format("history publish: cannot {} '{}': {}", what, path.string(), std::strerror(err)));
}

// "site/" (the form the docs show) and "site/." name the folder "site": with the separator, the
// build folder "site/.tmp-..." would be made inside the folder it is to replace, and the rename
// into place would fail (EINVAL), leaving an empty folder.
fs::path folder_path(const fs::path& dir) {
  fs::path normal = dir.lexically_normal();
  while (!normal.has_filename() && normal.has_relative_path()) normal = normal.parent_path();
  return normal;
}

// The folder the site is built in, beside `dir` so that the last rename stays on one
// filesystem; removed by the destructor unless it became `dir`.
class BuildFolder {
 public:
  explicit BuildFolder(const fs::path& dir) {
    std::error_code ec;
    if (!dir.parent_path().empty()) fs::create_directories(dir.parent_path(), ec);
    std::string pattern = dir.string() + ".tmp-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) fail_on("make a folder beside", dir, errno);
    ::chmod(pattern.c_str(), 0755);  // mkdtemp makes 0700; a web server must read the site
    path_ = pattern;
  }
  BuildFolder(const BuildFolder&) = delete;
  BuildFolder& operator=(const BuildFolder&) = delete;
  ~BuildFolder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }

  // Puts the folder in `dir`'s place: a rename over a missing or empty `dir`, else an exchange
  // of the two (renameat2), after which the old site is what the destructor removes.
  void replace(const fs::path& dir) {
    if (::rename(path_.c_str(), dir.c_str()) == 0) {
      path_.clear();
      return;
    }
    if (errno != ENOTEMPTY && errno != EEXIST) fail_on("rename the new site to", dir, errno);
    if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
      // A filesystem without the exchange: the old site aside, then the new one in.
      const fs::path old = path_.string() + ".old";
      if (::rename(dir.c_str(), old.c_str()) != 0) fail_on("move the old site from", dir, errno);
      if (::rename(path_.c_str(), dir.c_str()) != 0) fail_on("rename the new site to", dir, errno);
      path_ = old;
    }
  }

 private:
  fs::path path_;
};

}  // namespace

void check_site_folder(const fs::path& dir) {
  const fs::path folder = folder_path(dir);
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(folder, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status)) {
    throw Error(
        fmt::format("history publish: {} is not a folder; give a new or empty folder, or "
                    "a site published before",
                    folder.string()));
  }
  if (fs::is_empty(folder, ec) || fs::exists(folder / kSiteMarker, ec)) return;
  throw Error(fmt::format(
      "history publish: {} is not empty and not a site published before (no {} in it); give a "
      "new or empty folder",
      folder.string(), kSiteMarker));
}

PublishOutcome publish_site(const HistoryData& data, const std::vector<Timeline>& timelines,
                            const fs::path& dir, const SiteText& text, std::ostream& progress,
                            std::chrono::milliseconds progress_every) {
  const fs::path folder = folder_path(dir);
  check_site_folder(folder);
  const SiteModel site = build_site_model(data, timelines, text.store_name);
  BuildFolder build(folder);
  PublishOutcome outcome;
  const auto write = [&](const std::string& name, const std::string& content) {
    write_file_atomically(build.path() / name, content);
    ++outcome.files;
  };
  using Clock = std::chrono::steady_clock;
  auto said = Clock::now();
  for (std::size_t i = 0; i < site.series.size(); ++i) {
    write(site.series[i].page, render_series_page(site, i, data, text));
    if (Clock::now() - said >= progress_every) {
      fmt::print(progress, "iobench history publish: {} of {} series pages\n", i + 1,
                 site.series.size());
      said = Clock::now();
    }
  }
  write("index.html", render_site_index(site, text));
  write("regressions.html", render_regressions_page(site, text));
  write("feed.atom", render_feed(site, text));
  write(kSiteMarker, "a site made by iobench history publish: it replaces this folder whole\n");
  build.replace(folder);
  outcome.series = site.series.size();
  outcome.regressions = site.regressions.size();
  return outcome;
}

}  // namespace iobench::history
