#pragma once
// What the HTML report shows (docs/reports.md, "The HTML report"), computed from the run files
// and the meta files beside them by the code every other report uses: the summary (medians,
// intervals, counters, warnings' figures), compare (the verdicts against the reference), the
// plot's order of rows. html_report.cpp only writes it out.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/report/answer.hpp"
#include "driver/report/compare.hpp"
#include "driver/report/elapsed_figure.hpp"
#include "driver/report/html_rusage.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::report {

// A warning shown beside the row it concerns: a short label in the row, the whole text below the
// table.
struct Note {
  std::string label;  // "1 timed out", "outliers"
  std::string text;   // the whole warning
};

struct ReportRow {
  const report::GroupStats* stats = nullptr;  // into the section's summary
  std::string test;
  std::optional<report::Row> versus;  // against the section's reference; none for the reference
  ContextSwitches context_switches;
  std::vector<OthersDuringRun> others;  // every run's disturbance figures, when the file has them
  std::vector<Note> notes;
};

// One input and sink (and conditions): its runs, their summary, and a row per test, fastest first
// (the chart's order).
struct ReportSection {
  std::string input;
  std::string sink;
  // The conditions the files differ in (runfile::RunSet::split_by), as (name, value): "cache",
  // "warm". Runs that differ in one are never one section (docs/reports.md).
  std::vector<std::pair<std::string, std::string>> conditions;
  std::string reference;  // the test the verdicts compare with; empty when none has a run
  Answer answer;          // its answer (answer.hpp), which the page's first section shows
  runfile::RunSet set;
  report::Summary summary;  // of `set`
  std::vector<ReportRow> rows;
};

// A run file and its run record (the meta file beside it).
struct RunRecord {
  std::string runs_file;
  std::optional<runfile::RunMeta> meta;
  std::string problem;  // why there is no record: none beside the file, or its error
};

struct ReportModel {
  // Every file, grouped by test, input, sink and the conditions the files differ in
  // (runfile::cell_grouping), in `figure`.
  runfile::RunSet set;
  std::string split_note;  // which conditions split the groups (report::split_note); "" none
  ElapsedFigure figure;    // the elapsed figure every time and verdict of the page is in
  // unique_ptr: a section's summary points into its own set.
  std::vector<std::unique_ptr<ReportSection>> sections;
  std::vector<RunRecord> records;
  std::vector<std::string> run_warnings;   // those that concern no single row
  std::vector<std::string> tests;          // every test, in order of first appearance
  std::string baseline;                    // the reference asked for; empty: each section's fastest
  report::SummaryOptions summary_options;  // the thresholds the notes cite
};

// Reads the files (and the meta file beside each) and computes everything the page shows.
// `baseline`: the test the verdicts compare with; empty: the first record's config baseline, else
// the fastest of each input and sink. Throws iobench::Error (exit 2) for a file that cannot be
// read or parsed, naming it.
ReportModel build_report_model(const std::vector<std::filesystem::path>& files,
                               const std::string& baseline);
// The same of runs held in memory (`run --report` and `bench --report`: the run just written).
ReportModel build_report_model(const std::vector<runfile::WrittenRun>& runs,
                               const std::string& baseline);

// The notes of one row: excluded runs by status, no successful run, too few runs, a wide spread,
// outliers, a cache state that did not hold.
std::vector<Note> row_notes(const report::GroupStats& stats, const report::SummaryOptions& options);

// Attaches each line the runs recorded in their meta files (warnings) to the rows of
// the test it names ("TEST: ..." or "TEST on INPUT (SINK sink, ...): ..."), the longest name
// first; a line that names no test goes to run_warnings.
void attach_recorded_warnings(ReportModel& model, const std::vector<std::string>& lines);

}  // namespace iobench::report
