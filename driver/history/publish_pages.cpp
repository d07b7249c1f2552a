#include "driver/history/publish_pages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "driver/history/check.hpp"
#include "driver/report/compare.hpp"
#include "driver/report/html.hpp"
#include "driver/report/html_report.hpp"
#include "driver/report/svg.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::history {

using util::escape_markup;

namespace {

namespace html = report::html;
namespace svg = report::svg;

constexpr double kSparkWidth = 96;
constexpr double kSparkHeight = 28;
constexpr double kSparkInset = 3;
constexpr double kSparkMinSpan = 0.2;

html::Cell last_change_cell(const SiteSeries& series) {
  if (series.changes.empty()) return html::text_cell("none");
  const SeriesChange& c = series.changes.back();
  html::Cell cell = html::number_cell(c.point.relative_change(), "");
  cell.css_class = "text";
  cell.html = fmt::format(R"(<a href="{}#change-{}">{}</a> at {}{})", escape_markup(series.page),
                          escape_markup(c.change_id),
                          escape_markup(format_change(c.point.mean_before, c.point.mean_after)),
                          escape_markup(run_label(*c.first_run->run)),
                          c.ack != nullptr ? " (acknowledged)" : "");
  return cell;
}

html::TableRow index_row(const SiteSeries& series) {
  const StoredSeries& s = *series.timeline->series;
  html::TableRow row;
  // The site marks each series with the tool that measured it (iobench's own: none).
  html::Cell name = html::text_cell(
      s.key.tool.empty() ? s.key.test : fmt::format("{} {}", s.key.test, s.key.conditions()),
      "text test");
  name.html = fmt::format(R"(<a href="{}">{}</a>)", escape_markup(series.page), name.html);
  name.title = "series " + s.series_hash;
  html::Cell spark = html::text_cell("", "spark");
  spark.html = render_sparkline(series);
  // What a reader compares first comes first: on a phone the rest is a sideways scroll away.
  row.cells = {name,
               html::number_cell(series.latest_median_s,
                                 value_text(series.latest_median_s.value_or(NAN), s.key)),
               spark,
               last_change_cell(series),
               html::number_cell(static_cast<double>(series.timeline->points.size()),
                                 fmt::format("{}", series.timeline->points.size())),
               html::text_cell(s.key.input),
               html::text_cell(s.key.sink),
               html::text_cell(s.key.cache_mode),
               html::text_cell(s.key.host_class)};
  return row;
}

std::string_view source_words(RegressionSource source) {
  return source == RegressionSource::kNewestRun ? "history check" : "a change point";
}

html::TableRow regression_row(const SiteModel& site, const SiteRegression& r) {
  const SiteSeries& series = site.series[r.series];
  html::Cell change = html::text_cell(r.change_id);
  change.html = fmt::format(R"(<a href="{}#change-{}">{}</a>)", escape_markup(series.page),
                            escape_markup(r.change_id), change.html);
  html::Cell label = html::text_cell(series_label(*series.timeline->series), "text notes");
  label.html = fmt::format(R"(<a href="{}">{}</a>)", escape_markup(series.page), label.html);
  html::Cell run = html::text_cell(run_label(*r.run));
  run.title = r.updated;
  // Which, how much and why first (a phone shows the first columns): the figures behind follow.
  html::TableRow row;
  row.cells = {label,
               html::number_cell(r.after_s / r.before_s - 1, format_change(r.before_s, r.after_s)),
               run,
               html::text_cell(format_explanation(r.why), "verdict"),
               html::number_cell(r.before_s, value_text(r.before_s, series.timeline->series->key)),
               html::number_cell(r.after_s, value_text(r.after_s, series.timeline->series->key)),
               html::number_cell(r.p_value, r.p_value ? report::p_text(*r.p_value) : ""),
               html::text_cell(source_words(r.source)),
               change};
  return row;
}

std::string feed_link(const SiteText& text, const std::string& relative) {
  if (text.base_url.empty()) return relative;
  std::string base = text.base_url;
  if (base.back() != '/') base += '/';
  return base + relative;
}

}  // namespace

std::string run_label(const StoredRun& run) {
  return run.labels.commit ? run.labels.commit->substr(0, 10) : feed_date(run);
}

std::string site_header(const SiteModel& site, const std::string& title, std::string_view current) {
  const auto link = [&](std::string_view page, std::string_view name, std::string_view words) {
    return fmt::format(R"(<li><a href="{}"{}>{}</a></li>)", page,
                       name == current ? R"( aria-current="page")" : "", words);
  };
  return fmt::format("<header>\n<h1>{}</h1>\n<nav><ul>{}{}{}</ul></nav>\n</header>\n",
                     escape_markup(title), link("index.html", "series", "every series"),
                     link("regressions.html", "regressions",
                          fmt::format("open regressions ({})", site.regressions.size())),
                     link("feed.atom", "feed", "Atom feed"));
}

std::string site_footer() {
  return "<footer>Made by <code>iobench history publish</code>; what each figure is: "
         "docs/reports.md, \"The history site\", and docs/history.md.</footer>\n";
}

std::string format_change(double before_s, double after_s) {
  return fmt::format("{:+.1f} %", 100 * (after_s / before_s - 1));
}

std::string render_sparkline(const SiteSeries& series) {
  const MedianSeries medians = medians_of(*series.timeline);
  if (medians.medians.empty()) return "-";
  const auto [lowest, highest] =
      std::minmax_element(medians.medians.begin(), medians.medians.end());
  // The height spans at least kSparkMinSpan of the highest median, centred on the medians: noise
  // of 1 % must not look like a cliff.
  const double span = std::max(*highest - *lowest, kSparkMinSpan * *highest);
  const double low = (*lowest + *highest - span) / 2;
  const std::size_t n = medians.medians.size();
  const auto sx = [&](std::size_t i) {
    return n == 1 ? kSparkWidth / 2
                  : kSparkInset + (kSparkWidth - 2 * kSparkInset) * static_cast<double>(i) /
                                      static_cast<double>(n - 1);
  };
  const auto sy = [&](double v) {
    return kSparkHeight - kSparkInset - (kSparkHeight - 2 * kSparkInset) * (v - low) / span;
  };
  svg::Svg out;
  for (const SeriesChange& change : series.changes) {
    const double x = (sx(change.point.index - 1) + sx(change.point.index)) / 2;
    out.raw(fmt::format(
        R"(<line x1="{0:.1f}" y1="0" x2="{0:.1f}" y2="{1:.0f}" stroke="#c0392b" stroke-dasharray="2,2"/>)",
        x, kSparkHeight));
  }
  std::string line;
  for (std::size_t i = 0; i < n; ++i) {
    line += fmt::format("{:.1f},{:.1f} ", sx(i), sy(medians.medians[i]));
  }
  out.raw(fmt::format(R"(<polyline points="{}" fill="none" stroke="#1f5fa8" stroke-width="1.4"/>)",
                      line));
  out.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="4" height="4" fill="#1f5fa8"/>)",
                      sx(n - 1) - 2, sy(medians.medians.back()) - 2));
  const std::string label =
      fmt::format("medians of {} runs, {} to {}, {} change point(s)", n,
                  value_text(*lowest, series.timeline->series->key),
                  value_text(*highest, series.timeline->series->key), series.changes.size());
  return fmt::format(
      R"(<svg class="spark" xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" role="img" aria-label="{2}"><title>{2}</title>{3}</svg>)",
      kSparkWidth, kSparkHeight, escape_markup(label), out.body());
}

std::string render_site_index(const SiteModel& site, const SiteText& text) {
  std::string page = report::html_page_head(text.title, "iobench history publish");
  page += site_header(site, text.title, "series");
  page += fmt::format(
      R"(<ul class="glance"><li>{} series</li><li><a href="regressions.html">{} open regression{}</a></li><li>newest run {}</li><li>from {}</li></ul>)",
      site.series.size(), site.regressions.size(), site.regressions.size() == 1 ? "" : "s",
      escape_markup(site.updated), escape_markup(text.store_name));
  html::Table table;
  table.css_class = "sortable series";
  table.caption = "Every series: one cell measured the same way across runs (docs/history.md)";
  table.columns = {{"test", "the series' page", true},
                   {"latest median", "the newest run's median elapsed, rows that count", false},
                   {"medians", "each run's median elapsed, change points in red", true},
                   {"last change", "the newest change point: its change of the mean", true},
                   {"runs", "runs with a row of this series", false},
                   {"input", "", true},
                   {"sink", "", true},
                   {"cache", "", true},
                   {"host class", "", true}};
  for (const SiteSeries& series : site.series) table.rows.push_back(index_row(series));
  page += "<main>\n" + html::render_table(table) + "</main>\n" + site_footer();
  return page + report::html_page_tail();
}

std::string render_regressions_page(const SiteModel& site, const SiteText& text) {
  std::string page =
      report::html_page_head(text.title + ": open regressions", "iobench history publish");
  page += site_header(site, text.title + ": open regressions", "regressions");
  page += "<main>\n";
  if (site.regressions.empty()) {
    page +=
        "<p id=\"none-open\">No open regression: every slower level is acknowledged or "
        "went back.</p>\n";
  } else {
    html::Table table;
    table.css_class = "sortable regressions";
    table.caption =
        "Slower and not acknowledged (iobench history ack CHANGE --why TEXT marks one as "
        "expected)";
    table.columns = {{"series", "", true},
                     {"change", "", false},
                     {"run", "the first run of the slower level: its commit, else its date", true},
                     {"what moved", "the other figures that moved with elapsed", true},
                     {"before", "", false},
                     {"after", "", false},
                     {"p", "", false},
                     {"found by",
                      "history check: the newest run against its baseline; a change point: a "
                      "slower level along the runs",
                      true},
                     {"id", "SERIES@RUN, what history ack takes", true}};
    for (const SiteRegression& r : site.regressions) table.rows.push_back(regression_row(site, r));
    page += html::render_table(table);
  }
  page += "</main>\n" + site_footer();
  return page + report::html_page_tail();
}

std::string render_feed(const SiteModel& site, const SiteText& text) {
  std::string feed = fmt::format(
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
      "<id>{}</id>\n<title>{}: open regressions</title>\n<updated>{}</updated>\n"
      "<author><name>iobench</name></author>\n<generator>iobench history publish</generator>\n"
      "<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
      site.feed_id, escape_markup(text.title), site.updated,
      escape_markup(feed_link(text, "regressions.html")));
  if (!text.base_url.empty()) {
    feed += fmt::format("<link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n",
                        escape_markup(feed_link(text, "feed.atom")));
  }
  for (const SiteRegression& r : site.regressions) {
    const SiteSeries& series = site.series[r.series];
    feed += fmt::format(
        "<entry>\n<id>{}</id>\n<title>{}</title>\n<updated>{}</updated>\n"
        "<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n<summary>{}</summary>\n"
        "</entry>\n",
        escape_markup(r.atom_id),
        escape_markup(fmt::format("regression {} {}: {} at {}", r.change_id,
                                  series_label(*series.timeline->series),
                                  format_change(r.before_s, r.after_s), run_label(*r.run))),
        r.updated, escape_markup(feed_link(text, series.page + "#change-" + r.change_id)),
        escape_markup(r.summary));
  }
  return feed + "</feed>\n";
}

}  // namespace iobench::history
