#include "driver/report/html_report.hpp"

#include <fmt/format.h>

#include <array>
#include <ostream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/html.hpp"
#include "driver/report/html_assets.hpp"
#include "driver/report/html_csp.hpp"
#include "driver/report/html_record.hpp"
#include "driver/report/html_sections.hpp"
#include "driver/report/plot.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {

using util::escape_markup;

namespace {

std::string default_title(const ReportModel& model) {
  std::vector<std::string> names;
  for (const auto& file : model.set.files) {
    names.push_back(std::filesystem::path(file).filename().string());
  }
  return fmt::format("iobench report: {}", fmt::join(names, ", "));
}

// Rows by status and verdicts by kind, over every section: what a reader looks at first.
std::string glance(const ReportModel& model) {
  std::array<std::size_t, runfile::kStatusCount> rows{};
  for (const auto& group : model.set.groups) {
    for (std::size_t s = 0; s < runfile::kStatusCount; ++s) rows[s] += group.rows[s];
  }
  std::size_t faster = 0;
  std::size_t slower = 0;
  std::size_t same = 0;
  std::size_t warned = 0;
  for (const auto& section : model.sections) {
    for (const auto& row : section->rows) {
      if (!row.notes.empty()) ++warned;
      if (!row.versus) continue;
      faster += row.versus->verdict == report::Verdict::kFaster;
      slower += row.versus->verdict == report::Verdict::kSlower;
      same += row.versus->verdict == report::Verdict::kNoChange ||
              row.versus->verdict == report::Verdict::kTooFewRuns;
    }
  }
  std::string out = "<ul class=\"glance\">";
  out += fmt::format("<li>{} runs: {} ok", model.set.rows, rows[0]);
  for (std::size_t s = 1; s < runfile::kStatusCount; ++s) {
    if (rows[s] > 0) out += fmt::format(", {} {}", rows[s], runfile::kStatusWords[s]);
  }
  out += fmt::format("</li><li>{} tests × {} inputs and sinks</li>", model.tests.size(),
                     model.sections.size());
  if (!model.split_note.empty()) {
    out += fmt::format("<li class=\"split\">{}</li>", escape_markup(model.split_note));
  }
  out += fmt::format(
      "<li class=\"figure\">figures: {}{}</li>", escape_markup(model.figure.name()),
      model.figure.startup
          ? escape_markup(fmt::format(" ({} took {} elapsed, median of {} runs)",
                                      util::join_argv(model.figure.startup->command),
                                      util::format_seconds(model.figure.startup->elapsed_s),
                                      model.figure.startup->runs))
          : std::string());
  out += fmt::format("<li>against the reference: {} faster, {} slower, {} not significant</li>",
                     faster, slower, same);
  out += fmt::format("<li>{} rows with warnings, {} about the whole run</li></ul>\n", warned,
                     model.run_warnings.size());
  return out;
}

std::string navigation(const ReportModel& model) {
  std::string out = "<nav><ul>";
  for (std::size_t i = 0; i < model.sections.size(); ++i) {
    out += fmt::format(R"(<li><a href="#s{}">{}</a></li>)", i + 1,
                       escape_markup(section_title(*model.sections[i])));
  }
  return out +
         R"(<li><a href="#record">machine and provenance</a></li><li><a href="#config">config</a></li></ul></nav>)" +
         "\n";
}

// Hidden until the script shows it: without a script it could do nothing.
std::string tests_panel(const ReportModel& model) {
  std::string out =
      "<details id=\"tests\" hidden><summary>Tests: <span id=\"hidden-count\">all shown</span>"
      "</summary>\n<input type=\"search\" id=\"test-filter\" placeholder=\"show names "
      "containing…\" "
      "aria-label=\"show tests whose name contains\"><button type=\"button\" id=\"show-all\">show "
      "all</button>\n<ul>";
  for (const std::string& test : model.tests) {
    out += fmt::format(
        R"(<li><label><input type="checkbox" checked data-test="{0}"> {0}</label></li>)",
        escape_markup(test));
  }
  return out + "</ul></details>\n";
}

std::string run_warnings(const ReportModel& model) {
  if (model.run_warnings.empty()) return "";
  std::string out =
      "<section id=\"run-warnings\"><h2>Warnings about the whole run</h2><ul class=\"warnings\">\n";
  for (const auto& line : model.run_warnings) out += "<li>" + escape_markup(line) + "</li>\n";
  return out + "</ul></section>\n";
}

std::string chart_key() {
  report::PlotOptions options;
  options.report_marks = true;
  options.width_px = 640;  // the narrowest chart: two lines of key
  const std::string svg = report::render_key(options).svg;
  return "<figure class=\"key\">" + svg.substr(svg.find("<svg")) + "</figure>\n";
}

}  // namespace

std::string html_page_head(std::string_view title, std::string_view generator) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"generator\" content=\"{}\">\n<title>{}</title>\n<style>{}</style>\n"
      "</head>\n<body>\n",
      content_security_policy(), escape_markup(generator), escape_markup(title),
      report_stylesheet());
}

std::string html_page_tail() {
  return fmt::format("<script>{}</script>\n</body>\n</html>\n", report_script());
}

std::string render_html_report(const ReportModel& model, const HtmlReportOptions& options) {
  const std::string title = options.title.empty() ? default_title(model) : options.title;
  std::string page = html_page_head(title, "iobench report");
  page += "<header>\n<h1>" + escape_markup(title) + "</h1>\n";
  page += glance(model) + navigation(model) + "</header>\n<main>\n";
  page += render_answers(model);  // the answer first (docs/reports.md, "The answer")
  page += tests_panel(model) + run_warnings(model) + chart_key();
  for (std::size_t i = 0; i < model.sections.size(); ++i) {
    page += render_section(*model.sections[i], i + 1);
  }
  page += render_records(model) + render_configs(model);
  page +=
      "</main>\n<footer>Made by <code>iobench report</code>; what each figure is: "
      "docs/reports.md, \"The HTML report\".</footer>\n";
  return page + html_page_tail();
}

void write_html_report(const std::vector<std::filesystem::path>& files,
                       const std::filesystem::path& out, const HtmlReportOptions& options) {
  const ReportModel model = build_report_model(files, options.baseline);
  write_file_atomically(out, render_html_report(model, options));
}

int write_report_after_run(const runfile::WrittenRun& run, const std::filesystem::path& out,
                           int run_exit_code, std::ostream& err) {
  if (run_exit_code == kExitCouldNotContinue) return run_exit_code;
  try {
    const HtmlReportOptions options;
    write_file_atomically(out,
                          render_html_report(build_report_model({run}, options.baseline), options));
  } catch (const Error& e) {
    err << fmt::format("iobench: the report cannot be written: {}; every row is kept in {}\n",
                       e.what(), run.runs_file.string());
    return kExitCouldNotContinue;
  }
  err << fmt::format("iobench: report in {}\n", out.string());
  return run_exit_code;
}

}  // namespace iobench::report
