// The table writer every report shares (export.hpp): pretty, markdown and tsv.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <stdexcept>

#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {

Format parse_format(std::string_view name) {
  if (name == "pretty") return Format::kPretty;
  if (name == "tsv") return Format::kTsv;
  if (name == "markdown" || name == "md") return Format::kMarkdown;
  if (name == "json") return Format::kJson;
  throw Error(fmt::format("--format {}: unknown format (pretty, tsv, markdown, json)", name));
}

std::string trimmed(double value, int decimals) {
  if (std::isnan(value)) return "";
  std::string s = fmt::format("{:.{}f}", value, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

void write_table(const Table& table, Format format, std::ostream& out) {
  const std::size_t ncols = table.header.size();
  const auto is_numeric = [&](std::size_t c) {
    return c < table.numeric.size() && table.numeric[c];
  };
  if (format == Format::kTsv) {
    for (std::size_t c = 0; c < ncols; ++c) out << (c ? "\t" : "") << table.header[c];
    out << '\n';
    for (const auto& row : table.rows) {
      for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "\t" : "") << row[c];
      out << '\n';
    }
    return;
  }
  if (format == Format::kJson) throw std::logic_error("write_table: json is not a table format");
  std::vector<std::size_t> width(ncols, 0);
  for (std::size_t c = 0; c < ncols; ++c) width[c] = util::display_width(table.header[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < ncols && c < row.size(); ++c) {
      width[c] = std::max(width[c], util::display_width(row[c]));
    }
  }
  if (format == Format::kMarkdown) width.assign(ncols, 0);  // markdown needs no padding
  const auto cell = [&](const std::string& text, std::size_t c) {
    const std::size_t w = util::display_width(text);
    const std::string pad(width[c] > w ? width[c] - w : 0, ' ');
    return is_numeric(c) ? pad + text : text + pad;
  };
  const auto write_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < ncols; ++c) {
      const std::string& text = c < row.size() ? row[c] : std::string();
      if (format == Format::kMarkdown) {
        line += "| " + util::escape_table_cell(text) + " ";
      } else {
        line += (c ? "  " : "") + cell(text, c);
      }
    }
    if (format == Format::kMarkdown) line += "|";
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  write_row(table.header);
  if (format == Format::kMarkdown) {
    std::string rule;
    for (std::size_t c = 0; c < ncols; ++c) rule += is_numeric(c) ? "| ---: " : "| --- ";
    out << rule << "|\n";
  } else {
    std::size_t total = 0;
    for (std::size_t c = 0; c < ncols; ++c) total += width[c] + (c ? 2 : 0);
    std::string rule;
    for (std::size_t i = 0; i < total; ++i) rule += "─";
    out << rule << '\n';
  }
  for (const auto& row : table.rows) write_row(row);
}

namespace {

// The rows that share their values in the section columns, in order of first appearance.
struct TableSection {
  std::vector<std::string> values;
  std::vector<std::size_t> rows;
};

std::vector<TableSection> sections_of(const Table& table, const std::vector<std::size_t>& columns) {
  std::vector<TableSection> sections;
  std::map<std::vector<std::string>, std::size_t> index;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string> values;
    values.reserve(columns.size());
    for (std::size_t c : columns) {
      values.push_back(c < table.rows[r].size() ? table.rows[r][c] : std::string());
    }
    const auto [it, inserted] = index.try_emplace(values, sections.size());
    if (inserted) sections.push_back({std::move(values), {}});
    sections[it->second].rows.push_back(r);
  }
  return sections;
}

// The section's first `shown` rows, without the columns its heading names.
Table section_table(const Table& table, const TableSection& section,
                    const std::vector<std::size_t>& dropped, std::size_t shown) {
  const auto kept = [&](std::size_t c) {
    return std::find(dropped.begin(), dropped.end(), c) == dropped.end();
  };
  Table out;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (!kept(c)) continue;
    out.header.push_back(table.header[c]);
    out.numeric.push_back(c < table.numeric.size() && table.numeric[c]);
  }
  for (std::size_t i = 0; i < shown; ++i) {
    const std::vector<std::string>& row = table.rows[section.rows[i]];
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (kept(c)) cells.push_back(row[c]);
    }
    out.rows.push_back(std::move(cells));
  }
  return out;
}

// "input in.txt, sink pipe"; markdown's emphasis characters escaped, so "null*" stays text.
std::string section_heading(const Table& table, const std::vector<std::size_t>& columns,
                            const TableSection& section, Format format) {
  std::string heading;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& value = section.values[i];
    heading += fmt::format("{}{} {}", i ? ", " : "", table.header[columns[i]],
                           value.empty() ? "(none)" : value);
  }
  if (format != Format::kMarkdown) return heading;
  std::string escaped;
  for (char ch : heading) {
    if (ch == '*' || ch == '_' || ch == '`' || ch == '\\') escaped += '\\';
    escaped += ch;
  }
  return "**" + escaped + "**";
}

}  // namespace

std::vector<std::size_t> input_sink_columns(const std::vector<std::string>& group_by) {
  std::vector<std::size_t> columns;
  for (std::string_view name : {"input", "sink"}) {
    const auto it = std::find(group_by.begin(), group_by.end(), name);
    if (it != group_by.end()) columns.push_back(static_cast<std::size_t>(it - group_by.begin()));
  }
  return columns;
}

void write_table_sections(const Table& table, Format format,
                          const std::vector<std::size_t>& section_columns, const TableView& view,
                          std::ostream& out) {
  if (format == Format::kTsv || format == Format::kJson) {
    write_table(table, format, out);  // scripts get every row; json throws as write_table does
    return;
  }
  std::vector<TableSection> sections = sections_of(table, section_columns);
  const bool headed = sections.size() > 1;
  if (sections.empty()) sections.push_back({});  // no rows: the header and rule as ever
  const std::vector<std::size_t> no_columns;
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const TableSection& section = sections[s];
    const std::size_t total = section.rows.size();
    const std::size_t shown = view.top_rows > 0 ? std::min(total, view.top_rows) : total;
    if (headed) {
      if (s > 0) out << '\n';
      out << section_heading(table, section_columns, section, format) << '\n';
      if (format == Format::kMarkdown) out << '\n';
    }
    write_table(section_table(table, section, headed ? section_columns : no_columns, shown), format,
                out);
    if (shown < total) {
      out << (format == Format::kMarkdown ? "\n" : "")
          << fmt::format("… and {} more ({})\n", util::with_thousands(total - shown),
                         view.all_rows_hint);
    }
  }
}

}  // namespace iobench::report
