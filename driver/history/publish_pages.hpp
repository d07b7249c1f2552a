#pragma once
// The pages of `iobench history publish` (docs/reports.md, "The history site"), each a whole
// file as text: the index of series, one page per series, the open regressions and their Atom
// feed. The HTML pages are the run report's (html_page_head: its stylesheet, its one script and
// its CSP), read with scripts off, and link to each other by relative names only.
#include <cstddef>
#include <string>
#include <string_view>

#include "driver/history/publish_model.hpp"

namespace iobench::history {

struct SiteText {
  std::string title = "iobench history";
  std::string store_name;  // as messages show it
  std::string base_url;    // the site's public address, for the feed's links; empty: relative
};

std::string render_site_index(const SiteModel& site, const SiteText& text);
std::string render_series_page(const SiteModel& site, std::size_t series, const HistoryData& data,
                               const SiteText& text);
std::string render_regressions_page(const SiteModel& site, const SiteText& text);
// Atom 1.0 (RFC 4287): one entry per open regression, its id the change's full hashes.
std::string render_feed(const SiteModel& site, const SiteText& text);

// The medians of a series as a small line (96 × 28 px), each change point a red tick; drawn
// with the SVG blocks of `iobench plot` (driver/report/svg.hpp).
std::string render_sparkline(const SiteSeries& series);

// "+20.0 %": after over before, as a change.
std::string format_change(double before_s, double after_s);
// The run as a reader finds it: its commit label (10 digits), else its date.
std::string run_label(const StoredRun& run);
// What every HTML page of the site starts its body with (the title, the links between the pages,
// `current` marked) and ends it with.
std::string site_header(const SiteModel& site, const std::string& title, std::string_view current);
std::string site_footer();

}  // namespace iobench::history
