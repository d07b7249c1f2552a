// The table writer every report shares (export.hpp): pretty, markdown and tsv.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>

#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/util/format.hpp"

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
  for (std::size_t c = 0; c < ncols; ++c) width[c] = display_width(table.header[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < ncols && c < row.size(); ++c) {
      width[c] = std::max(width[c], display_width(row[c]));
    }
  }
  if (format == Format::kMarkdown) width.assign(ncols, 0);  // markdown needs no padding
  const auto cell = [&](const std::string& text, std::size_t c) {
    const std::size_t w = display_width(text);
    const std::string pad(width[c] > w ? width[c] - w : 0, ' ');
    return is_numeric(c) ? pad + text : text + pad;
  };
  const auto write_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < ncols; ++c) {
      const std::string& text = c < row.size() ? row[c] : std::string();
      if (format == Format::kMarkdown) {
        std::string escaped;
        for (char ch : text) {
          if (ch == '|') escaped += '\\';
          escaped += ch;
        }
        line += "| " + escaped + " ";
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

}  // namespace iobench::report
