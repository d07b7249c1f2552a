#pragma once
// What `iobench run` asks of the reporting module when its matrix is done.
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "driver/report/export.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {

// The end table of `run` and `bench` shows this many rows per input and sink by default.
inline constexpr std::size_t kEndTableRows = 20;

// How the medians file groups the rows: by test, input and sink.
runfile::ReadOptions medians_grouping();

struct MediansReportRequest {
  std::filesystem::path runs_tsv;     // the run file just written (named in the table's count line)
  std::filesystem::path medians_tsv;  // where the medians file goes (results/medians/...)
  std::string baseline;               // test name for `relative`, empty: the fastest
  // Where the warnings are kept in full (the meta file): the printed ones then name a few groups;
  // empty: they name every group.
  std::filesystem::path warnings_kept_in;
  // Rows of the printed table per input and sink; the rest are counted, with how to see them
  // (docs/reports.md, "Tables at scale"). 0: every row.
  std::size_t table_top_rows = kEndTableRows;
};

// The medians file (docs/formats.md): test input sink n elapsed_median user_median system_median
// cpu_pct_median mem_median elapsed_min elapsed_max elapsed_mad mb_per_s relative.
void write_medians_tsv(const report::Summary& summary, std::ostream& out);

// A printed warning names at most this many groups and counts the rest (docs/reports.md,
// "Warnings").
inline constexpr std::size_t kGroupsNamedInAWarning = 5;

// The end table's cut: `top_rows` a section, the count line naming `iobench summarize FILE`.
TableView end_table_view(const std::filesystem::path& runs_tsv, std::size_t top_rows);

// From the run file's rows as grouped by medians_grouping() (held in memory by whoever wrote
// them: runfile::WrittenRun), writes the medians file (docs/formats.md columns: test input sink n
// elapsed_median user_median system_median cpu_pct_median mem_median elapsed_min elapsed_max
// elapsed_mad mb_per_s relative), prints the medians table to `table_out` and the warnings
// (failures, mismatches, high spread, outliers, few runs) to `warnings_out`, each naming at most
// kGroupsNamedInAWarning groups when warnings_kept_in is given. Returns the warnings with every
// group named, for the run record.
std::vector<std::string> write_medians_report(const MediansReportRequest& request,
                                              const runfile::RunSet& set, std::ostream& table_out,
                                              std::ostream& warnings_out);

}  // namespace iobench::report
