#pragma once
// `iobench history publish -o DIR` (docs/reports.md, "The history site"): the site written into a
// fresh folder beside DIR (DIR.tmp-XXXXXX) and put in DIR's place only when whole, so a failure
// leaves DIR as it was. DIR must be missing, empty, or a site published before (it holds
// .iobench-site): anything else is refused, so a typo cannot replace someone's folder.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <vector>

#include "driver/history/publish_pages.hpp"

namespace iobench::history {

// The file that marks a folder as a site `history publish` wrote.
inline constexpr const char* kSiteMarker = ".iobench-site";

struct PublishOutcome {
  std::size_t series = 0;
  std::size_t regressions = 0;
  std::size_t files = 0;
};

// Throws iobench::Error (exit 2, one line naming DIR) when DIR is a file, or a folder that is
// neither empty nor a site; nothing is written then.
void check_site_folder(const std::filesystem::path& dir);

// Writes the site of `data` into `dir`. While the series pages are written, a line goes to
// `progress` each time `progress_every` has passed since the last (a store of thousands of
// series takes a while). Throws iobench::Error naming what could not be written; `dir` is then
// as it was.
PublishOutcome publish_site(const HistoryData& data, const std::vector<Timeline>& timelines,
                            const std::filesystem::path& dir, const SiteText& text,
                            std::ostream& progress,
                            std::chrono::milliseconds progress_every = std::chrono::seconds(1));

}  // namespace iobench::history
