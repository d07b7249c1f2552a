#pragma once
// HTML building blocks for the run report (docs/reports.md, "The HTML report"): tables whose cells
// carry the value a script sorts them by, so the page reads the same with scripts off (the numbers
// are in the cells) and sorts exactly with them on.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::report::html {

struct Cell {
  std::string html;               // already escaped
  bool numeric = false;           // sorted by sort_by (data-v), else by its text
  std::optional<double> sort_by;  // none: no value, sorted last
  std::string css_class;          // e.g. "text" for a left-aligned cell
  std::string title;              // a tooltip, plain text (escaped when written)
};
Cell text_cell(std::string_view text, std::string_view css_class = "text");
// A figure shown as `shown` and sorted by `value`; an empty cell ("-") sorts last.
Cell number_cell(std::optional<double> value, std::string_view shown);

struct TableRow {
  std::string test;  // data-test: the test a script hides and shows; empty: none
  std::vector<Cell> cells;
};

struct Table {
  std::string css_class;  // "sortable" tables get sort buttons from the script
  std::string caption;    // plain text; empty: none
  struct Column {
    std::string name;   // plain text
    std::string title;  // what it is, plain text (a tooltip on the header)
    bool text = false;  // left-aligned
  };
  std::vector<Column> columns;
  std::vector<TableRow> rows;
};
std::string render_table(const Table& table);

// <dl> of the pairs whose value is not empty (machine, provenance).
std::string definition_list(const std::vector<std::pair<std::string, std::string>>& pairs);

}  // namespace iobench::report::html
