// One series' page of the history site (docs/reports.md, "The history site"): its identity, the
// trend chart of `history plot`, every run with its median and interval, the change points with
// what moved, and the acknowledgements with their reasons.
#include <fmt/format.h>

#include <cmath>
#include <map>

#include "driver/history/check.hpp"
#include "driver/history/publish_pages.hpp"
#include "driver/history/trend_plot.hpp"
#include "driver/report/compare.hpp"
#include "driver/report/html.hpp"
#include "driver/report/html_report.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/stats/median_interval.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::history {
namespace {

namespace html = report::html;

constexpr double kTrendWidthPx = 760;

std::string identity(const StoredSeries& s) {
  return "<section id=\"identity\"><h2>What was measured, and where</h2>" +
         html::definition_list({{"series", s.series_hash},
                                {"test", s.key.test},
                                {"input", s.key.input},
                                {"input identity", s.key.input_identity},
                                {"sink", s.key.sink},
                                {"cache", s.key.cache_mode},
                                {"counters", s.key.counters.empty() ? "none" : s.key.counters},
                                {"definition", s.key.definition_hash},
                                {"verified", s.key.verified ? "yes" : "no: never judged"},
                                {"host class", s.key.host_class}}) +
         "</section>\n";
}

std::string run_notes(const RunPoint& point, const StoredSeries& series, const SeriesChange* at) {
  std::vector<std::string> notes;
  const StoredRun& run = *point.run;
  if (run.busy_cpus_start && *run.busy_cpus_start >= kBusyCpus) {
    notes.push_back(fmt::format("busy: {:.2f} CPUs", *run.busy_cpus_start));
  }
  if (const std::string excluded = excluded_summary(point, series); !excluded.empty()) {
    notes.push_back("not counted: " + excluded);
  }
  if (at != nullptr) {
    notes.push_back(fmt::format("change {} ({}){}", at->change_id,
                                format_change(at->point.mean_before, at->point.mean_after),
                                at->ack != nullptr ? ", acknowledged" : ""));
  }
  return fmt::format("{}", fmt::join(notes, "; "));
}

html::TableRow run_row(const RunPoint& point, const StoredSeries& series, const SeriesChange* at) {
  const std::vector<double> values = usable_elapsed(point, series);
  const stats::MedianInterval ci = stats::median_interval_95(values);
  const double median = values.empty() ? NAN : ci.median;
  const StoredRun& run = *point.run;
  html::TableRow row;
  row.cells = {html::text_cell(feed_date(run)),
               html::text_cell(run.labels.commit.value_or("-")),
               html::number_cell(median, value_text(median, series.key)),
               html::number_cell(ci.half_width, std::isfinite(ci.half_width)
                                                    ? "± " + value_text(ci.half_width, series.key)
                                                    : std::string()),
               html::number_cell(static_cast<double>(values.size()),
                                 fmt::format("{}/{}", values.size(), point.samples.size())),
               html::number_cell(stats::min(values), value_text(stats::min(values), series.key)),
               html::number_cell(stats::max(values), value_text(stats::max(values), series.key)),
               html::text_cell(run.labels.branch.value_or("-")),
               html::text_cell(run_notes(point, series, at), "text notes")};
  return row;
}

std::string runs_table(const Timeline& timeline, const std::vector<SeriesChange>& changes) {
  std::map<const RunPoint*, const SeriesChange*> change_at;
  for (const SeriesChange& c : changes) change_at[c.first_run] = &c;
  html::Table table;
  table.css_class = "sortable runs";
  table.caption =
      "Every run: the median of the rows that count (ok, verified) and its 95 % interval";
  table.columns = {{"date", "the run's, from its meta file", true},
                   {"commit", "", true},
                   {"median", "elapsed", false},
                   {"95 % interval", "of the median (docs/reports.md)", false},
                   {"rows", "rows that count, of all", false},
                   {"min", "", false},
                   {"max", "", false},
                   {"branch", "", true},
                   {"notes", "", true}};
  for (const RunPoint& point : timeline.points) {
    const auto it = change_at.find(&point);
    table.rows.push_back(
        run_row(point, *timeline.series, it == change_at.end() ? nullptr : it->second));
  }
  return "<section id=\"runs\"><h2>Runs</h2>\n" + html::render_table(table) + "</section>\n";
}

std::string ack_words(const Ack& ack) {
  return fmt::format("by {} at {}: {}", ack.who, ack.acked_at, ack.why);
}

std::string changes_table(const std::vector<SeriesChange>& changes) {
  std::string out = "<section id=\"changes\"><h2>Change points</h2>\n";
  if (changes.empty()) {
    return out +
           "<p>None: the medians hold one level (docs/history.md, \"Change points\").</p>"
           "</section>\n";
  }
  html::Table table;
  table.css_class = "changes";
  table.caption = "Where the level of the medians moved, and the other figures that moved with it";
  table.columns = {{"change", "SERIES@RUN, what history ack takes", true},
                   {"at", "the first run of the new level", true},
                   {"mean before", "", false},
                   {"mean after", "", false},
                   {"change", "", false},
                   {"p", "Welch's t-test between the levels", false},
                   {"what moved", "the figures that moved with elapsed (docs/history.md)", true},
                   {"acknowledged", "", true}};
  for (const SeriesChange& c : changes) {
    html::Cell id = html::text_cell(c.change_id);
    id.html = fmt::format(R"(<span id="change-{}">{}</span>)", id.html, id.html);
    html::TableRow row;
    row.cells = {id,
                 html::text_cell(run_label(*c.first_run->run)),
                 html::number_cell(c.point.mean_before,
                                   value_text(c.point.mean_before, c.timeline->series->key)),
                 html::number_cell(c.point.mean_after,
                                   value_text(c.point.mean_after, c.timeline->series->key)),
                 html::number_cell(c.point.relative_change(),
                                   format_change(c.point.mean_before, c.point.mean_after)),
                 html::number_cell(c.point.p_value, report::p_text(c.point.p_value)),
                 html::text_cell(format_explanation(c.why), "verdict"),
                 html::text_cell(c.ack != nullptr ? ack_words(*c.ack) : "no", "verdict")};
    table.rows.push_back(std::move(row));
  }
  return out + html::render_table(table) + "</section>\n";
}

std::string acks_table(const HistoryData& data, const StoredSeries& series) {
  html::Table table;
  table.css_class = "acks";
  table.caption = "Changes marked as expected (iobench history ack), with their reasons";
  table.columns = {{"change", "", true}, {"by", "", true}, {"at", "", true}, {"why", "", true}};
  for (const Ack& ack : data.acks) {
    if (ack.series_hash != series.series_hash) continue;
    table.rows.push_back({"",
                          {html::text_cell(ack.change_id), html::text_cell(ack.who),
                           html::text_cell(ack.acked_at), html::text_cell(ack.why, "text notes")}});
  }
  std::string out = "<section id=\"acks\"><h2>Acknowledgements</h2>\n";
  if (table.rows.empty()) return out + "<p>None.</p></section>\n";
  return out + html::render_table(table) + "</section>\n";
}

// A change point's anchor is its row of the change-point table; check's regression has no row
// there, so its line here is what the feed and the regressions page link to.
std::string regressions_here(const SiteModel& site, std::size_t series) {
  std::string out;
  for (const SiteRegression& r : site.regressions) {
    if (r.series != series) continue;
    const std::string anchor =
        r.source == RegressionSource::kNewestRun
            ? fmt::format(R"( id="change-{}")", util::escape_markup(r.change_id))
            : std::string();
    out += fmt::format(
        R"(<li class="slower"{}><a href="regressions.html">open regression</a> {} at {}: {}</li>)",
        anchor, util::escape_markup(r.change_id), util::escape_markup(run_label(*r.run)),
        util::escape_markup(format_change(r.before_s, r.after_s)));
  }
  return out.empty() ? "" : "<ul class=\"warnings\">" + out + "</ul>\n";
}

}  // namespace

std::string render_series_page(const SiteModel& site, std::size_t series, const HistoryData& data,
                               const SiteText& text) {
  const SiteSeries& shown = site.series[series];
  const StoredSeries& s = *shown.timeline->series;
  const std::string title = series_label(s);
  std::string page = report::html_page_head(title + " · " + text.title, "iobench history publish");
  page += site_header(site, title, "");
  page += "<main>\n" + regressions_here(site, series);
  // Narrower than `history plot`'s and scaled to the screen (not scrolled, as the report's charts
  // are on a phone): a trend is read whole.
  const std::string chart = render_trend(data, *shown.timeline, kTrendWidthPx).svg;
  page += "<figure class=\"trend\">" + chart.substr(chart.find("<svg")) + "</figure>\n";
  page += runs_table(*shown.timeline, shown.changes) + changes_table(shown.changes) +
          acks_table(data, s) + identity(s);
  page += "</main>\n" + site_footer();
  return page + report::html_page_tail();
}

}  // namespace iobench::history
