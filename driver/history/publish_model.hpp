#pragma once
// What `iobench history publish` shows (docs/reports.md, "The history site"): every series with
// its page, its latest median and its change points, and the open regressions the feed lists.
// Pure: made from a loaded history, no clock and no file, so the same store gives the same site.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/changes.hpp"
#include "driver/history/check.hpp"

namespace iobench::history {

struct SiteSeries {
  const Timeline* timeline = nullptr;
  std::string page;  // "series-<series hash>.html": no user text in a file name
  std::optional<double> latest_median_s;
  std::vector<SeriesChange> changes;
};

enum class RegressionSource {
  kNewestRun,    // `history check`: the newest run against its baseline
  kChangePoint,  // a slower level along the series that no later change took back
};

struct SiteRegression {
  std::size_t series = 0;  // index into SiteModel::series
  std::string change_id;   // SERIES8@RUN8, what `history ack` takes
  std::string atom_id;     // urn:iobench:change:<series hash>@<run hash>, the full hashes
  RegressionSource source = RegressionSource::kNewestRun;
  const StoredRun* run = nullptr;  // the first run of the slower level
  double before_s = 0;             // medians (newest run) or means of the medians (change point)
  double after_s = 0;
  std::optional<double> p_value;
  Explanation why;
  std::string summary;  // the line `history check` or `history changes` prints
  std::string updated;  // the run's date (RFC 3339), what the feed says
};

struct SiteModel {
  std::vector<SiteSeries> series;           // the store's order
  std::vector<SiteRegression> regressions;  // newest first, then by change id
  std::string updated;                      // the newest run's date
  std::string feed_id;                      // urn:iobench:history:<hash of the store's name>
};

// A date the feed can carry: the run's date, else when it was added, else the epoch.
std::string feed_date(const StoredRun& run);

// `store_name` is the store as messages show it (no password): it names the feed, so a store
// published twice is one feed to a reader.
SiteModel build_site_model(const HistoryData& data, const std::vector<Timeline>& timelines,
                           const std::string& store_name, const CheckOptions& options = {});

}  // namespace iobench::history
