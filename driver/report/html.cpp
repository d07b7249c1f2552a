#include "driver/report/html.hpp"

#include <fmt/format.h>

#include <cmath>

#include "driver/util/text.hpp"

namespace iobench::report::html {

using util::escape_markup;

Cell text_cell(std::string_view text, std::string_view css_class) {
  return Cell{escape_markup(text), false, std::nullopt, std::string(css_class), ""};
}

Cell number_cell(std::optional<double> value, std::string_view shown) {
  Cell cell;
  cell.numeric = true;
  const bool known = value && std::isfinite(*value);
  cell.html = known && !shown.empty() ? escape_markup(shown) : "-";
  if (known) cell.sort_by = *value;
  return cell;
}

namespace {

std::string render_cell(const Cell& cell) {
  std::string out = "<td";
  if (!cell.css_class.empty()) out += fmt::format(R"( class="{}")", escape_markup(cell.css_class));
  // Every cell of a sortable column carries data-v; empty for "no value", which sorts last.
  if (cell.numeric) {
    out += cell.sort_by ? fmt::format(R"( data-v="{:.9g}")", *cell.sort_by) : R"( data-v="")";
  }
  if (!cell.title.empty()) out += fmt::format(R"( title="{}")", escape_markup(cell.title));
  return out + ">" + cell.html + "</td>";
}

}  // namespace

std::string render_table(const Table& table) {
  std::string out =
      fmt::format(R"(<div class="table-wrap"><table class="{}">)", escape_markup(table.css_class));
  if (!table.caption.empty()) out += "<caption>" + escape_markup(table.caption) + "</caption>";
  out += "<thead><tr>";
  for (const auto& column : table.columns) {
    out += fmt::format(
        R"(<th scope="col"{}{}>{}</th>)", column.text ? R"( class="text")" : "",
        column.title.empty() ? "" : fmt::format(R"( title="{}")", escape_markup(column.title)),
        escape_markup(column.name));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out +=
        row.test.empty() ? "<tr>" : fmt::format(R"(<tr data-test="{}">)", escape_markup(row.test));
    for (const auto& cell : row.cells) out += render_cell(cell);
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string definition_list(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out = "<dl>";
  for (const auto& [name, value] : pairs) {
    if (value.empty()) continue;
    out += fmt::format("<dt>{}</dt><dd>{}</dd>", escape_markup(name), escape_markup(value));
  }
  return out + "</dl>\n";
}

}  // namespace iobench::report::html
