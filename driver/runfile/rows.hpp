#pragma once
// The one reader of run files (docs/formats.md "Run file"): a file of any format ever written
// (today's, before the disturbance columns, before the counter columns, GNU time's of the dcat
// recipe) into typed rows, RunRow. Columns are found by their header names, in any order; the
// first six (test elapsed user system cpu_pct mem) are required, the rest optional, and a figure
// whose column a file lacks stays empty. Every command reads run files through this: the grouping
// reader (reader.hpp), the merge, the history, the HTML report's per-run figures.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/schema.hpp"

namespace iobench::runfile {

// A file's columns by name, as its header line gives them.
class RunColumns {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  RunColumns() = default;
  explicit RunColumns(const std::vector<std::string_view>& names);

  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  [[nodiscard]] std::size_t size() const { return names_.size(); }
  // The column's position, or npos.
  [[nodiscard]] std::size_t find(std::string_view name) const;
  [[nodiscard]] bool has(std::string_view name) const { return find(name) != npos; }
  // The counter columns it has, in schema order.
  [[nodiscard]] std::vector<Counter> counters() const;

 private:
  std::vector<std::string> names_;
};

// Reads the rows of one run file's text in order, each parsed into one RunRow that is reused
// (its strings keep their capacity: no allocation per row once warm). The text must outlive it.
class RowReader {
 public:
  // Reads and checks the header. Throws iobench::Error (exit 2) "NAME:1: ...".
  RowReader(std::string name, std::string_view text);

  [[nodiscard]] const RunColumns& columns() const { return columns_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  // Which columns are parsed, by position (every one unless told): a column not selected is
  // neither checked nor parsed, and its figure keeps RunRow's default; one of `text` is split out
  // for cell() whether parsed or not. For callers that read a few columns of big files
  // (summarize's grouping).
  void select(const std::vector<bool>& columns, const std::vector<bool>& text);

  // Moves to the next data row (blank lines are skipped); false after the last. Throws
  // iobench::Error (exit 2) "NAME:LINE: column 'C': what" for a malformed row.
  bool next();
  [[nodiscard]] const RunRow& row() const { return row_; }
  [[nodiscard]] std::size_t line() const { return line_; }
  // The text of a column of this row as written: a parsed one, or one selected as text.
  [[nodiscard]] std::string_view cell(std::size_t column) const { return cells_[column]; }
  // The row as written, without its line end.
  [[nodiscard]] std::string_view text() const { return row_text_; }

  // What a column holds: a standard column (its position in kStandardColumns), a counter (its
  // index), counted_pct, or another (its text only: group-by may name it).
  enum class Kind : unsigned char { kStandard, kCounter, kCountedPct, kOther };
  // Parses the cell of `column` into the row.
  using Parse = void (*)(RowReader& reader, std::size_t column);

 private:
  struct Column {
    Kind kind = Kind::kOther;
    std::size_t slot = 0;  // the standard column's position, or the counter's index
    Parse parse = nullptr;
  };
  static Column column_of(std::string_view name);
  [[noreturn]] void fail(std::size_t column, const std::string& what) const;
  void parse_row();
  // One value as its codec reads it (schema.hpp, RunCodec), by the member's type.
  void parse_value(std::size_t column, RunCodec codec, std::string& text);
  void parse_value(std::size_t column, RunCodec codec, double& value);
  void parse_value(std::size_t column, RunCodec codec, std::int64_t& kib);
  void parse_value(std::size_t column, RunCodec codec, int& repeat);
  void parse_value(std::size_t column, RunCodec codec, RunStatus& status);
  void parse_value(std::size_t column, RunCodec codec, std::optional<int>& exit_code);
  void parse_value(std::size_t column, RunCodec codec, std::optional<std::int64_t>& count);
  void parse_value(std::size_t column, RunCodec codec, std::optional<std::uint64_t>& count);
  void parse_value(std::size_t column, RunCodec codec, std::optional<double>& value);

  std::string name_;
  std::string_view text_;
  RunColumns columns_;
  std::vector<Column> kinds_;
  std::vector<std::size_t> read_;  // selected columns, status first (times need the status)
  std::size_t last_needed_ = 0;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::vector<std::string_view> cells_;
  std::string_view row_text_;
  bool cpu_pct_unknown_ = false;  // GNU time's "?": worked out from the times
  RunRow row_;
};

// A run file read whole: every row with every figure it has.
struct RunFile {
  std::string name;
  RunColumns columns;
  std::vector<RunRow> rows;
  std::vector<std::size_t> lines;  // each row's line number, for messages
  std::vector<Counter> counters;   // the counter columns it has, in schema order
  std::string hash;  // hex XXH3-128 of the file's bytes: the history stores a file once
};

// Parses a whole run file in memory; throws as RowReader.
RunFile parse_run_file(std::string_view text, std::string name);
// Reads `path` ("-" is standard input) and parses it. Throws iobench::Error (exit 2) when it
// cannot be read, naming it.
RunFile read_run_file(const std::filesystem::path& path);

}  // namespace iobench::runfile
