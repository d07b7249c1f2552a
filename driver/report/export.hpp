#pragma once
// Exporters: tables for a terminal (pretty), for a pull request (markdown), for tools (tsv), and
// hyperfine-shaped JSON. docs/reports.md documents every column.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "driver/report/summary.hpp"
#include "driver/report/time_unit.hpp"

namespace iobench::report {

enum class Format { kPretty, kTsv, kMarkdown, kJson };

// "pretty", "tsv", "markdown" (or "md"), "json"; throws iobench::Error (exit 2) otherwise.
Format parse_format(std::string_view name);

// A table of already formatted cells; numbers are right-aligned in pretty and markdown.
struct Table {
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column
  std::vector<std::vector<std::string>> rows;
};
// kPretty: aligned columns under a rule; kMarkdown: a GitHub table; kTsv: header + rows.
// kJson is not a table format (throws std::logic_error).
void write_table(const Table& table, Format format, std::ostream& out);

// Where `summarize`'s pretty and markdown put the answer (answer.hpp): `summarize` begins with
// it, `run` ends with it; bench's tables have none.
enum class AnswerAt { kNone, kFirst, kLast };

// How a table for people stays readable at 10,000 groups (docs/reports.md, "Tables at scale").
struct TableView {
  std::size_t top_rows = 0;  // rows shown per section, in the table's order; 0: every row
  std::string all_rows_hint = "all of them with --format tsv";  // ends the count line
  TimeUnit time_unit = TimeUnit::kAuto;  // the time columns' unit (bench -u); kAuto: seconds
  AnswerAt answer = AnswerAt::kNone;     // write_summary's answer, cut to top_rows too
};
// Pretty and markdown: the rows in sections by their values in `section_columns` (input and
// sink), in order of first appearance. With more than one section, each has a heading line
// ("input in.txt, sink pipe") over its rows without those columns; with one, the table is as
// write_table writes it. A section past view.top_rows rows shows that many and one line
// "… and 4,990 more (HINT)". kTsv writes every row, as write_table.
void write_table_sections(const Table& table, Format format,
                          const std::vector<std::size_t>& section_columns, const TableView& view,
                          std::ostream& out);
// The positions of `input` and `sink` among the group-by columns: what sections a table.
std::vector<std::size_t> input_sink_columns(const std::vector<std::string>& group_by);

// A number with at most `decimals` decimals, trailing zeros dropped ("0.5", "2249"); empty for
// NaN.
std::string trimmed(double value, int decimals);

// `summarize` output in any format. Pretty and markdown show the headline columns; tsv and json
// every statistic; pretty and markdown in input x sink sections cut to view.top_rows.
void write_summary(const report::Summary& summary, Format format, std::ostream& out,
                   const TableView& view = {});

// Warnings, one a line, each starting with "iobench: warning: " like the driver's own.
void write_warnings(const std::vector<std::string>& warnings, std::ostream& out);

}  // namespace iobench::report
