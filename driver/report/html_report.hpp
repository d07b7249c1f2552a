#pragma once
// `iobench report RUNS.tsv... -o report.html` and `run --report FILE`: one self-contained HTML
// page per run (docs/reports.md, "The HTML report"). For each input and sink: the chart (plot's
// drawing code), every test's median with its 95 % interval, the user/system split, max RSS,
// context switches, the counters and their derived figures, the verdicts against the reference
// with p-values, and every warning beside the row it concerns; then the machine, the provenance,
// the config and the command that runs it again. Tables sort and tests hide with the script on;
// everything reads with it off, and prints.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "driver/report/html_model.hpp"

namespace iobench::report {

struct HtmlReportOptions {
  std::string title;     // empty: "iobench report: " and the run files' names
  std::string baseline;  // the reference test; empty: the config's baseline, else the fastest
};

// What every page of the report and of the history site starts and ends with: the viewport, the
// CSP that lets only the one script run, the stylesheet; then the script and the closing tags.
std::string html_page_head(std::string_view title, std::string_view generator);
std::string html_page_tail();

// The whole page.
std::string render_html_report(const ReportModel& model, const HtmlReportOptions& options);

// Reads the files and writes the page to `out` through the atomic writer (never half written).
// Throws iobench::Error: a file that cannot be read or parsed, an unknown baseline (exit 2), or a
// page that cannot be written (naming `out`).
void write_html_report(const std::vector<std::filesystem::path>& files,
                       const std::filesystem::path& out, const HtmlReportOptions& options);

// `run --report FILE`: the page of the run file just written, after its medians. Returns the
// run's exit code, or kExitCouldNotContinue (3) when the page cannot be written, saying why on
// `err`: every row is kept, as when the medians cannot be written (docs/formats.md "Exit codes").
// Writes nothing after a run that could not go on (exit 3 already).
int write_report_after_run(const runfile::WrittenRun& run, const std::filesystem::path& out,
                           int run_exit_code, std::ostream& err);

}  // namespace iobench::report
