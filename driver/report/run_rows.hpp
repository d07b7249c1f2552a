#pragma once
// A run file's rows, field by field, for the reports that need columns the reader does not group
// (docs/formats.md "Run file"): the HTML report's context switches and disturbance, the two-level
// warnings. The file was read by runfile::read_runs already, so it is well formed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/header.hpp"
#include "driver/runfile/numbers.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::report::run_rows {

inline constexpr std::size_t kMissing = static_cast<std::size_t>(-1);

inline std::size_t column_index(const std::vector<std::string_view>& columns,
                                std::string_view name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  return kMissing;
}

inline std::string_view field(const std::vector<std::string_view>& fields, std::size_t i) {
  return i < fields.size() ? fields[i] : std::string_view();
}

// The field as a number; empty when the column is missing or the cell empty.
inline std::optional<double> number(const std::vector<std::string_view>& fields,
                                    std::size_t column) {
  double value = 0;
  if (column < fields.size() && runfile::parse_double(fields[column], value)) return value;
  return std::nullopt;
}

// The columns naming a row's cell (test, input, sink) and its status; a file without a status
// column has ok rows only (GNU time's).
struct CellColumns {
  std::size_t test = kMissing, input = kMissing, sink = kMissing, status = kMissing;

  explicit CellColumns(const std::vector<std::string_view>& columns)
      : test(column_index(columns, "test")),
        input(column_index(columns, "input")),
        sink(column_index(columns, "sink")),
        status(column_index(columns, "status")) {}
  using Fields = std::vector<std::string_view>;
  [[nodiscard]] std::string_view test_of(const Fields& fields) const { return field(fields, test); }
  [[nodiscard]] std::string_view input_of(const Fields& f) const { return field(f, input); }
  [[nodiscard]] std::string_view sink_of(const Fields& fields) const { return field(fields, sink); }
  [[nodiscard]] std::string_view status_of(const Fields& fields) const {
    return status == kMissing ? to_string(RunStatus::kOk) : field(fields, status);
  }
};

// Hands the header's columns to on_header, which says whether the file concerns it, then each
// data row's fields to on_row.
template <typename OnHeader, typename OnRow>
void for_each_row(const std::string& name, std::string_view text, OnHeader on_header,
                  OnRow on_row) {
  const runfile::FileHeader header = runfile::read_header(name, text);
  if (!on_header(header.columns)) return;
  std::size_t pos = header.body_start;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = runfile::strip_cr(text.substr(pos, end - pos));
    pos = end + 1;
    if (!line.empty()) on_row(runfile::split_tabs(line));
  }
}

}  // namespace iobench::report::run_rows
